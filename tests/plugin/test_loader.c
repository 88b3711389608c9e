/* The loader refuses a malformed plugin whole (the good variant beside the bad one is not
 * registered) and registers a sound one completely. */
#include <stdlib.h>
#include <string.h>
#include "rf_test.h"
#include "kernels/plugin_loader.h"
#include "redfuzz/variant.h"

int main(void) {
  char err[512];
  const size_t before = rf_variant_count();

  setenv("RF_TEST_PLUGIN_DEFECT", "name", 1);
  CHECK(rf_plugin_load(RF_BAD_VARIANTS_PLUGIN, err, sizeof err) == -1);
  CHECK(strstr(err, "max-test") != NULL);
  CHECK(rf_variant_find("max/test-ok") == NULL);
  CHECK(rf_variant_count() == before);

  setenv("RF_TEST_PLUGIN_DEFECT", "none", 1);
  CHECK(rf_plugin_load(RF_BAD_VARIANTS_PLUGIN, err, sizeof err) == 2);
  CHECK(rf_variant_find("max/test-ok") != NULL);
  CHECK(rf_variant_find("max/test-ok2") != NULL);
  CHECK(rf_variant_count() == before + 2);

  /* The same library again (REDFUZZ_PLUGINS and --plugin naming one file) is loaded once:
   * nothing added, no "already registered" error. */
  CHECK(rf_plugin_load(RF_BAD_VARIANTS_PLUGIN, err, sizeof err) == 0);
  CHECK(rf_plugin_load_list(RF_BAD_VARIANTS_PLUGIN ":" RF_BAD_VARIANTS_PLUGIN, err, sizeof err) == 0);
  CHECK(rf_variant_count() == before + 2);

  /* A list: empty entries are skipped, the first failure stops it with its message. */
  CHECK(rf_plugin_load_list("::", err, sizeof err) == 0);
  CHECK(rf_plugin_load_list(":/nonexistent/a.so:" RF_BAD_VARIANTS_PLUGIN, err, sizeof err) == -1);
  CHECK(strstr(err, "/nonexistent/a.so: cannot load") != NULL);
  CHECK(rf_variant_count() == before + 2);
  return rf_test_done();
}
