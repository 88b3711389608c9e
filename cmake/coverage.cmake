# Kernel coverage (issue 13). Included at the end of the top-level CMakeLists.txt, once every
# target exists. Two independent uses:
#
# 1. The simulator fuzz build (REDFUZZ_FUZZER=ON, sim backend): the kernels are compiled with
#    SanitizerCoverage so that libFuzzer's `cov:` counts kernel edges and keeps inputs that
#    reach a new kernel branch. Plugins get the same flags through
#    REDFUZZ_KERNEL_COVERAGE_FLAGS (docs/CAMPAIGNS.md, "Kernel coverage").
#    Only kernel code is instrumented, never the simulator: its scheduler, barrier and fiber
#    branches run thousands of times per launch whatever the input, and as features they would
#    be noise that makes libFuzzer keep inputs for how threads interleaved, not for what the
#    kernel did (cmake/sancov-ignore.txt drops the simulator's header functions too).
#    sim/kernel_coverage.cpp keeps the counters meaningful although every GPU thread runs the
#    same edges (per-thread maxima instead of wrapping totals).
#
# 2. The coverage report build (REDFUZZ_COVERAGE_REPORT=ON, sim backend, no fuzzer): the
#    kernels carry clang source-based coverage (-fprofile-instr-generate -fcoverage-mapping)
#    and redfuzz_cov_replay runs a corpus one variant at a time (scripts/coverage.sh).

option(REDFUZZ_KERNEL_COVERAGE "simulator fuzz build: SanitizerCoverage in the kernels" ON)
option(REDFUZZ_COVERAGE_REPORT "build redfuzz_cov_replay with source-based coverage in the kernels" OFF)

# trace-cmp: libFuzzer also learns the values kernels compare against (sizes, thread and
# block indices) for its mutations. The GPU threads' compares, once per thread, were 8 % of an
# execution's instructions: the fuzz target keeps only the launch functions'
# (sim/kernel_cmp.cpp, rf_kernel_cmp_link below).
set(REDFUZZ_KERNEL_COVERAGE_FLAGS
    -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp
    -fsanitize-coverage-ignorelist=${CMAKE_SOURCE_DIR}/cmake/sancov-ignore.txt)
# More SanitizerCoverage flags for the kernels (measurements: docs/RESULTS.md).
set(REDFUZZ_KERNEL_COVERAGE_EXTRA "" CACHE STRING "extra -fsanitize-coverage flags for the kernels")
list(APPEND REDFUZZ_KERNEL_COVERAGE_FLAGS ${REDFUZZ_KERNEL_COVERAGE_EXTRA})
# The build does not see the ignorelist as an input of the kernels: its digest in a
# definition makes an edit recompile them (and CMAKE_CONFIGURE_DEPENDS reconfigure).
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/cmake/sancov-ignore.txt)
file(MD5 ${CMAKE_SOURCE_DIR}/cmake/sancov-ignore.txt rf_sancov_ignore_md5)
list(APPEND REDFUZZ_KERNEL_COVERAGE_FLAGS -DRF_SANCOV_IGNORELIST_MD5=${rf_sancov_ignore_md5})

# rf_kernel_cmp_link(target): the kernels' trace-cmp callbacks go through sim/kernel_cmp.cpp
# (compares made by GPU threads stop there, the launch functions' reach libFuzzer): each
# callback wrapped by the linker, the wrappers linked in. Not instrumented, not under TSan.
set(rf_kernel_cmp_callbacks cmp1 cmp2 cmp4 cmp8 const_cmp1 const_cmp2 const_cmp4 const_cmp8 switch)
function(rf_kernel_cmp_link target)
  if(NOT TARGET rf_sim_kernel_cmp)
    add_library(rf_sim_kernel_cmp OBJECT ${CMAKE_SOURCE_DIR}/sim/kernel_cmp.cpp)
    target_link_libraries(rf_sim_kernel_cmp PRIVATE rf_sim)
    if(REDFUZZ_SANITIZE STREQUAL "thread")
      target_compile_options(rf_sim_kernel_cmp PRIVATE -fno-sanitize=thread)
    endif()
  endif()
  target_link_libraries(${target} PRIVATE rf_sim_kernel_cmp)
  foreach(cb IN LISTS rf_kernel_cmp_callbacks)
    target_link_options(${target} PRIVATE "LINKER:--wrap=__sanitizer_cov_trace_${cb}")
  endforeach()
endfunction()

# rf_cov_kernel_flags(target flags...): the flags on a target's kernel sources only (the .hip
# files compile as CXX on the simulator; the registry and loaders are C and stay plain).
function(rf_cov_kernel_flags target)
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${ARGN}>")
endfunction()

if(REDFUZZ_BACKEND STREQUAL "sim" AND REDFUZZ_FUZZER AND REDFUZZ_KERNEL_COVERAGE)
  if(REDFUZZ_COVERAGE_REPORT)
    message(FATAL_ERROR "REDFUZZ_COVERAGE_REPORT=ON needs its own build folder without REDFUZZ_FUZZER")
  endif()
  rf_cov_kernel_flags(rf_kernels ${REDFUZZ_KERNEL_COVERAGE_FLAGS})
  if(TARGET redfuzz_example_plugin)
    rf_cov_kernel_flags(redfuzz_example_plugin ${REDFUZZ_KERNEL_COVERAGE_FLAGS})
  endif()
  # Programs other than the fuzzer that link the kernels (the CLI, tests) need the callbacks.
  target_sources(rf_kernels PRIVATE ${CMAKE_SOURCE_DIR}/kernels/sancov_stubs.c)
  # The counter folding, linked into the fuzzer only; an object library so that its
  # static constructor (which installs the hook) is always linked. Not built with
  # -fsanitize=fuzzer (it must not count itself) nor ThreadSanitizer (simulator code).
  add_library(rf_sim_kernel_coverage OBJECT ${CMAKE_SOURCE_DIR}/sim/kernel_coverage.cpp)
  target_link_libraries(rf_sim_kernel_coverage PRIVATE rf_sim)
  if(REDFUZZ_SANITIZE STREQUAL "thread")
    target_compile_options(rf_sim_kernel_coverage PRIVATE -fno-sanitize=thread)
  endif()
  target_link_libraries(redfuzz_fuzz PRIVATE rf_sim_kernel_coverage)
  rf_kernel_cmp_link(redfuzz_fuzz)
endif()

if(REDFUZZ_COVERAGE_REPORT)
  if(NOT REDFUZZ_BACKEND STREQUAL "sim")
    message(FATAL_ERROR "REDFUZZ_COVERAGE_REPORT=ON: the coverage report runs on the simulator (REDFUZZ_BACKEND=sim)")
  endif()
  rf_cov_kernel_flags(rf_kernels -fprofile-instr-generate -fcoverage-mapping)
  target_link_options(rf_kernels INTERFACE -fprofile-instr-generate)
  add_executable(redfuzz_cov_replay ${CMAKE_SOURCE_DIR}/fuzz/cov_replay.c)
  target_link_libraries(redfuzz_cov_replay PRIVATE rf_runner)
  # Plugins resolve the simulator and the plan helpers against the program that loads them,
  # as in redfuzz (cli/CMakeLists.txt): without its symbols exported, a plugin failed to load
  # ("undefined symbol: _ZN6rf_sim11launch_viewE") and so did fuzz.sh's coverage step.
  set_target_properties(redfuzz_cov_replay PROPERTIES ENABLE_EXPORTS ON)
endif()

# 3. A plain simulator build (no sanitizer, REDFUZZ_FUZZER and REDFUZZ_COVERAGE_REPORT off)
#    holds both programs as well, outside `all`: redfuzz_fuzz and redfuzz_cov_replay link the
#    build's own runner, simulator, oracle and model with a copy of the kernels carrying the
#    flags of 1. (rf_kernels_fuzz) or 2. (rf_kernels_cov; kernels/CMakeLists.txt). So
#    scripts/run.sh builds one tree, build/, where it built three (build/, build-fuzz-sim/,
#    build-cov/): the kernels are compiled three times, everything else once
#    (docs/log/2026-12-07-main-job-time.md). The separate folders of 1. and 2. still work.
if(TARGET rf_kernels_fuzz AND TARGET rf_kernels_cov)
  # The runner's objects without the kernels it links (rf_runner's rf_kernels): each program
  # brings its own copy.
  set(rf_runner_deps rf_model rf_oracle rf_sim)
  rf_cov_kernel_flags(rf_kernels_fuzz ${REDFUZZ_KERNEL_COVERAGE_FLAGS})
  add_executable(redfuzz_fuzz EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/fuzz/fuzz_target.c
                 $<TARGET_OBJECTS:rf_runner>)
  include(${CMAKE_SOURCE_DIR}/cmake/rf_fuzz_engine.cmake)
  rf_fuzz_engine_link(redfuzz_fuzz)
  target_include_directories(redfuzz_fuzz PRIVATE ${CMAKE_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/include)
  target_link_libraries(redfuzz_fuzz PRIVATE rf_kernels_fuzz ${rf_runner_deps})
  set_target_properties(redfuzz_fuzz PROPERTIES ENABLE_EXPORTS ON   # for plugins, as redfuzz
                        RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
  add_library(rf_sim_kernel_coverage OBJECT EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/sim/kernel_coverage.cpp)
  target_link_libraries(rf_sim_kernel_coverage PRIVATE rf_sim)
  target_link_libraries(redfuzz_fuzz PRIVATE rf_sim_kernel_coverage)
  rf_kernel_cmp_link(redfuzz_fuzz)

  rf_cov_kernel_flags(rf_kernels_cov -fprofile-instr-generate -fcoverage-mapping)
  target_link_options(rf_kernels_cov INTERFACE -fprofile-instr-generate)
  add_executable(redfuzz_cov_replay EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/fuzz/cov_replay.c
                 $<TARGET_OBJECTS:rf_runner>)
  target_include_directories(redfuzz_cov_replay PRIVATE ${CMAKE_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/include)
  target_link_libraries(redfuzz_cov_replay PRIVATE rf_kernels_cov ${rf_runner_deps})
endif()

# The counter folding on its own, in every simulator build (tests/sim/coverage_fold.hip): a
# kernel compiled with the fuzz build's flags, the folding, and the callbacks' stubs.
if(REDFUZZ_BACKEND STREQUAL "sim")
  add_executable(sim_coverage_fold ${CMAKE_SOURCE_DIR}/kernels/sancov_stubs.c)
  rf_hip_sources(sim_coverage_fold ${CMAKE_SOURCE_DIR}/tests/sim/coverage_fold.hip)
  rf_cov_kernel_flags(sim_coverage_fold ${REDFUZZ_KERNEL_COVERAGE_FLAGS})
  add_library(rf_sim_kernel_coverage_test OBJECT ${CMAKE_SOURCE_DIR}/sim/kernel_coverage.cpp)
  target_link_libraries(rf_sim_kernel_coverage_test PRIVATE rf_sim)
  if(REDFUZZ_SANITIZE STREQUAL "thread")
    target_compile_options(rf_sim_kernel_coverage_test PRIVATE -fno-sanitize=thread)
  endif()
  target_include_directories(sim_coverage_fold PRIVATE ${CMAKE_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/tests
                             ${CMAKE_SOURCE_DIR}/tests/sim)
  target_link_libraries(sim_coverage_fold PRIVATE rf_sim rf_sim_kernel_coverage_test)
  add_test(NAME sim.coverage_fold COMMAND sim_coverage_fold)
  set(rf_cov_labels sim)
  if(REDFUZZ_SANITIZE STREQUAL "thread")
    list(APPEND rf_cov_labels tsan)
  endif()
  set_tests_properties(sim.coverage_fold PROPERTIES LABELS "${rf_cov_labels}")
  # The same with the x86-64 baseline folds, which AVX2 ones replace where the CPU has it
  # (sim/kernel_coverage.cpp: on_launch_avx2, dirty_from): both checked against the reference.
  add_test(NAME sim.coverage_fold.baseline COMMAND sim_coverage_fold baseline)
  set_tests_properties(sim.coverage_fold.baseline PROPERTIES LABELS "${rf_cov_labels}")
  # The same with every periodic fold reading every counter (REDFUZZ_COVERAGE_FOLD=full), not
  # each launch's reach.
  add_test(NAME sim.coverage_fold.full COMMAND sim_coverage_fold full)
  set_tests_properties(sim.coverage_fold.full PROPERTIES LABELS "${rf_cov_labels}")
  # The kernels' trace-cmp callbacks through the fuzz target's wrappers (sim/kernel_cmp.cpp):
  # GPU threads' compares stop there by default, pass with `all` (REDFUZZ_COVERAGE_CMP=all).
  add_executable(sim_coverage_cmp ${CMAKE_SOURCE_DIR}/kernels/sancov_stubs.c
                 ${CMAKE_SOURCE_DIR}/tests/sim/coverage_cmp_record.c)
  rf_hip_sources(sim_coverage_cmp ${CMAKE_SOURCE_DIR}/tests/sim/coverage_cmp.hip)
  rf_cov_kernel_flags(sim_coverage_cmp ${REDFUZZ_KERNEL_COVERAGE_FLAGS})
  target_include_directories(sim_coverage_cmp PRIVATE ${CMAKE_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/tests
                             ${CMAKE_SOURCE_DIR}/tests/sim)
  target_link_libraries(sim_coverage_cmp PRIVATE rf_sim)
  rf_kernel_cmp_link(sim_coverage_cmp)
  add_test(NAME sim.coverage_cmp COMMAND sim_coverage_cmp)
  add_test(NAME sim.coverage_cmp.all COMMAND sim_coverage_cmp all)
  set_tests_properties(sim.coverage_cmp sim.coverage_cmp.all PROPERTIES LABELS "${rf_cov_labels}")
endif()
