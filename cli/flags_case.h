/* Maps a case field (model/case_fields.def) to its flag line FLAG(...) (flags.h): the field's
 * type picks the flag type, metavariable and names; rows and cols are hidden (--shape sets
 * them), and so are plugins and only (what a case file needs, read from the file: plugins
 * are loaded by --plugin, a selection is the fuzz target's). Included by flags_case.def only. */
#ifndef RF_CLI_FLAGS_CASE_H
#define RF_CLI_FLAGS_CASE_H
/* RF_CLI_IS_SHAPE(key): 1 for rows and cols (and the hidden list fields), 0 for every other
 * key (a probe: only the keys named here expand to two arguments). */
#define RF_CLI_PROBE_ ~, 1
#define RF_CLI_SHAPE_KEY_rows RF_CLI_PROBE_
#define RF_CLI_SHAPE_KEY_cols RF_CLI_PROBE_
#define RF_CLI_SHAPE_KEY_plugins RF_CLI_PROBE_
#define RF_CLI_SHAPE_KEY_only RF_CLI_PROBE_
#define RF_CLI_SECOND_(a, b, ...) b
#define RF_CLI_SECOND(...) RF_CLI_SECOND_(__VA_ARGS__)
#define RF_CLI_IS_SHAPE(key) RF_CLI_SECOND(RF_CLI_SHAPE_KEY_##key, 0, ~)
#define RF_CLI_CAT_(a, b) a##b
#define RF_CLI_CAT(a, b) RF_CLI_CAT_(a, b)
/* The flag type of a field: hidden for rows/cols, else by its RF_FT_* type. */
#define RF_CLI_KIND_0(t) t
#define RF_CLI_KIND_1(t) HIDDEN
#define RF_CLI_KIND(key, t) RF_CLI_CAT(RF_CLI_KIND_, RF_CLI_IS_SHAPE(key))(t)
#define RF_CLI_T_RF_FT_OP NAME
#define RF_CLI_T_RF_FT_DIST NAME
#define RF_CLI_T_RF_FT_SCHED NAME
#define RF_CLI_T_RF_FT_U64 NUM
#define RF_CLI_T_RF_FT_U32 NUM
#define RF_CLI_T_RF_FT_WAVE NUM
#define RF_CLI_T_RF_FT_NAME TEXT
#define RF_CLI_T_RF_FT_DTYPE NAME
#define RF_CLI_T_RF_FT_LIST TEXT
#define RF_CLI_M_RF_FT_OP "OP"
#define RF_CLI_M_RF_FT_DIST "D"
#define RF_CLI_M_RF_FT_SCHED "S"
#define RF_CLI_M_RF_FT_U64 "N"
#define RF_CLI_M_RF_FT_U32 "N"
#define RF_CLI_M_RF_FT_WAVE "W"
#define RF_CLI_M_RF_FT_NAME "NAME"
#define RF_CLI_M_RF_FT_DTYPE "T"
#define RF_CLI_M_RF_FT_LIST "LIST"
#define RF_CLI_N_RF_FT_OP rf_flag_op_names
#define RF_CLI_N_RF_FT_DIST rf_flag_dist_names
#define RF_CLI_N_RF_FT_SCHED rf_flag_sched_names
#define RF_CLI_N_RF_FT_U64 NULL
#define RF_CLI_N_RF_FT_U32 NULL
#define RF_CLI_N_RF_FT_WAVE rf_flag_wave_names
#define RF_CLI_N_RF_FT_NAME NULL
#define RF_CLI_N_RF_FT_DTYPE rf_flag_dtype_names
#define RF_CLI_N_RF_FT_LIST NULL
/* A NAME field's range is its text's length: 0..RF_VARIANT_NAME_MAX - 1 bytes. */
#define RF_CLI_LO_(t, lo) RF_CLI_CAT(RF_CLI_LOX_, RF_CLI_IS_NAME_(t))(lo)
#define RF_CLI_NAMEP_RF_FT_NAME RF_CLI_PROBE_
#define RF_CLI_IS_NAME_(t) RF_CLI_SECOND(RF_CLI_NAMEP_##t, 0, ~)
#define RF_CLI_LOX_0(lo) (lo)
#define RF_CLI_LOX_1(lo) 0
#define RF_CLI_HI_(t, hi) RF_CLI_CAT(RF_CLI_HIX_, RF_CLI_IS_NAME_(t))(hi)
#define RF_CLI_HIX_0(hi) (hi)
#define RF_CLI_HIX_1(hi) (RF_VARIANT_NAME_MAX - 1)
#define RF_CLI_FIELD_FLAG(key, t, lo, hi, help)                                              \
  FLAG(key, "--" #key, RF_CLI_KIND(key, RF_CLI_T_##t), RF_CLI_M_##t, NULL, RF_CLI_LO_(t, lo),  \
       RF_CLI_HI_(t, hi), 0, RF_CLI_N_##t, help)
#endif
