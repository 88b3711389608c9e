/* A plugin of an older ABI version (RF_TEST_ABI: 3, before rf_variant.contract; 4, before
 * index_bits): its variant ends where the next field would begin, and the page after it is
 * unmapped, so a loader that read a missing field would fault. redfuzz must load it with the
 * later fields' defaults: the default contract (version 3; version 4 declares tie-any), a
 * 32-bit argmax index (tests/plugin/CMakeLists.txt). */
#define _DEFAULT_SOURCE 1   /* MAP_ANONYMOUS under -std=c11 */
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "redfuzz/plugin.h"

static const char *never_configure(rf_launch_cfg *cfg) { (void)cfg; return "never run"; }
static size_t no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
static void no_plan(const rf_launch_cfg *cfg, rf_plan *p) { (void)cfg; (void)p; }
static int never_launch(const rf_launch_args *a) { (void)a; return 1; }

#ifndef RF_TEST_ABI
#define RF_TEST_ABI 3
#endif
#if RF_TEST_ABI == 3
#define RF_TEST_NAME "argmax/test-abi3"
#define RF_TEST_END offsetof(rf_variant, contract)
#else
#define RF_TEST_NAME "argmax/test-abi4"
#define RF_TEST_END offsetof(rf_variant, index_bits)
#endif

int rf_plugin_abi_version(void) { return RF_TEST_ABI; }

const rf_variant *const *rf_plugin_variants(size_t *count) {
  static const rf_variant *list[1];
  /* index_bits 64 past the version's end: a loader that read it would see 64 */
  const rf_variant full = {RF_TEST_NAME, RF_OP_ARGMAX, 1, 0, "s", "c", never_configure,
                           no_scratch, no_plan, never_launch, 0, RF_DTYPE_F32, RF_DTYPE_F32,
                           RF_CONTRACT_TIE_ANY, 64};
  const size_t end = RF_TEST_END, page = (size_t)sysconf(_SC_PAGESIZE);
  char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  *count = 0;
  if (p == MAP_FAILED || mprotect(p + page, page, PROT_NONE)) return NULL;
  /* the old version's struct at the very end of the readable page (its alignment kept) */
  char *at = p + page - ((end + 7) & ~(size_t)7);
  memcpy(at, &full, end);
  list[0] = (const rf_variant *)at;
  *count = 1;
  return list;
}
