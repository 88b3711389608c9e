# Runs `EXE ARGS` (a sweep with --list-cases) and compares its output with the file EXPECTED,
# byte for byte: the sweep's cases, their numbers and their order stay what they were when
# EXPECTED was written (by the hand-written loops the case table replaced, issue 34).
#   cmake -DEXE=prog -DARGS="sweep --list-cases ..." -DEXPECTED=file -P list_cases_match.cmake
separate_arguments(args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "${EXE} ${ARGS}: exit status ${rc}\n${err}")
endif()
file(READ "${EXPECTED}" want)
if(NOT out STREQUAL want)
  string(LENGTH "${out}" got_len)
  string(LENGTH "${want}" want_len)
  message(FATAL_ERROR "${EXE} ${ARGS}: the cases differ from ${EXPECTED} (${got_len} bytes, "
          "expected ${want_len})\n--- output ---\n${out}")
endif()
