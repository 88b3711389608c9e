# Runs one command and checks both its exit status and its output (ctest's own
# PASS_REGULAR_EXPRESSION would ignore the exit status).
#   cmake -DEXE=prog -DARGS="a b c" -DRC=0 -DMATCH0=regex [-DMATCH1=... up to MATCH5]
#         [-DNOMATCH=regex] -P run_and_match.cmake
# ARGS is split at spaces; the regexes are matched against stdout and stderr together.
separate_arguments(args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
set(bad "")
if(NOT rc STREQUAL "${RC}")
  string(APPEND bad "exit status ${rc}, expected ${RC}\n")
endif()
foreach(k RANGE 0 5)
  if(DEFINED MATCH${k} AND NOT all MATCHES "${MATCH${k}}")
    string(APPEND bad "output does not match: ${MATCH${k}}\n")
  endif()
endforeach()
if(DEFINED NOMATCH AND all MATCHES "${NOMATCH}")
  string(APPEND bad "output matches what it must not: ${NOMATCH}\n")
endif()
if(bad)
  message(FATAL_ERROR "${EXE} ${ARGS}\n${bad}--- output ---\n${all}")
endif()
