/* Input integrity: whether a variant changed its input, on the right variant (input_check.h). */
#include <stdio.h>
#include <string.h>
#include "input_check.h"
#include "harness_check.h"
#include "model/dtype.h"
#include "kernels/harness/input_check_device.h"

void rf_input_check_init(rf_input_check *ic, int want, int is_sim) {
  memset(ic, 0, sizeof *ic);
  ic->want = want;
  ic->is_sim = is_sim;
}

void rf_input_check_free(rf_input_check *ic) {
  rf_input_check_end(ic);
  rf_dev_free(ic->dev);
  ic->dev = NULL;
  ic->dev_cap = 0;
  rf_host_buf_free(&ic->regions);
  rf_host_buf_free(&ic->copy);
  rf_host_buf_free(&ic->scratch);
  rf_host_buf_free(&ic->recs);
}

/* The largest sparse input the host and device ways check: 8 MiB (2^21 float elements; the
 * default sweep's sparse sizes past that are the huge ones). */
#define SPARSE_CHECK_BYTES ((size_t)8 << 20)

static size_t elem_bytes(const batch_case *bc) { return rf_dtype_bytes(bc->c->dtype); }

/* The bytes of bc's input a check covers: every element, the misalignment gap before them
 * and RF_GUARD_BYTES of guard on either side (an arena slot, like a device-made input, has a
 * guard of at least that much before its 256-byte aligned payload and after its end), as
 * whole 32-bit words: a write just past the input is found too. */
static rf_input_region region_of(const batch_case *bc) {
  rf_input_region g;
  memset(&g, 0, sizeof g);
  if (!bc->dev_x) return g;
  const size_t esz = elem_bytes(bc), pad = rf_input_misalign(bc->c) * esz;
  if (bc->sparse) {
    /* A sparse input (sparse_input.c: its own allocation, the misalignment gap, the elements,
     * up to 15 bytes of slack; no guard before it) is checked where a copy is cheap: a variant
     * that wrote a small one had the variants after it judged on its leftovers (`wrong`, an
     * innocent variant blamed) wherever its pages are not read-only (the sanitizer builds,
     * GPUs). Past SPARSE_CHECK_BYTES it is not checked there (a copy of 2^32 elements would
     * not fit); the plain simulator protects its pages at any size. */
    const size_t bytes = pad + (size_t)bc->elems * esz;
    if (bytes > SPARSE_CHECK_BYTES) return g;
    g.gap = pad;
    g.base = (const char *)bc->dev_x - pad;
    g.words = (bytes + 3) / 4;   /* a last partial word lies in the slack */
    return g;
  }
  g.gap = RF_GUARD_BYTES + pad;
  g.base = (const char *)bc->dev_x - g.gap;
  g.words = (g.gap + (size_t)bc->elems * esz + 3) / 4 + (RF_GUARD_BYTES - 4) / 4;
  return g;
}

static rf_input_region *regions(rf_input_check *ic) { return ic->regions.p; }

/* What byte `at` of p's checked region is, in words for the detail: x[i] (0: not an element,
 * the gap or past the last one). */
static int element_at(const pending *p, size_t gap, size_t at, unsigned long long *index) {
  const size_t esz = elem_bytes(p->bc), bytes = (size_t)p->bc->elems * esz;
  if (at < gap || at >= gap + bytes) return 0;
  *index = (unsigned long long)((at - gap) / esz);
  return 1;
}

/* Run k of p changed its input, first at byte `at` of its region, `changed` words in all (put
 * back already): its failure, unless the run failed otherwise first. */
static void note_written(rf_input_check *ic, pending *p, int k, size_t gap, size_t at,
                         unsigned long long changed) {
  ic->written++;
  if (p->fail[k] != RF_V_PASS) return;
  unsigned long long i = 0;
  char *d = p->fail_detail[k];
  const size_t len = sizeof p->fail_detail[k];
  if (element_at(p, gap, at, &i)) {
    p->fail[k] = RF_V_INPUT_WRITTEN;
    snprintf(d, len, "wrote into its read-only input: x[%llu] (of %llu elements) is the first "
             "element it changed, %llu 32-bit word(s) in all; the input was put back before the "
             "next variant", i, (unsigned long long)p->bc->elems, changed);
  } else {
    p->fail[k] = RF_V_OOB;
    snprintf(d, len, "wrote %s its input (byte %lld from element 0, in its guard bytes), "
             "%llu word(s) changed; put back before the next variant",
             at < gap ? "before" : "past", (long long)at - (long long)gap, changed);
  }
}

/* ---- protect: read-only pages (the plain simulator) ------------------------------------ */
static int protect(rf_input_check *ic, void *const bufs[2]) {
  if (ic->cannot_protect) return -1;
  for (int b = 0; b < 2; b++) {
    if (!bufs[b]) continue;
    if (rf_dev_set_readonly(bufs[b], 1)) {
      rf_input_check_end(ic);   /* the ones already protected */
      ic->cannot_protect = 1;
      return -1;
    }
    ic->protected_bufs[b] = bufs[b];
  }
  return 0;
}

void rf_input_check_end(rf_input_check *ic) {
  for (int b = 0; b < 2; b++)
    if (ic->protected_bufs[b]) {
      (void)rf_dev_set_readonly(ic->protected_bufs[b], 0);
      ic->protected_bufs[b] = NULL;
    }
}

rf_verdict rf_input_check_fault(rf_input_check *ic, const pending *p, uintptr_t addr,
                                const char *sim_msg, char *detail, size_t len) {
  ic->written++;
  static const char prefix[] = "input-written: ";   /* the simulator's status name */
  if (strncmp(sim_msg, prefix, sizeof prefix - 1) == 0) sim_msg += sizeof prefix - 1;
  const uintptr_t x0 = (uintptr_t)p->bc->dev_x;
  const size_t esz = elem_bytes(p->bc);
  const uint64_t elems = p->bc->elems;
  if (addr >= x0 && (addr - x0) / esz < elems) {
    snprintf(detail, len, "wrote into its read-only input at x[%llu] (of %llu elements; the "
             "write did not happen): %s", (unsigned long long)((addr - x0) / esz),
             (unsigned long long)elems, sim_msg);
    return RF_V_INPUT_WRITTEN;
  }
  const long long off = (long long)(addr - x0);
  snprintf(detail, len, "wrote %s its input (byte %lld from element 0, in the read-only input "
           "buffer; the write did not happen): %s", addr < x0 ? "before" : "past", off, sim_msg);
  return RF_V_OOB;
}

/* ---- host: a copy compared after each run (the simulator's sanitizer builds) ------------ */
static const char *copy_host(rf_input_check *ic, size_t total_words) {
  unsigned char *copy = rf_host_buf_get(&ic->copy, total_words * 4 + 4);
  for (size_t i = 0; i < ic->nc; i++) {
    const rf_input_region *g = &regions(ic)[i];
    if (g->words && rf_dev_download(copy + g->copy_off * 4, g->base, g->words * 4))
      return "harness failure: the input check cannot read the input back";
  }
  return NULL;
}

static void check_host(rf_input_check *ic, pending *p, int k) {
  const rf_input_region *g = &regions(ic)[p->bc - ic->bcs];
  if (!g->words) return;
  const size_t bytes = g->words * 4;
  unsigned char *now = rf_host_buf_get(&ic->scratch, bytes);
  const unsigned char *was = (const unsigned char *)ic->copy.p + g->copy_off * 4;
  ic->runs_checked++;
  if (rf_dev_download(now, g->base, bytes) || memcmp(now, was, bytes) == 0) return;
  size_t first = 0;
  while (now[first] == was[first]) first++;
  unsigned long long changed = 0;
  for (size_t w = first / 4; w < g->words; w++) changed += memcmp(now + 4 * w, was + 4 * w, 4) != 0;
  (void)rf_dev_upload((void *)g->base, was, bytes);   /* put back for the next variant */
  note_written(ic, p, k, g->gap, first, changed);
}

/* ---- device: hashes and a copy on the device (GPUs) ------------------------------------- */
static const char *copy_device(rf_input_check *ic, size_t total_words, size_t total_chunks,
                               int *moved) {
  const size_t rec_bytes = 2 * ic->n * sizeof(rf_ic_record);
  const size_t hash_at = ic->hash_at = (total_words * 4 + 7) / 8 * 8;
  ic->rec_off = hash_at + total_chunks * 8;
  const size_t need = ic->rec_off + rec_bytes;
  if (need > ic->dev_cap) {
    void *p = NULL;
    if (rf_dev_alloc(&p, need)) return "cannot allocate the device buffer of the input check";
    rf_dev_free(ic->dev);
    ic->dev = p;
    ic->dev_cap = need;
    *moved = 1;
  }
  unsigned char *dev = ic->dev;
  void *zeros = rf_host_buf_get(&ic->recs, rec_bytes + 1);
  memset(zeros, 0, rec_bytes + 1);
  rf_harness_check_begin();
  int e = rec_bytes ? rf_dev_upload(dev + ic->rec_off, zeros, rec_bytes) : 0;
  for (size_t i = 0; i < ic->nc && !e; i++) {
    const rf_input_region *g = &regions(ic)[i];
    if (!g->words) continue;
    e = rf_dev_copy(dev + g->copy_off * 4, g->base, g->words * 4);
    if (!e) e = rf_ic_hash_launch(g->base, g->words, (uint64_t *)(dev + hash_at) + g->hash_off, NULL);
  }
  return rf_harness_check_end(e, "harness failure: the input check's copy or hash failed",
                              ic->msg, sizeof ic->msg);
}

static void check_device(rf_input_check *ic, pending *p, int k, void *stream) {
  const size_t i = (size_t)(p->bc - ic->bcs);
  const rf_input_region *g = &regions(ic)[i];
  if (!g->words || rf_dev_lost()) return;
  unsigned char *dev = ic->dev;
  const size_t hash_at = ic->hash_at;
  rf_ic_record *rec = (rf_ic_record *)(dev + ic->rec_off) + 2 * (size_t)(p - ic->ps) + (size_t)k;
  ic->runs_checked++;
  /* Its own launch error, if any, is the harness's: the run's failure would blame the variant. */
  if (rf_ic_check_launch((uint32_t *)g->base, (const uint32_t *)(dev + g->copy_off * 4),
                         g->words, (const uint64_t *)(dev + hash_at) + g->hash_off, rec, stream)) {
    (void)rf_dev_last_error();
    snprintf(ic->msg, sizeof ic->msg, "harness failure: the input check's launch failed");
  }
}

const char *rf_input_check_collect(rf_input_check *ic, pending *ps, size_t n) {
  /* No word checked (every input sparse and past SPARSE_CHECK_BYTES): no record was made, and
   * none may be read (the device buffer may not exist yet). A 2^31-element sweep on the H200
   * failed every variant here ("records cannot be read back") before this. */
  if (ic->way != RF_INPUT_CHECK_DEVICE || !n || !ic->words || rf_dev_lost()) return NULL;
  if (ic->msg[0]) return ic->msg;
  const size_t rec_bytes = 2 * n * sizeof(rf_ic_record);
  rf_ic_record *recs = rf_host_buf_get(&ic->recs, rec_bytes);
  if (rf_dev_download(recs, (unsigned char *)ic->dev + ic->rec_off, rec_bytes))
    return "harness failure: the input check's records cannot be read back";
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < ps[i].runs; k++) {
      const rf_ic_record *r = &recs[2 * i + (size_t)k];
      if (!r->first_inv) continue;
      const rf_input_region *g = &regions(ic)[ps[i].bc - ic->bcs];
      note_written(ic, &ps[i], k, g->gap, (size_t)(~r->first_inv) * 4, r->changed);
    }
  return NULL;
}

/* ---- the batch --------------------------------------------------------------------------- */
const char *rf_input_check_begin(rf_input_check *ic, const batch_case *bcs, size_t nc,
                                 const pending *ps, size_t n, void *const bufs[2], int *moved) {
  ic->bcs = bcs;
  ic->nc = nc;
  ic->ps = ps;
  ic->n = n;
  ic->msg[0] = '\0';
  rf_input_region *g = rf_host_buf_get(&ic->regions, (nc + 1) * sizeof *g);
  size_t words = 0, chunks = 0;
  for (size_t i = 0; i < nc; i++) {
    g[i] = region_of(&bcs[i]);
    g[i].copy_off = words;
    g[i].hash_off = chunks;
    words += g[i].words;
    chunks += rf_ic_chunks(g[i].words);
  }
  ic->words = words;
  int way = ic->want == RF_INPUT_CHECK_AUTO ? (ic->is_sim ? RF_INPUT_CHECK_PROTECT
                                                          : RF_INPUT_CHECK_DEVICE)
                                            : ic->want;
  if (way == RF_INPUT_CHECK_PROTECT && protect(ic, bufs)) way = RF_INPUT_CHECK_HOST;
  ic->way = way;
  if (!words || way == RF_INPUT_CHECK_PROTECT) return NULL;
  return way == RF_INPUT_CHECK_HOST ? copy_host(ic, words) : copy_device(ic, words, chunks, moved);
}

void rf_input_check_run(rf_input_check *ic, pending *p, int k, void *stream) {
  if (ic->way == RF_INPUT_CHECK_HOST) check_host(ic, p, k);
  else if (ic->way == RF_INPUT_CHECK_DEVICE) check_device(ic, p, k, stream);
  else ic->runs_checked++;   /* protect: the pages were read-only while it ran */
}

int rf_input_check_any(const pending *ps, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < ps[i].runs; k++)
      if (ps[i].fail[k] == RF_V_INPUT_WRITTEN) return 1;
  return 0;
}
