# rf_backend_enable_language(): the compiler choices of each backend, for the project and for
# plugin projects (cmake/plugin-project) alike, so a plugin is built the way redfuzz is:
# cuda: sm_90 SASS + compute_90 PTX (H100/H200) unless the caller chose, static CUDA runtime;
# hip: gfx1201 unless chosen, Debian 12's ROCm 5.2 + clang-19 prepared (no-op on /opt/rocm);
# sim: plain C++ (nothing to enable). A macro: enable_language belongs to the caller's scope.
set(RF_BACKEND_LANGUAGE_DIR ${CMAKE_CURRENT_LIST_DIR})
macro(rf_backend_enable_language)
  if(REDFUZZ_BACKEND STREQUAL "cuda")
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
    enable_language(CUDA)
  elseif(REDFUZZ_BACKEND STREQUAL "hip")
    if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)
      set(CMAKE_HIP_ARCHITECTURES gfx1201)
    endif()
    include(${RF_BACKEND_LANGUAGE_DIR}/rf_hip_debian.cmake)
    rf_hip_debian_prepare()
    enable_language(HIP)
  endif()
endmacro()
