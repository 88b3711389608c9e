/* Element types of a case's input and of a variant's output. Public: a variant declares the
 * input type it reads and the type it writes (include/redfuzz/variant.h). The values are ABI
 * (0 = float32, so variants written before types existed read and write float32); the table
 * of their facts (precision, exponent range, names) is model/dtypes.def, in this order. */
#ifndef RF_DTYPE_H
#define RF_DTYPE_H
#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  RF_DTYPE_F32 = 0,   /* IEEE binary32 */
  RF_DTYPE_F16 = 1,   /* IEEE binary16: 16-bit encodings in device buffers */
  RF_DTYPE_BF16 = 2,  /* bfloat16 (the top half of a binary32): 16-bit encodings */
  RF_DTYPE_COUNT
} rf_dtype;

#ifdef __cplusplus
}
#endif
#endif
