# Runs `EXE ARGS` (a simulator sweep with --json) with REDFUZZ_SIM_THREADS=1 (blocks one after
# another) and =2 (parallel blocks, docs/SIMULATOR.md) and fails unless every result line is
# identical but for its time: parallel blocks must give the sequential run's bits, verdicts
# and messages. Also fails when the parallel run ran no launch in parallel, or when the
# mutants failed nowhere (the comparison would then cover no failure).
include(${CMAKE_CURRENT_LIST_DIR}/json_runs.cmake)
rf_compare_json_runs(REDFUZZ_SIM_THREADS 1 2)
if(NOT out_2 MATCHES "simulator: ([0-9]+) launches ran their blocks on 2 threads, ([0-9]+) of them re-run")
  message(FATAL_ERROR "no parallel-block statistics in the 2-thread run:\n${out_2}")
endif()
set(parallel ${CMAKE_MATCH_1})
set(reruns ${CMAKE_MATCH_2})
if(parallel EQUAL 0)
  message(FATAL_ERROR "the 2-thread run ran no launch on 2 threads")
endif()
if(out_1 MATCHES "simulator: [0-9]+ launches ran their blocks")
  message(FATAL_ERROR "the 1-thread run reports parallel launches")
endif()
string(REGEX MATCHALL "\"verdict\":\"(wrong|nonfinite|unwritten|oob|nondeterministic|race|crash|divergent-barrier)\"" failures "${out_1}")
list(LENGTH failures n_fail)
message(STATUS "${json_lines} results identical (${n_fail} failure verdicts among them); ${parallel} launches on 2 threads, ${reruns} re-run sequentially")
if(n_fail EQUAL 0)
  message(FATAL_ERROR "expected the mutants to fail somewhere: the comparison saw no failure")
endif()
