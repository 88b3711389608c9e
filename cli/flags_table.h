/* Expands the flag table named by RF_FLAGS_DEF (see flags.h) into enum F_<ID>, rf_flags[] and
 * RF_FLAG_COUNT. Include once per command file, after defining RF_FLAGS_DEF. */
#include "flags.h"
#ifndef RF_FLAGS_DEF
#error "define RF_FLAGS_DEF (the command's flag table) before including flags_table.h"
#endif
enum {
#define FLAG(id, name, type, meta, def, lo, hi, max, names, help) F_##id,
#include RF_FLAGS_DEF
#undef FLAG
  RF_FLAG_COUNT
};
static const rf_flag_spec rf_flags[RF_FLAG_COUNT] = {
#define FLAG(id, name, type, meta, def, lo, hi, max, names, help) \
  {name, RF_FLAG_TYPE(type), meta, def, lo, hi, max, names, help},
#include RF_FLAGS_DEF
#undef FLAG
};
