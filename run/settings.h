/* Settings from the environment (run/settings.def): read once at the edge, validated like
 * flags, then passed down. Nothing below the edges calls getenv. */
#ifndef RF_SETTINGS_H
#define RF_SETTINGS_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {   /* C++ tests create runners from settings */
#endif

typedef enum { RF_SET_BOOL, RF_SET_COUNT, RF_SET_ORACLE, RF_SET_TARGET, RF_SET_FOLD, RF_SET_CMP,
               RF_SET_DEVICES, RF_SET_FILE, RF_SET_TEXT, RF_SET_INPUT_CHECK } rf_setting_type;
/* The values of the name settings: the index of the name given. */
enum { RF_ORACLE_DOUBLE, RF_ORACLE_MPFR, RF_ORACLE_UPGRADE };
enum { RF_TARGET_GFX1201, RF_TARGET_NVIDIA };
enum { RF_COV_FOLD_OFF, RF_COV_FOLD_REFERENCE, RF_COV_FOLD_BASELINE, RF_COV_FOLD_FULL };   /* "0", ... */
enum { RF_COV_CMP_HOST, RF_COV_CMP_ALL };

typedef struct {
#define RF_SETTING(var, member, type, lo, hi, dflt, help) \
  uint64_t member;                /* numbers, booleans, the oracle mode */ \
  int member##_set;               /* 1 when the variable was given */      \
  char member##_text[1024];       /* RF_SET_TEXT, _FILE, _DEVICES: the value */
#include "settings.def"
#undef RF_SETTING
} rf_settings;

/* Every setting at its default, as if the environment were empty. */
void rf_settings_default(rf_settings *s);
/* Reads every REDFUZZ_* variable of the table. 0, or -1 with "REDFUZZ_X: 'v' is ...
 * (allowed: ...)" in err; a REDFUZZ_* variable the table does not name is an error too. */
int rf_settings_from_env(rf_settings *s, char *err, size_t errlen);
/* 1 when name[0..len) is a variable of the table. */
int rf_setting_known(const char *name, size_t len);
/* The same from a lookup function (tests; getenv for the real thing); names outside the
 * table are not looked at (rf_settings_from_env refuses them). */
int rf_settings_read(rf_settings *s, const char *(*lookup)(const char *name), char *err,
                     size_t errlen);
/* One "  VAR  help" line per variable, for --help. */
void rf_settings_help(char *buf, size_t len);
#ifdef __cplusplus
}
#endif
#endif
