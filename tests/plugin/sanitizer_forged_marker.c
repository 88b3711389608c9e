/* The marker of sanitizer_forged_plugin.c: deliberately not plugin.h's. */
extern const char rf_plugin_sanitizer[];
const char rf_plugin_sanitizer[] = "address";
