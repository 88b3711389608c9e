/* The device verdict records (kernels/harness/verdict_device.h) see every failure the host judge
 * sees in the buffers: each check is shown to fire on a planted fault (a guard byte
 * overwritten before or after an output or a scratch buffer, at a word boundary or inside
 * a word; a word still holding the poison; a repeat that differs in one bit; max and argmax
 * values or indices other than the device oracle's, a 64-bit index past 2^32 included), and to
 * stay quiet on clean buffers,
 * -0 against +0 and NaN against NaN included (the host's "same float"). The slots are laid
 * out by the runner's own arena (run/arena.h), so guards and poison are the runner's. */
#include <math.h>
#include <string.h>
#include "rf_test.h"
#include "kernels/harness/device.h"
#include "kernels/harness/oracle_device.h"
#include "kernels/harness/verdict_device.h"
#include "run/arena.h"
#include "run/buffers.h"
#include "redfuzz/variant.h"

enum { OUT_BEFORE, OUT_AFTER, OUT1_AFTER, SCRATCH_BEFORE, SCRATCH1_AFTER, POISON, DIFFER,
       CLEAN_SUM, MAX_EQUAL_ZEROS, MAX_NAN, MAX_DIFFERENT, ARGMAX_EQUAL, ARGMAX_INDEX,
       ARGMAX_VALUE, ARGMAX64_EQUAL, ARGMAX64_LOW32, N_ITEMS };
/* ARGMAX64_*: a variant of index_bits 64 (the 16-byte rf_argmax_out64) whose index is past
 * 2^32: equal to the oracle's, and one whose low 32 bits alone equal it (index 2^32 + 7 for
 * 7), which only a read of the whole 64-bit index tells apart. */
#define IDX64 (((int64_t)1 << 32) + 7)

typedef struct { int out[2], scratch[2], oracle; uint32_t ob, sb, runs, check; } layout;

static uint32_t fbits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

static void put(rf_arena *a, int slot, long at, const void *src, size_t bytes) {
  CHECK(rf_dev_upload((unsigned char *)rf_arena_dev(a, slot) + at, src, bytes) == 0);
}

/* Outputs of several chunks (the scan kernel's, verdict_device.hip: 128 KiB each, a softmax
 * output is megabytes) and a partial last word: the chunked path gives the records the
 * one-block path gives (run with max_out_bytes = 4, which takes it), and both find a poison
 * word in a later chunk (the first of two), a repeat differing only in its last byte, a
 * poisoned repeat, and a guard after a big output. */
enum { BIG_CLEAN, BIG_POISON, BIG_DIFFER_TAIL, BIG_GUARD, N_BIG };
#define BIG_OB (3u * (128u << 10) + 6u)

static void big_outputs(void) {
  static unsigned char pat[BIG_OB];
  for (uint32_t i = 0; i < BIG_OB; i++) pat[i] = (unsigned char)(i * 7u + 1u);
  for (uint32_t w = 0; w < BIG_OB / 4; w++) CHECK(memcmp(pat + 4 * w, &(uint32_t){RF_POISON_BITS}, 4) != 0);
  rf_arena a;
  memset(&a, 0, sizeof a);
  int out[N_BIG][2];
  for (int i = 0; i < N_BIG; i++)
    for (int k = 0; k < 2; k++) out[i][k] = rf_arena_add(&a, BIG_OB, 1);
  CHECK(rf_arena_commit(&a) == 0);
  for (int i = 0; i < N_BIG; i++)
    for (int k = 0; k < 2; k++) put(&a, out[i][k], 0, pat, BIG_OB);
  const uint32_t poison = RF_POISON_BITS;
  const unsigned char junk = 0, flipped = (unsigned char)(pat[BIG_OB - 1] ^ 0x10u);
  put(&a, out[BIG_POISON][0], 4 * 70000, &poison, 4);   /* chunk 2 */
  put(&a, out[BIG_POISON][0], 4 * 40000, &poison, 4);   /* chunk 1: the first */
  put(&a, out[BIG_POISON][1], 4 * 90000, &poison, 4);
  put(&a, out[BIG_DIFFER_TAIL][1], BIG_OB - 1, &flipped, 1);
  put(&a, out[BIG_GUARD][0], BIG_OB, &junk, 1);
  rf_vd_item items[N_BIG];
  memset(items, 0, sizeof items);
  for (int i = 0; i < N_BIG; i++) {
    for (int k = 0; k < 2; k++) {
      items[i].out_off[k] = a.slot[out[i][k]].off;
      items[i].out_end[k] = rf_arena_guard_end(&a, out[i][k]);
    }
    items[i].oracle_off = -1;
    items[i].out_bytes = BIG_OB;
    items[i].runs = 2;
    items[i].check = RF_VD_CHECK_NONE;
  }
  void *d_items = NULL, *d_rec = NULL;
  CHECK(rf_dev_alloc(&d_items, sizeof items) == 0 && rf_dev_alloc(&d_rec, sizeof(rf_vd_record) * N_BIG) == 0);
  CHECK(rf_dev_upload(d_items, items, sizeof items) == 0);
  rf_vd_record rec[2][N_BIG];
  const size_t max_ob[2] = {BIG_OB, 4};   /* chunked, then one block per item */
  for (int m = 0; m < 2; m++) {
    memset(rec[m], 0xa5, sizeof rec[m]);
    CHECK(rf_vd_check_launch(a.dev, d_items, N_BIG, d_rec, RF_GUARD_BITS, RF_POISON_BITS, 0,
                             max_ob[m], NULL) == 0);
    CHECK(rf_dev_sync() == 0);
    CHECK(rf_dev_download(rec[m], d_rec, sizeof rec[m]) == 0);
    CHECK_MSG(rec[m][BIG_CLEAN].poison[0] == -1 && rec[m][BIG_CLEAN].poison[1] == -1 &&
              rec[m][BIG_CLEAN].differ == 0 && rec[m][BIG_CLEAN].guard[0] == 0, "path %d: clean", m);
    CHECK_MSG(rec[m][BIG_POISON].poison[0] == 40000 && rec[m][BIG_POISON].poison[1] == 90000 &&
              rec[m][BIG_POISON].differ == 1, "path %d: poison %d %d", m, rec[m][BIG_POISON].poison[0],
              rec[m][BIG_POISON].poison[1]);
    CHECK_MSG(rec[m][BIG_DIFFER_TAIL].differ == 1 && rec[m][BIG_DIFFER_TAIL].poison[0] == -1,
              "path %d: the last byte's difference", m);
    CHECK_MSG(rec[m][BIG_GUARD].guard[0] == RF_VD_GUARD_OUT_AFTER && rec[m][BIG_GUARD].differ == 0,
              "path %d: guard %u", m, rec[m][BIG_GUARD].guard[0]);
  }
  CHECK(memcmp(rec[0], rec[1], sizeof rec[0]) == 0);
  rf_dev_free(d_items);
  rf_dev_free(d_rec);
  rf_arena_free(&a);
}

int main(void) {
  char msg[256];
  if (rf_dev_require(msg, sizeof msg)) { fprintf(stderr, "%s\n", msg); return 2; }
  rf_arena a;
  memset(&a, 0, sizeof a);
  layout L[N_ITEMS];
  for (int i = 0; i < N_ITEMS; i++) {
    const int argmax = i >= ARGMAX_EQUAL, max = i >= MAX_EQUAL_ZEROS && !argmax;
    L[i].ob = i >= ARGMAX64_EQUAL ? sizeof(rf_argmax_out64)
            : argmax              ? sizeof(rf_argmax_out) : sizeof(float);
    L[i].sb = 37;   /* odd: its trailing guard starts inside a word */
    L[i].runs = 2;
    L[i].check = argmax ? RF_VD_CHECK_ARGMAX : max ? RF_VD_CHECK_MAX : RF_VD_CHECK_NONE;
    for (int k = 0; k < 2; k++) L[i].out[k] = rf_arena_add(&a, L[i].ob, 1);
    for (int k = 0; k < 2; k++) L[i].scratch[k] = rf_arena_add(&a, L[i].sb, 0);
    L[i].oracle = rf_arena_add(&a, sizeof(rf_oracle_dev_out), 1);
  }
  CHECK(rf_arena_commit(&a) == 0);
  /* Every output written (the same bits in both runs) unless a fault is planted below. */
  for (int i = 0; i < N_ITEMS; i++) {
    rf_argmax_out v = {1.5f, 7};
    rf_oracle_dev_out o;
    memset(&o, 0, sizeof o);
    o.max_value = 1.5f;
    o.argmax_index = 7;
    if (i == MAX_EQUAL_ZEROS) { v.value = -0.0f; o.max_value = 0.0f; }
    if (i == MAX_NAN) { uint32_t q = 0x7fc00001u; memcpy(&v.value, &q, 4); o.max_value = NAN; }
    if (i == MAX_DIFFERENT) v.value = nextafterf(1.5f, 2.0f);
    if (i == ARGMAX_INDEX) v.index = 8;
    if (i == ARGMAX_VALUE) v.value = 2.5f;
    rf_argmax_out64 w = {v.value, 0, IDX64};
    if (i == ARGMAX64_EQUAL) o.argmax_index = IDX64;
    for (int k = 0; k < 2; k++) put(&a, L[i].out[k], 0, i >= ARGMAX64_EQUAL ? (void *)&w : (void *)&v, L[i].ob);
    put(&a, L[i].oracle, 0, &o, sizeof o);
  }
  const unsigned char junk = 0;
  const uint32_t poison = RF_POISON_BITS, one_bit_off = fbits(1.5f) ^ 1u;
  put(&a, L[OUT_BEFORE].out[0], -1, &junk, 1);
  put(&a, L[OUT_AFTER].out[0], (long)L[OUT_AFTER].ob, &junk, 1);
  put(&a, L[OUT1_AFTER].out[1], (long)L[OUT1_AFTER].ob + 100, &junk, 1);
  put(&a, L[SCRATCH_BEFORE].scratch[0], -RF_GUARD_BYTES, &junk, 1);
  put(&a, L[SCRATCH1_AFTER].scratch[1], (long)L[SCRATCH1_AFTER].sb, &junk, 1);
  put(&a, L[POISON].out[0], 0, &poison, 4);
  put(&a, L[DIFFER].out[1], 0, &one_bit_off, 4);

  rf_vd_item items[N_ITEMS];
  memset(items, 0, sizeof items);
  for (int i = 0; i < N_ITEMS; i++) {
    for (int k = 0; k < 2; k++) {
      items[i].out_off[k] = a.slot[L[i].out[k]].off;
      items[i].out_end[k] = rf_arena_guard_end(&a, L[i].out[k]);
      items[i].scratch_off[k] = a.slot[L[i].scratch[k]].off;
      items[i].scratch_end[k] = rf_arena_guard_end(&a, L[i].scratch[k]);
    }
    items[i].oracle_off = L[i].check ? (int64_t)a.slot[L[i].oracle].off : -1;
    items[i].out_bytes = L[i].ob;
    items[i].scratch_bytes = L[i].sb;
    items[i].runs = L[i].runs;
    items[i].check = L[i].check;
    items[i].index_bits = i >= ARGMAX64_EQUAL ? 64 : 0;
  }
  void *d_items = NULL, *d_rec = NULL;
  CHECK(rf_dev_alloc(&d_items, sizeof items) == 0 && rf_dev_alloc(&d_rec, N_ITEMS * sizeof(rf_vd_record)) == 0);
  CHECK(rf_dev_upload(d_items, items, sizeof items) == 0);
  rf_vd_record rec[N_ITEMS];
  for (int plant = 0; plant < 2; plant++) {
    memset(rec, 0xa5, sizeof rec);
    CHECK(rf_vd_check_launch(a.dev, d_items, N_ITEMS, d_rec, RF_GUARD_BITS, RF_POISON_BITS,
                             (uint32_t)plant, sizeof(rf_argmax_out64), NULL) == 0);
    CHECK(rf_dev_sync() == 0);
    CHECK_MSG(rf_dev_sim_take_status(msg, sizeof msg) == 0, "simulator: %s", msg);
    CHECK(rf_dev_download(rec, d_rec, sizeof rec) == 0);
    if (plant) {   /* the hook: every record's value one bit off, nothing else changed */
      CHECK(rec[CLEAN_SUM].got[0] == (fbits(1.5f) ^ 1u));
      CHECK(rec[MAX_DIFFERENT].decided == RF_VD_DIFFERENT);
      continue;
    }
    for (int i = 0; i < N_ITEMS; i++) {
      const uint32_t g0 = i == OUT_BEFORE ? RF_VD_GUARD_OUT_BEFORE
                        : i == OUT_AFTER ? RF_VD_GUARD_OUT_AFTER
                        : i == SCRATCH_BEFORE ? RF_VD_GUARD_SCRATCH_BEFORE : 0;
      const uint32_t g1 = i == OUT1_AFTER ? RF_VD_GUARD_OUT_AFTER
                        : i == SCRATCH1_AFTER ? RF_VD_GUARD_SCRATCH_AFTER : 0;
      CHECK_MSG(rec[i].guard[0] == g0 && rec[i].guard[1] == g1, "item %d: guards %u %u, want %u %u",
                i, rec[i].guard[0], rec[i].guard[1], g0, g1);
      CHECK_MSG(rec[i].poison[0] == (i == POISON ? 0 : -1) && rec[i].poison[1] == -1,
                "item %d: poison %d %d", i, rec[i].poison[0], rec[i].poison[1]);
      CHECK_MSG(rec[i].differ == (uint32_t)(i == DIFFER || i == POISON), "item %d: differ %u", i,
                rec[i].differ);
      const uint32_t want = L[i].check == RF_VD_CHECK_NONE ? RF_VD_UNDECIDED
                          : i == MAX_DIFFERENT || i == ARGMAX_INDEX || i == ARGMAX_VALUE ||
                                    i == ARGMAX64_LOW32
                          ? RF_VD_DIFFERENT : RF_VD_EQUAL;
      CHECK_MSG(rec[i].decided == want, "item %d: decided %u, want %u", i, rec[i].decided, want);
    }
    CHECK(rec[CLEAN_SUM].got[0] == fbits(1.5f) && rec[CLEAN_SUM].got[1] == 0);
    CHECK(rec[ARGMAX_INDEX].got[0] == fbits(1.5f) && rec[ARGMAX_INDEX].got[1] == 8);
  }
  /* The records' own slot read back alone, as the runner does (rf_arena_fetch_range). */
  CHECK(rf_arena_fetch_range(&a, L[CLEAN_SUM].out[0], L[CLEAN_SUM].out[1]) == 0);
  CHECK(rf_arena_check(&a, L[CLEAN_SUM].out[0]) == NULL && rf_arena_check(&a, L[CLEAN_SUM].out[1]) == NULL);
  CHECK(*(const float *)rf_arena_host(&a, L[CLEAN_SUM].out[1]) == 1.5f);
  rf_dev_free(d_items);
  rf_dev_free(d_rec);
  rf_arena_free(&a);

  big_outputs();

  /* rf_arena_commit_device_fill gives the device exactly the bytes rf_arena_commit uploads:
   * big slots (an odd size, so a payload ends inside a word; output and scratch) written by
   * the fill kernel, small ones and inputs from the image. */
  static float input[1000];
  for (int i = 0; i < 1000; i++) input[i] = (float)i;
  rf_arena two[2];
  memset(two, 0, sizeof two);
  for (int m = 0; m < 2; m++) {
    rf_arena_add(&two[m], 4, 1);
    rf_arena_add(&two[m], RF_ARENA_DEVICE_FILL_MIN + 4097 * 4 + 3, 1);
    rf_arena_add(&two[m], 37, 0);
    rf_arena_add(&two[m], 3 * RF_ARENA_DEVICE_FILL_MIN + 1, 0);
    rf_arena_add_input(&two[m], input, sizeof input, 8);
    rf_arena_add(&two[m], 8, 1);
    CHECK((m ? rf_arena_commit_device_fill(&two[m]) : rf_arena_commit(&two[m])) == 0);
    CHECK(rf_dev_sync() == 0);
    CHECK(rf_dev_download(two[m].image, two[m].dev, two[m].used) == 0);
  }
  CHECK(two[0].used == two[1].used && memcmp(two[0].image, two[1].image, two[0].used) == 0);
  for (int i = 0; i < 6; i++) CHECK(rf_arena_check(&two[1], i) == NULL || i == 4);
  for (int m = 0; m < 2; m++) rf_arena_free(&two[m]);
  return rf_test_done();
}
