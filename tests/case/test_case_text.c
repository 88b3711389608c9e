/* Text form: parsing (defaults, comments, whitespace, hex seeds, expect lines), the canonical
 * writer and its round trip, and the exact error message of every kind of mistake. */
#include <stdlib.h>
#include <string.h>

#include "model/case.h"
#include "model/gen.h"
#include "random_case.h"
#include "rf_test.h"

static char err[512];

/* parsing text fails with exactly `want`, and leaves the output case alone */
static int fails_with(const char *text, const char *want) {
  rf_case c, before;
  rf_case_default(&c);
  c.seed = 4242;
  before = c;
  rf_expect ex[4];
  size_t n = 99;
  int r = rf_case_parse_text(text, &c, ex, 4, &n, err, sizeof err);
  if (r != -1 || strcmp(err, want) != 0 || !rf_case_equal(&c, &before) || n != 0) {
    fprintf(stderr, "  text:\n%s\n  got %d '%s'\n  want '%s'\n", text, r, err, want);
    return 0;
  }
  return 1;
}

static int parses(const char *text, rf_case *c) {
  int r = rf_case_parse_text(text, c, NULL, 0, NULL, err, sizeof err);
  if (r != 0) fprintf(stderr, "  unexpected error: %s\n", err);
  return r == 0;
}

/* the canonical text of c, through a real FILE */
static void write_to(const rf_case *c, char *buf, size_t size) {
  FILE *f = tmpfile();
  rf_case_write_text(c, f);
  rewind(f);
  size_t n = fread(buf, 1, size - 1, f);
  buf[n] = '\0';
  fclose(f);
}

static void test_defaults_and_syntax(void) {
  rf_case c, want;
  rf_case_default(&want);
  CHECK(parses("", &c) && rf_case_equal(&c, &want));
  CHECK(parses("op=sum\nn=5", &c));
  want.n = 5;
  CHECK(rf_case_equal(&c, &want));
  /* comments (whole-line and trailing), blank lines, spaces, tabs, CRLF */
  CHECK(parses("# a regression\n\n  op = max \r\n\tn=\t7   # seven\r\n\n#seed=3\nseed = 0x1F\n",
               &c));
  rf_case_default(&want);
  want.op = RF_OP_MAX;
  want.n = 7;
  want.seed = 31;
  CHECK(rf_case_equal(&c, &want));
  CHECK(parses("seed=0xFFFFFFFFFFFFFFFF", &c) && c.seed == UINT64_MAX);
  CHECK(parses("seed=18446744073709551615", &c) && c.seed == UINT64_MAX);
  CHECK(parses("seed=0XaBc", &c) && c.seed == 0xabc);
  /* softmax: a missing n means 0, not the 1-D default */
  CHECK(parses("op=softmax\nrows=4\ncols=33\ndist=shifted-rows\nvariant=softmax/fused", &c));
  CHECK(c.op == RF_OP_SOFTMAX && c.n == 0 && c.rows == 4 && c.cols == 33);
  CHECK(c.dist == RF_DIST_SHIFTED_ROWS && strcmp(c.variant, "softmax/fused") == 0);
  CHECK(parses("op=softmax", &c) && c.n == 0 && c.rows == 0 && c.cols == 0);
  CHECK(parses("variant=\nschedule=wave-skew\nwave=64\nitems=64\ngrid=2147483647\nblock=1", &c));
  CHECK(c.variant[0] == '\0' && c.sched == RF_SCHED_WAVE_SKEW && c.wave == 64);
  CHECK(c.items == 64 && c.grid == 2147483647u && c.block == 1);
  CHECK(parses("n=4294967296", &c) && c.n == (UINT64_C(1) << 32));
  /* no trailing newline, a lone key=value with '=' inside the value is fine for variant */
  CHECK(parses("variant=sum/a=b", &c) && strcmp(c.variant, "sum/a=b") == 0);
}

static void test_write_and_round_trip(void) {
  rf_case c;
  rf_case_default(&c);
  char buf[2048];
  write_to(&c, buf, sizeof buf);
  CHECK(strcmp(buf, "op=sum\nn=1027\nrows=0\ncols=0\nseed=1\ndist=alternating\nblock=0\n"
                    "grid=0\nitems=0\nschedule=in-order\nwave=32\ndtype=f32\nmisalign=0\nvariant=\n") == 0);
  /* every valid case survives write -> parse (built-in limits, as parse validates with them) */
  uint64_t s = 2024;
  static const char *names[] = {"", "%s/lds", "%s/two-stage-wave", "%s/x"};
  int bad = 0;
  for (int i = 0; i < 3000; i++) {
    rf_case d;
    random_valid_case(&s, NULL, &c);
    snprintf(c.variant, sizeof c.variant, names[i % 4], rf_op_name(c.op));
    write_to(&c, buf, sizeof buf);
    if (rf_case_parse_text(buf, &d, NULL, 0, NULL, err, sizeof err) != 0 ||
        !rf_case_equal(&c, &d)) {
      if (bad++ == 0) fprintf(stderr, "  round trip failed (%s):\n%s", err, buf);
    }
  }
  CHECK_MSG(bad == 0, "%d of 3000 cases did not round-trip through text", bad);
  /* Sizes past 2^31, 2^32 up to the model's 2^34 (issue 37), dense and sparse. */
  static const uint64_t big[] = {(UINT64_C(1) << 31) + 5, (UINT64_C(1) << 32) + 3,
                                 UINT64_C(1) << 34};
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
    for (int sparse = 0; sparse < 2; sparse++) {
      rf_case d;
      rf_case_default(&c);
      c.n = big[i];
      c.dist = sparse ? RF_DIST_MARKERS : RF_DIST_ONES;
      write_to(&c, buf, sizeof buf);
      CHECK_MSG(rf_case_parse_text(buf, &d, NULL, 0, NULL, err, sizeof err) == 0 &&
                rf_case_equal(&c, &d), "n=%llu did not round-trip: %s",
                (unsigned long long)big[i], err);
    }
}

static void test_expects(void) {
  rf_case c;
  rf_expect ex[4];
  size_t n = 0;
  const char *text = "op=sum\n"
                     "expect sum/lds pass\n"
                     "expect\tsum/atomic-mutant   wrong  # planted bug\n"
                     "n=33\n"
                     "expect sum/two-stage unsupported\n";
  CHECK(rf_case_parse_text(text, &c, ex, 3, &n, err, sizeof err) == 0);
  CHECK(n == 3 && c.n == 33);
  CHECK(strcmp(ex[0].variant, "sum/lds") == 0 && strcmp(ex[0].verdict, "pass") == 0);
  CHECK(strcmp(ex[1].variant, "sum/atomic-mutant") == 0 && strcmp(ex[1].verdict, "wrong") == 0);
  CHECK(strcmp(ex[2].variant, "sum/two-stage") == 0 && strcmp(ex[2].verdict, "unsupported") == 0);
  /* expects are checked even when not collected */
  CHECK(rf_case_parse_text(text, &c, NULL, 0, &n, err, sizeof err) == 0 && n == 3);
  /* an expect may come before the op it belongs to */
  CHECK(rf_case_parse_text("expect max/lds pass\nop=max\n", &c, ex, 3, &n, err, sizeof err) == 0);
  CHECK(n == 1 && c.op == RF_OP_MAX);
  /* a backend scope; and whether replay holds a line on a backend (rf_expect_applies) */
  CHECK(rf_case_parse_text("op=sum\nexpect sum/a wrong on sim\nexpect sum/b race\n"
                           "expect sum/c wrong\nexpect sum/d divergent-barrier on cuda\n",
                           &c, ex, 4, &n, err, sizeof err) == 0 && n == 4);
  CHECK(strcmp(ex[0].backend, "sim") == 0 && strcmp(ex[0].verdict, "wrong") == 0);
  CHECK(ex[1].backend[0] == '\0' && ex[2].backend[0] == '\0');
  CHECK(strcmp(ex[3].backend, "cuda") == 0);
  CHECK(rf_expect_applies(&ex[0], "sim", 1) && !rf_expect_applies(&ex[0], "cuda", 0));
  CHECK(rf_expect_applies(&ex[1], "sim", 1) && !rf_expect_applies(&ex[1], "hip", 0));  /* race */
  CHECK(rf_expect_applies(&ex[2], "sim", 1) && rf_expect_applies(&ex[2], "cuda", 0));
  /* scoped to cuda: held there even for a verdict the simulator alone gives by default */
  CHECK(!rf_expect_applies(&ex[3], "sim", 1) && rf_expect_applies(&ex[3], "cuda", 0));
  /* a line per backend beside the line for every backend; the class 'fail' */
  CHECK(rf_case_parse_text("op=sum\nexpect sum/a fail\nexpect sum/a race on sim\n"
                           "expect sum/b pass\n", &c, ex, 4, &n, err, sizeof err) == 0 && n == 3);
  CHECK(rf_expect_overridden(ex, n, 0, "sim") && !rf_expect_overridden(ex, n, 0, "cuda"));
  CHECK(!rf_expect_overridden(ex, n, 1, "sim") && !rf_expect_overridden(ex, n, 2, "sim"));
  CHECK(rf_expect_matches(&ex[0], RF_V_WRONG) && rf_expect_matches(&ex[0], RF_V_CRASH) &&
        !rf_expect_matches(&ex[0], RF_V_PASS) && !rf_expect_matches(&ex[0], RF_V_UNSUPPORTED));
  CHECK(rf_expect_matches(&ex[1], RF_V_RACE) && !rf_expect_matches(&ex[1], RF_V_WRONG));
  CHECK(rf_expect_matches(&ex[2], RF_V_PASS) && !rf_expect_matches(&ex[2], RF_V_WRONG));
  static const char *verdicts[] = {"pass", "wrong", "nonfinite", "unwritten", "oob",
                                   "nondeterministic", "race", "divergent-barrier",
                                   "launch-error", "timeout", "unsupported"};
  for (size_t i = 0; i < sizeof verdicts / sizeof verdicts[0]; i++) {
    char t[128];
    snprintf(t, sizeof t, "expect sum/v %s\n", verdicts[i]);
    CHECK_MSG(rf_case_parse_text(t, &c, ex, 3, &n, err, sizeof err) == 0 &&
              strcmp(ex[0].verdict, verdicts[i]) == 0, "verdict %s", verdicts[i]);
  }
}

static void test_errors(void) {
  CHECK(fails_with("op=sum\nblok=3\n", "line 2: unknown key 'blok' (allowed: op, n, rows, cols, "
                   "seed, dist, block, grid, items, schedule, wave, dtype, misalign, variant, plugins, only)"));
  CHECK(fails_with("op=sum\n\nblock=abc\n", "line 3: key 'block': value 'abc' is not a number "
                   "(allowed: 0..1024; decimal, 0x hex or 2^K[+-D])"));
  CHECK(fails_with("n=-1", "line 1: key 'n': value '-1' is not a number (allowed: "
                   "0..2^64-1; decimal, 0x hex or 2^K[+-D])"));
  CHECK(fails_with("n=", "line 1: key 'n': value '' is not a number (allowed: 0..2^64-1; "
                   "decimal, 0x hex or 2^K[+-D])"));
  CHECK(fails_with("n=010x", "line 1: key 'n': value '010x' is not a number (allowed: "
                   "0..2^64-1; decimal, 0x hex or 2^K[+-D])"));
  CHECK(fails_with("seed=0x", "line 1: key 'seed': value '0x' is not a number (allowed: "
                   "0..2^64-1; decimal, 0x hex or 2^K[+-D])"));
  CHECK(fails_with("seed=18446744073709551616", "line 1: key 'seed': value "
                   "'18446744073709551616' is out of range (allowed: 0..2^64-1)"));
  CHECK(fails_with("seed=0x10000000000000000", "line 1: key 'seed': value "
                   "'0x10000000000000000' is out of range (allowed: 0..2^64-1)"));
  CHECK(fails_with("grid=4294967296", "line 1: key 'grid': value '4294967296' is out of range "
                   "(allowed: 0..2147483647)"));
  CHECK(fails_with("op=sum\nn=5\nblock=2000\n", "line 3: key 'block': value '2000' is out of "
                   "range (allowed: 0..1024)"));
  CHECK(fails_with("\nitems=65", "line 2: key 'items': value '65' is out of range (allowed: "
                   "0..64)"));
  CHECK(fails_with("block=2^11", "line 1: key 'block': value '2^11' is out of range (allowed: "
                   "0..1024)"));
  /* One number syntax everywhere: 010 is ten, 0x20 and 2^5 are 32 (no octal). */
  {
    rf_case c;
    char err[256];
    CHECK(rf_case_parse_text("n=010\nwave=0x20\nblock=2^5\ngrid=2^4+1", &c, NULL, 0, NULL, err,
                             sizeof err) == 0);
    CHECK(c.n == 10 && c.wave == 32 && c.block == 32 && c.grid == 17);
  }
  /* Not text: a NUL byte (what follows it would be lost) or other control bytes. */
  {
    rf_case c;
    char err[256];
    static const char nul[] = "op=sum\nn=5\0n=7\n";
    CHECK(rf_case_parse_text_len(nul, sizeof nul - 1, &c, NULL, 0, NULL, err, sizeof err) == -1);
    CHECK(strstr(err, "line 2: byte 0x00 at offset 10 is not text") != NULL);
    /* A UTF-8 byte-order mark before the first key is skipped. */
    static const char bom[] = "\xEF\xBB\xBFop=max\nn=3\n";
    CHECK(rf_case_parse_text_len(bom, sizeof bom - 1, &c, NULL, 0, NULL, err, sizeof err) == 0);
    CHECK(c.op == RF_OP_MAX && c.n == 3);
  }
  CHECK(fails_with("wave=48", "line 1: key 'wave': value '48' is out of range (allowed: 32 or "
                   "64)"));
  CHECK(fails_with("n=17179869185", "line 1: n: 17179869185 is out of range (allowed: "
                   "0..17179869184)"));
  CHECK(fails_with("rows=2\nop=softmax\nn=8\ncols=3", "line 3: n: 8 is out of range for softmax "
                   "(allowed: 0; softmax uses rows and cols)"));
  CHECK(fails_with("rows=2", "line 1: rows: 2 is out of range for sum (allowed: 0; only the row "
                   "ops (softmax, logsumexp, logsoftmax) have rows and cols)"));
  CHECK(fails_with("op=softmax\ncols=1048577", "line 2: cols: 1048577 is out of range (allowed: "
                   "0..1048576)"));
  CHECK(fails_with("op=softmax\ncols=1048576\nrows=8192\n#end", "line 3: rows*cols: "
                   "8192*1048576 = 8589934592 is out of range (allowed: 0..4294967296)"));
  CHECK(fails_with("op=max\nvariant=sum/lds", "line 2: variant: 'sum/lds' is not a valid name "
                   "(allowed: \"\" = every variant, or \"max/<name>\", at most 63 printable "
                   "characters without spaces or '#')"));
  {
    char text[128], want[256];
    char name[68] = "sum/";
    memset(name + 4, 'a', 63); /* 67 characters */
    name[67] = '\0';
    snprintf(text, sizeof text, "variant=%s", name);
    snprintf(want, sizeof want, "line 1: key 'variant': value '%s' is too long (allowed: at "
             "most 63 characters)", name);
    CHECK(fails_with(text, want));
  }
  /* names */
  CHECK(fails_with("op=summ", "line 1: key 'op': value 'summ' is not an op (allowed: sum, max, "
                   "argmax, softmax, logsumexp, logsoftmax, min, argmin)"));
  {
    /* the list is the table's: every distribution, however many */
    char want[1024];
    snprintf(want, sizeof want, "line 1: key 'dist': value 'gauss' is not a distribution "
             "(allowed: %s)", rf_dist_list());
    CHECK(fails_with("dist=gauss", want));
  }
  CHECK(fails_with("schedule=backwards", "line 1: key 'schedule': value 'backwards' is not a "
                   "schedule (allowed: in-order, reverse, random, wave-skew)"));
  /* structure */
  CHECK(fails_with("n=3\n# x\nn=4\n", "line 3: key 'n' is repeated (first on line 1)"));
  CHECK(fails_with("op sum", "line 1: 'op sum' is not key=value (allowed: key=value, "
                   "expect <variant> <verdict>, # comment)"));
  CHECK(fails_with("=5", "line 1: unknown key '' (allowed: op, n, rows, cols, seed, dist, block, "
                   "grid, items, schedule, wave, dtype, misalign, variant, plugins, only)"));
  CHECK(fails_with("expect=5", "line 1: unknown key 'expect' (allowed: op, n, rows, cols, seed, "
                   "dist, block, grid, items, schedule, wave, dtype, misalign, variant, plugins, only)"));
  /* expect lines */
  CHECK(fails_with("n=1\nexpect sum/lds wrongg\n", "line 2: expect: verdict 'wrongg' is unknown "
                   "(allowed: pass, wrong, nonfinite, unwritten, oob, nondeterministic, race, "
                   "divergent-barrier, launch-error, timeout, unsupported, crash, "
                   "launch-contract, input-written, or the class fail)"));
  /* one line per variant and scope: a second line on the same backend is refused */
  CHECK(fails_with("n=1\nexpect sum/lds pass on sim\nexpect sum/lds wrong on sim\n",
                   "line 3: expect: variant 'sum/lds' already has an expect on sim on line 2"));
#define EXPECT_SHAPES "'expect <variant> <verdict>' or 'expect <variant> <verdict> on <backend>' " \
                      "(backends: sim, cuda, hip)"
  CHECK(fails_with("expect sum/lds", "line 1: expect: 'expect sum/lds' is not " EXPECT_SHAPES));
  CHECK(fails_with("expect sum/lds pass now", "line 1: expect: 'expect sum/lds pass now' is not "
                   EXPECT_SHAPES));
  CHECK(fails_with("expect sum/lds pass on gpu", "line 1: expect: 'expect sum/lds pass on gpu' "
                   "is not " EXPECT_SHAPES));
  CHECK(fails_with("expect sum/lds pass in sim", "line 1: expect: 'expect sum/lds pass in sim' "
                   "is not " EXPECT_SHAPES));
  CHECK(fails_with("expect sum/lds pass on sim x", "line 1: expect: 'expect sum/lds pass on sim "
                   "x' is not " EXPECT_SHAPES));
  CHECK(fails_with("op=max\nexpect sum/lds pass", "line 2: expect: variant 'sum/lds' is not a "
                   "variant of op max (allowed: \"max/<name>\", at most 63 printable "
                   "characters)"));
  CHECK(fails_with("expect sum/lds pass\nexpect sum/x pass\nexpect sum/lds wrong",
                   "line 3: expect: variant 'sum/lds' already has an expect on line 1"));
  CHECK(fails_with("expect sum/a pass\nexpect sum/b pass\nexpect sum/c pass\nexpect sum/d pass\n"
                   "expect sum/e pass", "line 5: expect: too many expect lines (allowed: at most "
                   "4)"));
  /* errors come in line order: a value outside its field's range on its own line, before a
   * later syntax error; rules between fields (validation) after every line was read */
  CHECK(fails_with("block=5000\nfoo=1", "line 1: key 'block': value '5000' is out of range "
                   "(allowed: 0..1024)"));
  CHECK(fails_with("rows=3\nfoo=1", "line 2: unknown key 'foo' (allowed: op, n, rows, cols, "
                   "seed, dist, block, grid, items, schedule, wave, dtype, misalign, variant, plugins, only)"));
  /* 80,000 expect lines (duplicates found by sorting, not pairwise) */
  {
    size_t n = 80000, len = 0;
    char *big = malloc(n * 32 + 16);
    CHECK(big != NULL);
    if (big) {
      for (size_t i = 0; i < n; i++) len += (size_t)sprintf(big + len, "expect sum/v%zu pass\n", i);
      rf_case c;
      size_t count = 0;
      char err[256];
      CHECK(rf_case_parse_text(big, &c, NULL, 0, &count, err, sizeof err) == 0 && count == n);
      len += (size_t)sprintf(big + len, "expect sum/v17 wrong\n");
      CHECK(rf_case_parse_text(big, &c, NULL, 0, &count, err, sizeof err) == -1);
      CHECK(strstr(err, "line 80001: expect: variant 'sum/v17' already has an expect on line 18") != NULL);
      free(big);
    }
  }
}

/* The misalign key: a file without it keeps the placement files had before the key (seed
 * bits 62..63); with it, the value, held within 16 bytes for the element type. */
static void test_misalign(void) {
  rf_case c;
  CHECK(parses("op=sum\nseed=0xC000000000000001\n", &c) && c.misalign == 3);
  CHECK(parses("op=sum\nseed=0x4000000000000001\n", &c) && c.misalign == 1);
  CHECK(parses("op=sum\nseed=5\n", &c) && c.misalign == 0);
  CHECK(parses("op=sum\nseed=0xC000000000000001\nmisalign=0\n", &c) && c.misalign == 0);
  CHECK(parses("dtype=f16\nmisalign=7\n", &c) && c.misalign == 7);
  CHECK(fails_with("op=sum\nmisalign=4\n", "line 2: misalign: 4 is out of range for f32 "
                   "(allowed: 0..3 elements, offsets within 16 bytes)"));
  CHECK(fails_with("misalign=8\ndtype=bf16\n", "line 1: key 'misalign': value '8' is out of range (allowed: "
                   "0..7)"));
  /* the canonical form writes the key, so a legacy placement survives a round trip */
  CHECK(parses("op=max\nseed=0x8000000000000000\n", &c) && c.misalign == 2);
  char buf[1024];
  write_to(&c, buf, sizeof buf);
  rf_case d;
  CHECK(strstr(buf, "\nmisalign=2\n") != NULL && parses(buf, &d) && rf_case_equal(&c, &d));
}

/* plugins and only (what a case needs besides its values): read, validated, written only when
 * set (a case without them reads and writes as before they existed), compared, carried
 * through a round trip; never in the binary form. */
static void test_needs(void) {
  rf_case c, d;
  char buf[4096];
  CHECK(parses("plugins=my_sum\nonly=sum/my-sum,sum\nn=33\n", &c));
  CHECK(strcmp(c.plugins, "my_sum") == 0 && strcmp(c.only, "sum/my-sum,sum") == 0);
  write_to(&c, buf, sizeof buf);
  CHECK_MSG(strstr(buf, "\nvariant=\nplugins=my_sum\nonly=sum/my-sum,sum\n") != NULL, "%s", buf);
  CHECK(parses(buf, &d) && rf_case_equal(&c, &d));
  /* each list compared: one differs, the cases differ; the input is the same */
  d = c;
  snprintf(d.plugins, sizeof d.plugins, "other");
  CHECK(!rf_case_equal(&c, &d) && rf_case_same_input(&c, &d));
  d = c;
  d.only[0] = '\0';
  CHECK(!rf_case_equal(&c, &d));
  write_to(&d, buf, sizeof buf);
  CHECK_MSG(strstr(buf, "only=") == NULL && strstr(buf, "plugins=my_sum\n") != NULL, "%s", buf);
  /* written empty, read as none */
  CHECK(parses("plugins=\nonly=\n", &c) && !c.plugins[0] && !c.only[0]);
  /* the JSON form: set lists only */
  FILE *f = tmpfile();
  rf_case_write_json(&d, f);
  rewind(f);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  CHECK_MSG(strstr(buf, ",\"plugins\":\"my_sum\"}") != NULL && !strstr(buf, "\"only\""), "%s", buf);
  /* refused: an empty item, a space, '#' (a comment), past the length */
  const char *allowed = "(allowed: \"\" or names separated by ',', no empty name, at most 511 "
                        "printable characters without spaces or '#')";
  char want[512];
  snprintf(want, sizeof want, "line 1: key 'plugins': value 'a,,b' is not a list of names %s",
           allowed);
  CHECK(fails_with("plugins=a,,b", want));
  snprintf(want, sizeof want, "line 2: key 'only': value ',sum' is not a list of names %s",
           allowed);
  CHECK(fails_with("n=3\nonly=,sum", want));
  snprintf(want, sizeof want, "line 1: key 'only': value 'sum,' is not a list of names %s",
           allowed);
  CHECK(fails_with("only=sum,", want));
  snprintf(want, sizeof want, "line 1: key 'plugins': value 'my sum' is not a list of names %s",
           allowed);
  CHECK(fails_with("plugins=my sum", want));
  CHECK(parses("plugins=a#,b", &c) && strcmp(c.plugins, "a") == 0);   /* '#' starts a comment */
  {
    char text[700];
    memset(text, 'x', sizeof text);
    memcpy(text, "only=", 5);
    text[5 + 512] = '\0';   /* 512 characters: one past */
    char shown[200];
    snprintf(shown, sizeof shown, "line 1: key 'only': value '%.80s...' is too long", text + 5);
    CHECK(rf_case_parse_text(text, &c, NULL, 0, NULL, err, sizeof err) == -1 &&
          strncmp(err, shown, strlen(shown)) == 0);
    text[5 + 511] = '\0';   /* 511: the most */
    CHECK(parses(text, &c) && strlen(c.only) == 511);
  }
  /* validation of a case made in code: the same rule */
  rf_case_default(&c);
  snprintf(c.only, sizeof c.only, "a,,b");
  CHECK(rf_case_validate(&c, NULL, err, sizeof err) == -1 &&
        strncmp(err, "only: 'a,,b' is not a list of names", 35) == 0);
}

int main(void) {
  test_defaults_and_syntax();
  test_needs();
  test_write_and_round_trip();
  test_expects();
  test_errors();
  test_misalign();
  return rf_test_done();
}
