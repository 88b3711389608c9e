/* A plugin that claims another ABI version: redfuzz must refuse it with a message naming the
 * file and both versions (tests/plugin/CMakeLists.txt). */
#include <stddef.h>
#include "redfuzz/plugin.h"

int rf_plugin_abi_version(void) { return 999; }

const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = 0;
  return NULL;
}
