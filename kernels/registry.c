/* The variant registry: the families each .hip file exports, then run-time additions
 * (plugins). Each family file defines `const rf_variant *const rf_family_<name>[]`,
 * NULL-terminated. */
#include <stdio.h>
#include <string.h>
#include "redfuzz/variant.h"
#include "huge_mutants.h"

extern const rf_variant *const rf_family_sum[];
extern const rf_variant *const rf_family_max[];
extern const rf_variant *const rf_family_argmax[];
extern const rf_variant *const rf_family_min[];
extern const rf_variant *const rf_family_argmin[];
extern const rf_variant *const rf_family_max_vec4[];
extern const rf_variant *const rf_family_argmax_vec4[];
extern const rf_variant *const rf_family_softmax[];
extern const rf_variant *const rf_family_logsumexp[];
extern const rf_variant *const rf_family_logsoftmax[];
/* 16-bit inputs (kernels/half/): they run on f16 / bf16 cases only */
extern const rf_variant *const rf_family_sum_half[];
extern const rf_variant *const rf_family_max_half[];
extern const rf_variant *const rf_family_argmax_half[];
extern const rf_variant *const rf_family_min_half[];
extern const rf_variant *const rf_family_argmin_half[];
extern const rf_variant *const rf_family_softmax_half[];
extern const rf_variant *const rf_family_logsumexp_half[];   /* both log ops */
#ifdef RF_WITH_MUTANTS
extern const rf_variant *const rf_family_mutants[];
extern const rf_variant *const rf_family_huge_mutants[];
#endif

#define RF_MAX_VARIANTS RF_VARIANT_CAPACITY
static const rf_variant *table[RF_MAX_VARIANTS];
static size_t table_len;
static int table_ready;

static void add_family(const rf_variant *const *fam) {
  for (size_t i = 0; fam[i] && table_len < RF_MAX_VARIANTS; i++) table[table_len++] = fam[i];
}

static void ensure_table(void) {
  if (table_ready) return;
  table_ready = 1;
  add_family(rf_family_sum);
  add_family(rf_family_max);
  add_family(rf_family_argmax);
  add_family(rf_family_max_vec4);
  add_family(rf_family_argmax_vec4);
  add_family(rf_family_softmax);
  add_family(rf_family_logsumexp);
  add_family(rf_family_logsoftmax);
  add_family(rf_family_sum_half);
  add_family(rf_family_max_half);
  add_family(rf_family_argmax_half);
  add_family(rf_family_softmax_half);
  add_family(rf_family_logsumexp_half);
  add_family(rf_family_min);
  add_family(rf_family_argmin);
  add_family(rf_family_min_half);
  add_family(rf_family_argmin_half);
#ifdef RF_WITH_MUTANTS
  add_family(rf_family_mutants);
  add_family(rf_family_huge_mutants);
#endif
}

int rf_variant_huge_only(const rf_variant *v) {
#ifdef RF_WITH_MUTANTS
  for (size_t i = 0; rf_family_huge_mutants[i]; i++)
    if (rf_family_huge_mutants[i] == v) return 1;
#endif
  (void)v;
  return 0;
}

size_t rf_variant_count(void) { ensure_table(); return table_len; }

const rf_variant *rf_variant_at(size_t i) {
  ensure_table();
  return i < table_len ? table[i] : NULL;
}

const rf_variant *rf_variant_find(const char *name) {
  ensure_table();
  for (size_t i = 0; i < table_len; i++)
    if (strcmp(table[i]->name, name) == 0) return table[i];
  return NULL;
}

int rf_variant_register(const rf_variant *v) {
  ensure_table();
  if (!v || !v->name || rf_variant_find(v->name) || table_len >= RF_MAX_VARIANTS) return -1;
  table[table_len++] = v;
  return 0;
}

const char *rf_contract_describe(rf_op op, uint32_t contract, char *buf, size_t len) {
  const char *zero = contract & RF_CONTRACT_SIGNED_ZERO ? "signed-zero" : "any-zero";
  const char *nan = contract & RF_CONTRACT_NAN_PROPAGATES ? "nan-propagates" : "nan-ignored";
  const char *tie = contract & RF_CONTRACT_TIE_ANY ? "tie-any" : "tie-first";
  if (op == RF_OP_SUM) snprintf(buf, len, "%s", zero);
  else if (op == RF_OP_MAX || op == RF_OP_MIN) snprintf(buf, len, "%s", nan);
  else if (op == RF_OP_ARGMAX || op == RF_OP_ARGMIN) snprintf(buf, len, "%s, %s", nan, tie);
  else if (op == RF_OP_SOFTMAX)
    snprintf(buf, len, "%s", contract & RF_CONTRACT_MASKED_ROW_ZERO ? "masked-row-zero"
                                                                    : "masked-row-nan");
  else if (len) buf[0] = '\0';
  return buf;
}
