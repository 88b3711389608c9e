/* Loads variants from a plugin shared library (include/redfuzz/plugin.h) into the registry. */
#ifndef RF_PLUGIN_LOADER_H
#define RF_PLUGIN_LOADER_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Opens `path`, checks its ABI version and every variant, then registers them all (or none).
 * Returns the number of variants registered (0 when this library is loaded already: the same
 * library named twice is loaded once), or -1 with a message naming the file in err. */
int rf_plugin_load(const char *path, char *err, size_t errlen);

/* The path of the plugin v was loaded from, or NULL for a built-in variant. */
struct rf_variant;
const char *rf_plugin_of(const struct rf_variant *v);

/* Loads each plugin of a ':'-separated list (empty entries are skipped). Returns 0, or -1 with
 * the first failure's message in err. */
int rf_plugin_load_list(const char *paths, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
