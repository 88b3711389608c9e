/* The runner's environment variables, checked once at the program's edge (env.def): the
 * programs (cli/, fuzz/) call rf_env_check first, so a bad value is a usage error, never a
 * silent fallback where the library reads it. */
#ifndef RF_CLI_ENV_H
#define RF_CLI_ENV_H
#include <stddef.h>
/* 0 when every variable of env.def is unset, empty or valid; else -1 with err naming the
 * variable, its value and what is allowed. */
int rf_env_check(char *err, size_t errlen);
#endif
