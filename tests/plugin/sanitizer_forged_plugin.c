/* A well-formed plugin whose sanitizer marker says "address" whatever it was built with: the
 * strong definition in sanitizer_forged_marker.c overrides plugin.h's weak one, as if the
 * plugin had been compiled with -fsanitize=address. A redfuzz built otherwise must refuse it
 * with a message saying how to rebuild (tests/plugin/CMakeLists.txt). */
#include <stddef.h>
#include "redfuzz/plugin.h"

int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }

const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = 0;
  return NULL;
}
