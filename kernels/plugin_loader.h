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

/* A plugin's name, as case files record it (model/case_fields.def, `plugins`): the library
 * file's name without its folder, a leading "lib", and ".so" with any version after it
 * (build-plugin/my_sum/sim/libmy_sum.so is my_sum, the NAME of scripts/redfuzz-plugin). A
 * case names its plugins, never their paths: the same plugin is built in another folder for
 * each backend, and a fixed build replaces a buggy one under the same name. */
void rf_plugin_name_of_path(const char *path, char *buf, size_t len);
/* The names of the plugins loaded so far, comma-separated in load order ("" when none): 0, or
 * -1 with err when a name has a character a case cannot hold (a space, ',', '#': rename the
 * library) or the list is longer than len - 1. */
int rf_plugin_loaded_names(char *buf, size_t len, char *err, size_t errlen);
/* The path a loaded plugin of that name was loaded from, or NULL when none is loaded. */
const char *rf_plugin_loaded_path(const char *name);

#ifdef __cplusplus
}
#endif
#endif
