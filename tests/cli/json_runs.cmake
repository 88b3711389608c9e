# rf_compare_json_runs(VAR A B): runs `EXE ARGS` (a command with --json) with VAR=A and with
# VAR=B and fails unless both give the same exit status and the same JSON result lines but
# for their times ("ms"). Leaves out_A and out_B (each run's output, times removed) and
# json_lines (the number of result lines) to the caller. Included by the -P scripts that
# compare two ways of running one sweep.
function(rf_compare_json_runs var a b)
  separate_arguments(args UNIX_COMMAND "${ARGS}")
  foreach(v ${a} ${b})
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${var}=${v} ${EXE} ${args}
                    OUTPUT_VARIABLE out RESULT_VARIABLE rc_${v})
    string(REGEX REPLACE "\"ms\":[^,]*," "" out "${out}")
    string(REGEX MATCHALL "{[^\n]*}" lines_${v} "${out}")
    list(LENGTH lines_${v} n_${v})
    set(out_${v} "${out}" PARENT_SCOPE)
  endforeach()
  if(NOT rc_${a} STREQUAL rc_${b})
    message(FATAL_ERROR "exit status differs: ${var}=${a} ${rc_${a}}, ${var}=${b} ${rc_${b}}")
  endif()
  if(n_${a} EQUAL 0 OR NOT n_${a} EQUAL n_${b})
    message(FATAL_ERROR "result counts: ${var}=${a} ${n_${a}}, ${var}=${b} ${n_${b}}")
  endif()
  foreach(x y IN ZIP_LISTS lines_${a} lines_${b})
    if(NOT x STREQUAL y)
      message(FATAL_ERROR "results differ:\n  ${var}=${a}: ${x}\n  ${var}=${b}: ${y}")
    endif()
  endforeach()
  set(json_lines ${n_${a}} PARENT_SCOPE)
endfunction()
