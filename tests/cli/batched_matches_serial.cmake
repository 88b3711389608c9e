# Runs `EXE ARGS` (a sweep with --json) batched (several cases per launch sequence, the
# default) and with REDFUZZ_SERIAL=1 (one case, and one launch, per synchronisation), and
# fails unless every result line is identical but for its time: the simulator is
# deterministic, so batching must change nothing a verdict or an error is made of. Also
# fails when the batched run did not put several cases into a batch.
include(${CMAKE_CURRENT_LIST_DIR}/json_runs.cmake)
rf_compare_json_runs(REDFUZZ_SERIAL 0 1)
if(NOT out_0 MATCHES "; ([0-9]+) cases in ([0-9]+) batches")
  message(FATAL_ERROR "no batch statistics in the batched run:\n${out_0}")
endif()
set(cases ${CMAKE_MATCH_1})
set(batches ${CMAKE_MATCH_2})
if(NOT batches LESS cases)
  message(FATAL_ERROR "batched run used one batch per case (${cases} cases, ${batches} batches)")
endif()
string(REGEX MATCHALL "\"verdict\":\"(wrong|nonfinite|unwritten|oob|nondeterministic|race)\"" failures "${out_0}")
list(LENGTH failures n_fail)
message(STATUS "${json_lines} results identical (${n_fail} failure verdicts among them), ${cases} cases in ${batches} batches")
if(n_fail EQUAL 0)
  message(FATAL_ERROR "expected the mutants to fail somewhere: the comparison saw no failure")
endif()
