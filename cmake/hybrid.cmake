# Hybrid campaigns (scripts/fuzz-hybrid.sh): the portable simulator build that a GPU runner
# can run, and the tests. Included at the end of the top-level CMakeLists.txt.

# REDFUZZ_PORTABLE=ON (sim backend): MPFR and GMP are static archives (CMakeLists.txt), so
# the build folder runs on a machine without them: the hybrid campaign's TSan partner on a GPU
# runner without compilers. Without a sanitizer the C++ runtime is static too (only the C
# library is needed, as for the GPU builds). Under ThreadSanitizer it stays shared
# (libstdc++6, present on any Debian or Ubuntu system): the TSan runtime defines operator
# new/delete and the __cxa_guard functions itself, and a static libstdc++ in the fuzzer's link
# defines them a second time.
if(REDFUZZ_PORTABLE AND REDFUZZ_BACKEND STREQUAL "sim" AND REDFUZZ_SANITIZE STREQUAL "")
  foreach(t redfuzz redfuzz_fuzz)
    if(TARGET ${t})
      target_link_options(${t} PRIVATE -static-libstdc++ -static-libgcc)
    endif()
  endforeach()
endif()

# The TSan side's shrunk findings (regressions/tsan/, written by fuzz-hybrid.sh) carry the
# ThreadSanitizer build's verdicts (`race`): replayed there, and only there.
if(REDFUZZ_BACKEND STREQUAL "sim" AND REDFUZZ_SANITIZE STREQUAL "thread"
   AND IS_DIRECTORY ${CMAKE_SOURCE_DIR}/regressions/tsan)
  rf_cmd_test(cli.replay_regressions_tsan 0 "replay ${CMAKE_SOURCE_DIR}/regressions/tsan"
    MATCH "\n[0-9]+ passed, 0 failed" NOMATCH "FAIL " LABELS "cli;tsan"
    ENV "TSAN_OPTIONS=halt_on_error=0:report_signal_unsafe=0")
endif()

# The hybrid campaign end to end (tests/hybrid/hybrid_selftest.sh, about a minute): in a
# simulator fuzz build configured with -DREDFUZZ_HYBRID_TSAN_BUILD=<a TSan simulator fuzz
# build folder>; this build stands in for the GPU side. Not in CI: it needs two fuzz builds.
set(REDFUZZ_HYBRID_TSAN_BUILD "" CACHE PATH "TSan simulator fuzz build for the hybrid self-test")
if(REDFUZZ_BACKEND STREQUAL "sim" AND REDFUZZ_FUZZER AND REDFUZZ_HYBRID_TSAN_BUILD)
  add_test(NAME fuzz.hybrid_selftest
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/hybrid/hybrid_selftest.sh ${CMAKE_BINARY_DIR}
                   ${REDFUZZ_HYBRID_TSAN_BUILD} 20)
  set_tests_properties(fuzz.hybrid_selftest PROPERTIES LABELS hybrid TIMEOUT 600)
endif()

# Bring your own kernel in campaigns (issue 36), in a simulator fuzz build (not the TSan one:
# the stand-in GPU side): a plugin with two distinct bugs yields both signatures
# (tests/plugin/two_signatures_campaign.sh, about a minute); with REDFUZZ_HYBRID_TSAN_BUILD
# also the example plugin's source through `fuzz.sh --hybrid --plugin-src`, its finding shrunk
# and replayed with the plugin (tests/hybrid/plugin_hybrid.sh). Not in CI: fuzz builds.
if(REDFUZZ_BACKEND STREQUAL "sim" AND REDFUZZ_FUZZER AND REDFUZZ_SANITIZE STREQUAL "")
  add_test(NAME fuzz.two_signatures
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/plugin/two_signatures_campaign.sh
                   ${CMAKE_BINARY_DIR} 30)
  set_tests_properties(fuzz.two_signatures PROPERTIES LABELS "fuzz;plugin" TIMEOUT 600)
  if(REDFUZZ_HYBRID_TSAN_BUILD)
    add_test(NAME fuzz.plugin_hybrid
             COMMAND bash ${CMAKE_SOURCE_DIR}/tests/hybrid/plugin_hybrid.sh ${CMAKE_BINARY_DIR}
                     ${REDFUZZ_HYBRID_TSAN_BUILD} 15)
    set_tests_properties(fuzz.plugin_hybrid PROPERTIES LABELS "hybrid;plugin" TIMEOUT 600)
  endif()
endif()
