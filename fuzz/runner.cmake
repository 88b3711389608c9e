# rf_runner: the device-facing runner; redfuzz: the CLI. Included from fuzz/CMakeLists.txt.
add_library(rf_runner STATIC runner.c runner_device.c judge.c buffers.c arena.c workers.c launch_graph.c verdict.c report.c shrink.c fuzz_select.c bench.c parse_count.c)
target_include_directories(rf_runner PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(rf_runner PUBLIC rf_core rf_kernels)
# redfuzz study: sizes, host references, measures, CSV tables (issue 6)
target_sources(rf_runner PRIVATE study.c study_report.c)

file(GLOB rf_cli_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cli_*.c)
add_executable(redfuzz ${rf_cli_srcs})
target_link_libraries(redfuzz PRIVATE rf_runner)
# Plugins (include/redfuzz/plugin.h) resolve the simulator and the plan helpers against the
# program that loads them: export its symbols.
set_target_properties(redfuzz PROPERTIES ENABLE_EXPORTS ON)
if(NOT REDFUZZ_BACKEND STREQUAL "sim")
  # The GPU build folder must run on a machine without compilers or MPFR: static everything
  # except the C library.
  target_link_options(redfuzz PRIVATE -static-libstdc++ -static-libgcc)
endif()

# The libFuzzer target (clang only): REDFUZZ_FUZZER=ON.
if(REDFUZZ_FUZZER)
  add_executable(redfuzz_fuzz fuzz_target.c)
  target_compile_options(redfuzz_fuzz PRIVATE -fsanitize=fuzzer)
  target_link_options(redfuzz_fuzz PRIVATE -fsanitize=fuzzer)
  target_link_libraries(redfuzz_fuzz PRIVATE rf_runner)
  set_target_properties(redfuzz_fuzz PROPERTIES ENABLE_EXPORTS ON)   # for plugins, as redfuzz
  if(REDFUZZ_BACKEND STREQUAL "cuda")
    # libFuzzer needs clang as the linker driver (nvcc would hand the link to g++).
    find_package(CUDAToolkit REQUIRED)
    set_target_properties(redfuzz_fuzz PROPERTIES LINKER_LANGUAGE CXX)
    target_link_libraries(redfuzz_fuzz PRIVATE CUDA::cudart_static)
    target_link_options(redfuzz_fuzz PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endif()
