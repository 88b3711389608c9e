# Runs `EXE ARGS` (a sweep with --json) with inputs, exact answers and verdicts made on the
# host (REDFUZZ_DEVICE_ORACLE=0, REDFUZZ_DEVICE_GEN=0, REDFUZZ_DEVICE_VERDICT=0) and on the
# device (=1, every answer also re-checked on the host; on the device the input has its
# guards written there too, and every passing 1-D result is given from its device verdict
# record: REDFUZZ_VERDICT_RECHECK=0, so what is compared is what the records gave),
# and fails unless every result line is identical but for its time, the device path really
# made the answers, and the mutants failed somewhere (so the comparison saw failures too).
separate_arguments(args UNIX_COMMAND "${ARGS}")
foreach(mode 0 1)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env REDFUZZ_DEVICE_ORACLE=${mode}
                          REDFUZZ_DEVICE_GEN=${mode} REDFUZZ_DEVICE_VERDICT=${mode}
                          REDFUZZ_ORACLE_RECHECK=1 REDFUZZ_VERDICT_RECHECK=0 ${EXE} ${args}
                  OUTPUT_VARIABLE out_${mode} RESULT_VARIABLE rc_${mode})
  string(REGEX REPLACE "\"ms\":[^,]*," "" out_${mode} "${out_${mode}}")
  string(REGEX MATCHALL "{[^\n]*}" lines_${mode} "${out_${mode}}")
  list(LENGTH lines_${mode} n_${mode})
endforeach()
if(NOT rc_0 STREQUAL rc_1)
  message(FATAL_ERROR "exit status differs: host ${rc_0}, device ${rc_1}")
endif()
if(n_0 EQUAL 0 OR NOT n_0 EQUAL n_1)
  message(FATAL_ERROR "result counts: host ${n_0}, device ${n_1}")
endif()
foreach(a b IN ZIP_LISTS lines_0 lines_1)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "results differ:\n  host:   ${a}\n  device: ${b}")
  endif()
endforeach()
if(NOT out_1 MATCHES "exact answers made on the device: ([0-9]+) cases, ([0-9]+) of them also on the host [(]the same[)]; inputs made on the device: ([0-9]+)")
  message(FATAL_ERROR "the device run made no exact answer on the device:\n${out_1}")
endif()
set(made ${CMAKE_MATCH_1})
set(same ${CMAKE_MATCH_2})
set(inputs ${CMAKE_MATCH_3})
if(NOT made EQUAL same OR made EQUAL 0 OR inputs EQUAL 0)
  message(FATAL_ERROR "device answers ${made}, re-checked and equal ${same}, inputs ${inputs}")
endif()
if(NOT out_1 MATCHES "verdicts made on the device: ([0-9]+) batches, ([0-9]+) results from their records, ([0-9]+) judged on the host")
  message(FATAL_ERROR "the device run judged no batch from device verdict records:\n${out_1}")
endif()
set(from_records ${CMAKE_MATCH_2})
set(on_host ${CMAKE_MATCH_3})
if(from_records EQUAL 0 OR on_host EQUAL 0)
  message(FATAL_ERROR "results from device records ${from_records}, left to the host ${on_host}: both must be used")
endif()
if(out_0 MATCHES "exact answers made on the device|verdicts made on the device")
  message(FATAL_ERROR "REDFUZZ_DEVICE_ORACLE=0 still made answers on the device")
endif()
string(REGEX MATCHALL "\"verdict\":\"(wrong|nonfinite|unwritten|oob|nondeterministic|race)\"" failures "${out_0}")
list(LENGTH failures n_fail)
message(STATUS "${n_0} results identical (${n_fail} failure verdicts among them); ${made} exact answers made on the device, each equal to the host's; ${from_records} results given from device verdict records, ${on_host} left to the host path")
if(n_fail EQUAL 0)
  message(FATAL_ERROR "expected the mutants to fail somewhere: the comparison saw no failure")
endif()
