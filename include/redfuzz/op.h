/* The ops redfuzz checks. Public: a plugin's variant names its op (include/redfuzz/variant.h),
 * and the case model (model/case.h) builds on it. */
#ifndef RF_OP_H
#define RF_OP_H
#ifdef __cplusplus
extern "C" {
#endif

typedef enum { RF_OP_SUM, RF_OP_MAX, RF_OP_ARGMAX, RF_OP_SOFTMAX, RF_OP_COUNT } rf_op;

#ifdef __cplusplus
}
#endif
#endif
