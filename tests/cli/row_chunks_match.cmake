# Runs `EXE ARGS` (a row-op sweep with --json, judged on the device: ARGS sets
# REDFUZZ_DEVICE_VERDICT=1 and no sampled re-check, so what is compared is what the summaries
# gave) with REDFUZZ_ROW_CHUNK=1 and =3 (every case judged a chunk of rows at a time, each
# chunk's records folded into the summaries: run/dev_verdicts.c, kernels/harness/row_summary.h)
# and with one chunk for every row (2^31), and fails unless every result line is identical but
# for its time, the worst element's figures included (the same device oracle in every run:
# chunking must change nothing). Also fails when the chunked run launched no more harness
# kernels than the one-chunk run (no case was chunked), when no case was judged on the device,
# or when the mutants failed nowhere (the comparison would then cover no failure).
include(${CMAKE_CURRENT_LIST_DIR}/json_runs.cmake)
set(whole 2147483648)
rf_compare_json_runs(REDFUZZ_ROW_CHUNK 3 ${whole})
rf_compare_json_runs(REDFUZZ_ROW_CHUNK 1 ${whole})
foreach(k 1 ${whole})
  if(NOT out_${k} MATCHES "launches per case: the harness's ([0-9.]+) kernels")
    message(FATAL_ERROR "no launch count in the run with REDFUZZ_ROW_CHUNK=${k}:\n${out_${k}}")
  endif()
  set(harness_${k} ${CMAKE_MATCH_1})
endforeach()
if(NOT harness_1 GREATER harness_${whole})
  message(FATAL_ERROR "chunks of 1 row launched ${harness_1} harness kernels a case, one chunk ${harness_${whole}}: no case was chunked")
endif()
if(NOT out_1 MATCHES "(softmax|log-op) cases judged on the device: [1-9]")
  message(FATAL_ERROR "no case was judged on the device:\n${out_1}")
endif()
string(REGEX MATCHALL "\"verdict\":\"(wrong|nonfinite)\"" failures "${out_1}")
list(LENGTH failures n_fail)
message(STATUS "${json_lines} results identical (${n_fail} failure verdicts among them); harness kernels a case: ${harness_1} in chunks of 1 row, ${harness_${whole}} in one chunk")
if(n_fail EQUAL 0)
  message(FATAL_ERROR "expected the mutants to fail somewhere: the comparison saw no failure")
endif()
