/* ThreadSanitizer build only: kernel races are verdicts and leave the exit status alone,
 * but a race in host code must still fail the process (ctest expects the failure). */
#include <thread>
#include "sim_test_util.h"

static int shared_counter;

int main() {
  std::thread a([] {
    for (int i = 0; i < 1000; i++) shared_counter++;
  });
  std::thread b([] {
    for (int i = 0; i < 1000; i++) shared_counter++;
  });
  a.join();
  b.join();
  printf("counter %d\n", shared_counter);
  return 0;
}
