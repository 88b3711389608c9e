# rf_hip_sources(target src...): compile .hip files for the chosen backend.
# Shared by this build and the plugin builder's project (cmake/plugin-project, scripts/
# redfuzz-plugin), so a plugin is compiled exactly as the built-in kernels are.
function(rf_hip_sources target)
  foreach(src IN LISTS ARGN)
    if(REDFUZZ_BACKEND STREQUAL "cuda")
      set_source_files_properties(${src} PROPERTIES LANGUAGE CUDA)
    elseif(REDFUZZ_BACKEND STREQUAL "hip")
      set_source_files_properties(${src} PROPERTIES LANGUAGE HIP)
    else()
      set_source_files_properties(${src} PROPERTIES LANGUAGE CXX)
    endif()
    target_sources(${target} PRIVATE ${src})
  endforeach()
  if(REDFUZZ_BACKEND STREQUAL "sim")
    target_compile_definitions(${target} PRIVATE RF_SIM=1)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-x c++>)
    # A misaligned vector access (a float4 load from an address not a multiple of 16) reaches
    # sim/align_report.cpp, which ends the launch as a GPU would (docs/SIMULATOR.md,
    # "Alignment"). The sanitizer builds keep their runtimes' handlers out of it.
    if(REDFUZZ_SANITIZE STREQUAL "")
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=alignment>)
    elseif(REDFUZZ_SANITIZE STREQUAL "address")
      # Kernels recoverable: an AddressSanitizer report inside a kernel returns to it, and
      # sim/asan_report.cpp turns it into `oob` and ends the launch (docs/SIMULATOR.md,
      # "AddressSanitizer build"); the harness's own code still stops at its first report.
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fsanitize-recover=address>)
    endif()
  endif()
  # rf_variant grows at its end (fuzz_max_n, then in_dtype/out_dtype): a positional
  # initialiser that stops early leaves the later fields 0 = their defaults, by design of the
  # ABI (include/redfuzz/variant.h), so the warning about it says nothing here.
  target_compile_options(${target} PRIVATE
                         $<$<COMPILE_LANGUAGE:CXX>:-Wno-missing-field-initializers>)
endfunction()
