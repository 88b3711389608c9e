/* The harness's kernel count (launch_count.h). */
#include "launch_count.h"

static _Thread_local unsigned long long count;

void rf_launch_count_add(unsigned n) { count += n; }

unsigned long long rf_launch_count(void) { return count; }
