/* Shared CLI pieces: case flags, reading files, creating the runner. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

const char RF_CLI_CASE_FLAGS_HELP[] =
  "case flags (unset fields take the defaults of a text case):\n"
  "  --case FILE        read the case from a text file (key=value lines); flags after it\n"
  "                     override its fields\n"
  "  --op OP            sum | max | argmax | softmax                       (default sum)\n"
  "  --n N              length for sum/max/argmax                          (default 1027)\n"
  "  --rows R --cols C  softmax shape\n"
  "  --seed S           64-bit seed, decimal or 0x hex                     (default 1)\n"
  "  --dist D           alternating | ones | wide | negative | equal-max | shifted-rows |\n"
  "                     uniform | index-weighted | spike | subnormal | near-overflow | sorted |\n"
  "                     overflow | nan-sprinkled | inf-mixed | signed-zero | all-nan |\n"
  "                     all-neg-inf | ties (docs/CASE_FORMAT.md)\n"
  "  --block B          threads per block, 0 = each variant's default\n"
  "  --grid G           blocks of the first kernel, 0 = each variant's default\n"
  "  --items K          items per thread where a variant has that knob, 0 = default\n"
  "  --schedule S       simulator schedule: in-order | reverse | random | wave-skew\n"
  "  --wave W           simulator wave size: 32 | 64\n"
  "  --variant NAME     run only this variant (e.g. sum/lds); default: every variant of the op\n";

static int parse_u64(const char *s, uint64_t *out) {
  if (!*s || *s == '-') return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

static int bad(const char *cmd, const char *flag, const char *val, const char *allowed) {
  fprintf(stderr, "redfuzz %s: %s: '%s' is not valid (allowed: %s)\n", cmd, flag, val, allowed);
  return -1;
}

char *rf_read_file(const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) { snprintf(err, errlen, "%s: %s", path, strerror(errno)); return NULL; }
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (cap - len - 1 == 0) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) { free(buf); buf = NULL; }
      else buf = nb;
    }
  }
  int failed = ferror(f);
  fclose(f);
  if (!buf || failed) {
    free(buf);
    snprintf(err, errlen, "%s: read error", path);
    return NULL;
  }
  buf[len] = 0;
  return buf;
}

static int load_case_file(const char *cmd, const char *path, rf_case *c) {
  char err[512];
  char *text = rf_read_file(path, err, sizeof err);
  if (!text) { fprintf(stderr, "redfuzz %s: --case: %s\n", cmd, err); return -1; }
  size_t n_exp = 0;
  int rc = rf_case_parse_text(text, c, NULL, 0, &n_exp, err, sizeof err);
  int binary = 0;   /* control bytes: a libFuzzer input, not a text case */
  for (const unsigned char *p = (const unsigned char *)text; *p && !binary; p++)
    binary = *p < 9 || (*p > 13 && *p < 32);
  free(text);
  if (rc && binary) {
    fprintf(stderr, "redfuzz %s: %s is a binary fuzz input (a libFuzzer artifact), not a text "
            "case: 'redfuzz decode %s > case.txt' writes the case it decodes to, then use "
            "--case case.txt\n", cmd, path, path);
    return -1;
  }
  if (rc) { fprintf(stderr, "redfuzz %s: %s: %s\n", cmd, path, err); return -1; }
  return 0;
}

void rf_cli_case_init(rf_cli_case *cc) {
  memset(cc, 0, sizeof *cc);
  rf_case_default(&cc->c);
}

int rf_cli_case_finish(const char *cmd, rf_cli_case *cc, const rf_limits *lim) {
  rf_case *c = &cc->c;
  if (!cc->from_file) {
    if (c->op == RF_OP_SOFTMAX) {
      if (!cc->set_n) c->n = 0;
      if (!cc->set_shape) { c->rows = 4; c->cols = 33; }
    } else if (!cc->set_shape) {
      c->rows = c->cols = 0;
    }
  }
  char err[256];
  if (rf_case_validate(c, lim, err, sizeof err)) {
    fprintf(stderr, "redfuzz %s: %s\n", cmd, err);
    return -1;
  }
  return 0;
}

int rf_cli_case_flag(const char *cmd, int argc, char **argv, int *i, rf_cli_case *cc) {
  rf_case *c = &cc->c;
  static const char *const flags[] = {"--case", "--op", "--n", "--rows", "--cols", "--seed",
    "--dist", "--block", "--grid", "--items", "--schedule", "--wave", "--variant"};
  const char *flag = argv[*i];
  int known = 0;
  for (size_t k = 0; k < sizeof flags / sizeof *flags; k++) known |= strcmp(flag, flags[k]) == 0;
  if (!known) return 0;
  if (*i + 1 >= argc) {
    fprintf(stderr, "redfuzz %s: %s needs a value\n", cmd, flag);
    return -1;
  }
  const char *val = argv[++*i];
  uint64_t u = 0;
  int num = parse_u64(val, &u) == 0;
  if (strcmp(flag, "--case") == 0) {
    if (load_case_file(cmd, val, c)) return -1;
    cc->from_file = 1;
  } else if (strcmp(flag, "--op") == 0) {
    if (rf_op_parse(val, &c->op)) return bad(cmd, flag, val, "sum, max, argmax, softmax");
  } else if (strcmp(flag, "--dist") == 0) {
    if (rf_dist_parse(val, &c->dist))
      return bad(cmd, flag, val, "alternating, ones, wide, negative, equal-max, shifted-rows, "
                 "uniform, index-weighted, spike, subnormal, near-overflow, sorted, overflow, "
                 "nan-sprinkled, inf-mixed, signed-zero, all-nan, all-neg-inf, ties");
  } else if (strcmp(flag, "--schedule") == 0) {
    if (rf_sched_parse(val, &c->sched))
      return bad(cmd, flag, val, "in-order, reverse, random, wave-skew");
  } else if (strcmp(flag, "--variant") == 0) {
    if (strlen(val) >= sizeof c->variant) return bad(cmd, flag, val, "a name from 'redfuzz list'");
    snprintf(c->variant, sizeof c->variant, "%s", val);
  } else if (!num) {
    return bad(cmd, flag, val, "a non-negative integer");
  } else if (strcmp(flag, "--n") == 0) {
    c->n = u;
    cc->set_n = 1;
  } else if (strcmp(flag, "--seed") == 0) {
    c->seed = u;
  } else {
    uint32_t *field = strcmp(flag, "--rows") == 0 ? &c->rows : strcmp(flag, "--cols") == 0 ? &c->cols
                    : strcmp(flag, "--block") == 0 ? &c->block : strcmp(flag, "--grid") == 0 ? &c->grid
                    : strcmp(flag, "--items") == 0 ? &c->items : &c->wave;
    if (u > UINT32_MAX) return bad(cmd, flag, val, "at most 4294967295");
    *field = (uint32_t)u;
    if (field == &c->rows || field == &c->cols) cc->set_shape = 1;
  }
  return 1;
}

rf_runner *rf_cli_runner(const char *cmd) {
  char err[256];
  rf_runner *r = rf_runner_create(err, sizeof err);
  if (!r) fprintf(stderr, "redfuzz %s: %s\n", cmd, err);
  return r;
}
