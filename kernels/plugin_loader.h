/* Loads variants from a plugin shared library (include/redfuzz/plugin.h) into the registry. */
#ifndef RF_PLUGIN_LOADER_H
#define RF_PLUGIN_LOADER_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Opens `path`, checks its ABI version and every variant, then registers them all (or none):
 * copies of them, made before they are checked (every field of the variant's ABI version,
 * its name, summary and constraints), so that nothing the plugin changes later (a name
 * rewritten, an op or a launch pointer swapped) reaches the registry.
 * Returns the number of variants registered (0 when this library is loaded already: the same
 * library named twice is loaded once), or -1 with a message naming the file in err. */
int rf_plugin_load(const char *path, char *err, size_t errlen);

/* The path of the plugin v was loaded from, or NULL for a built-in variant. */
struct rf_variant;
const char *rf_plugin_of(const struct rf_variant *v);

/* The path of the plugin whose code (its text and data, as loaded) holds addr, or NULL
 * (async-signal-safe: run/contain.c asks it about the caller of an exit). */
const char *rf_plugin_at(const void *addr);

/* The path of the plugin being loaded right now (dlopen, its ABI version and variant list are
 * being read), or NULL (async-signal-safe). */
const char *rf_plugin_loading(void);

/* Loads each plugin of a ':'-separated list (empty entries are skipped). Returns 0, or -1 with
 * the first failure's message in err. */
int rf_plugin_load_list(const char *paths, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
