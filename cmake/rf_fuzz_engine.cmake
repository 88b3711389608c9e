# rf_fuzz_engine_link(target): links the fuzz target with its fuzzing engine.
# The OSS-Fuzz / ClusterFuzzLite convention: the build environment names the engine in
# $LIB_FUZZING_ENGINE (e.g. -fsanitize=fuzzer for libFuzzer, a path such as
# /usr/lib/afl/libAFLDriver.a for AFL++, or honggfuzz's library) and puts the coverage
# instrumentation in CFLAGS/CXXFLAGS for the whole build; the target only supplies
# LLVMFuzzerTestOneInput. Without it, libFuzzer through clang's -fsanitize=fuzzer, as before.
set(REDFUZZ_FUZZING_ENGINE "$ENV{LIB_FUZZING_ENGINE}" CACHE STRING
    "fuzzing engine to link the fuzz target with (flags or a library, OSS-Fuzz's LIB_FUZZING_ENGINE); empty: libFuzzer (-fsanitize=fuzzer)")

function(rf_fuzz_engine_link target)
  if(REDFUZZ_FUZZING_ENGINE)
    separate_arguments(_engine UNIX_COMMAND "${REDFUZZ_FUZZING_ENGINE}")
    target_link_libraries(${target} PRIVATE ${_engine})
    # Engine drivers (AFL++'s, honggfuzz's) are C++ archives: link with the C++ driver.
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
    message(STATUS "fuzz target ${target}: engine ${REDFUZZ_FUZZING_ENGINE}")
  else()
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer)
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  endif()
endfunction()
