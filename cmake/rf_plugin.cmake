# rf_add_plugin(target src...): a redfuzz plugin (include/redfuzz/plugin.h) as a MODULE
# library for the configured backend (REDFUZZ_BACKEND) and sanitizer (the build's flags), the
# one recipe behind examples/plugin and scripts/redfuzz-plugin (cmake/plugin-project).
# Needs rf_hip_sources (cmake/rf_hip_sources.cmake) and RF_PLUGIN_ROOT, the redfuzz source
# root (its include paths).
function(rf_add_plugin target)
  add_library(${target} MODULE)
  rf_hip_sources(${target} ${ARGN})
  target_include_directories(${target} PRIVATE ${RF_PLUGIN_ROOT} ${RF_PLUGIN_ROOT}/include)
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
