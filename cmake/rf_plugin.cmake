# rf_add_plugin(target src...): a redfuzz plugin (include/redfuzz/plugin.h) as a MODULE
# library for the configured backend (REDFUZZ_BACKEND) and sanitizer (the build's flags), the
# one recipe behind examples/plugin and scripts/redfuzz-plugin (cmake/plugin-project).
# Needs rf_hip_sources (cmake/rf_hip_sources.cmake) and RF_PLUGIN_ROOT, the redfuzz source
# root (its include paths).
#
# Plain HIP (a kernel written against <hip/hip_runtime.h>, docs/SIMULATOR.md "Plain HIP")
# builds unmodified on every backend: each finds its own hip/ headers first on the include
# path, and the sim backend compiles through the plain-HIP build step
# (sim/plain_hip/rf_sim_hipcc.py, a compiler launcher), which gives `__shared__` arrays the
# per-block LDS of RF_SHARED and turns <<<...>>> launches into simulator launches. Sources
# written against kernels/port.h build as before (the step leaves them as they are).
function(rf_add_plugin target)
  add_library(${target} MODULE)
  rf_hip_sources(${target} ${ARGN})
  target_include_directories(${target} PRIVATE ${RF_PLUGIN_ROOT} ${RF_PLUGIN_ROOT}/include)
  rf_plain_hip(${target} ${ARGN})
  # No simulator library: on the sim backend the kernels must run on the host program's
  # simulator (redfuzz exports its symbols), so undefined symbols are resolved at load time.
  if(REDFUZZ_BACKEND STREQUAL "cuda")
    target_compile_options(${target} PRIVATE
                           $<$<COMPILE_LANGUAGE:CUDA>:-x cu --expt-relaxed-constexpr>)
    # The plugin carries its own static CUDA runtime, a second instance beside redfuzz's that
    # shares the device's primary context (so device pointers and streams are valid in both);
    # -Bsymbolic keeps the plugin's calls on its own copy even if the host exports a
    # same-named symbol.
    target_link_options(${target} PRIVATE -Wl,-Bsymbolic)
  endif()
endfunction()

# rf_plain_hip(target src...): the backend's way to plain HIP for the target's .hip sources
# (rf_add_plugin's; also the simulator's own plain-HIP tests, tests/sim/CMakeLists.txt).
function(rf_plain_hip target)
  if(REDFUZZ_BACKEND STREQUAL "sim")
    target_include_directories(${target} BEFORE PRIVATE ${RF_PLUGIN_ROOT}/sim/include)
    find_program(RF_PYTHON3 python3 REQUIRED)
    set(step ${RF_PLUGIN_ROOT}/sim/plain_hip/rf_sim_hipcc.py)
    # Replaces a ccache launcher: the step runs the compiler itself.
    set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER "${RF_PYTHON3};${step}")
    set_source_files_properties(${ARGN} PROPERTIES OBJECT_DEPENDS ${step})
  elseif(REDFUZZ_BACKEND STREQUAL "cuda")
    target_include_directories(${target} BEFORE PRIVATE ${RF_PLUGIN_ROOT}/kernels/plain_hip/cuda)
  elseif(REDFUZZ_BACKEND STREQUAL "hip")
    target_include_directories(${target} BEFORE PRIVATE ${RF_PLUGIN_ROOT}/kernels/plain_hip/rocm)
  endif()
endfunction()
