# rf_hip_debian_prepare(): lets CMake's HIP language build the `hip` backend with Debian 12's
# own packages (libamdhip64-dev, rocm-device-libs, ROCm 5.2) and clang-19 for gfx1201.
# Included before enable_language(HIP). On a real ROCm install (/opt/rocm) it does nothing.
#
# Two gaps, each closed with the smallest shim, inside the build folder only:
#  1. CMake 3.25 looks for the HIP runtime package at <ROCm root>/lib/cmake/hip-lang, where
#     <ROCm root> is what clang prints as "Found HIP installation" (/usr on Debian); Debian
#     installs it under the multiarch folder /usr/lib/<triplet>/cmake/hip-lang. The shim is a
#     small ROCm root in the build folder, given as CMAKE_HIP_COMPILER_ROCM_ROOT (see below).
#  2. ROCm 5.2's device libraries predate RDNA4: there is no oclc_isa_version_1201.bc, and clang
#     refuses to link device code without it. That file holds one constant, __oclc_ISA_version =
#     major*1000 + minor*100 + stepping (the formula every file in the package follows, e.g.
#     gfx1036 -> 10306, gfx90a -> 9010). The shim is a folder of links to Debian's bitcode plus
#     that one generated file, passed with --rocm-device-lib-path.
# What stays unverified: the 5.2 device library (ocml/ockl) was never validated by AMD on gfx12,
# and the 5.2 runtime (libamdhip64, comgr) does not know gfx1201 devices, so this binary is a
# build check: it builds and carries gfx1201 code for every kernel, nothing more (no AMD GPU
# here). To run on an RX 9070, build on ROCm 6.4.1 or later (docker/rocm.Dockerfile), where
# this file does nothing.
# It runs at every configure (a re-configure needs the device-library flag again), unless the
# user gave a ROCm root of their own.
function(rf_hip_debian_prepare)
  if(EXISTS /opt/rocm/lib/cmake/hip-lang OR (DEFINED CMAKE_HIP_COMPILER_ROCM_ROOT AND
     NOT CMAKE_HIP_COMPILER_ROCM_ROOT STREQUAL "${CMAKE_BINARY_DIR}/rf-debian-rocm"))
    return()
  endif()
  file(GLOB _hiplang /usr/lib/*-linux-gnu/cmake/hip-lang/hip-lang-config.cmake)
  if(NOT _hiplang OR EXISTS /usr/lib/cmake/hip-lang/hip-lang-config.cmake)
    return()
  endif()
  list(GET _hiplang 0 _hiplang)
  get_filename_component(_hiplang_dir "${_hiplang}" DIRECTORY)
  get_filename_component(_libdir "${_hiplang_dir}/../.." ABSOLUTE)   # /usr/lib/<triplet>
  get_filename_component(_triplet "${_libdir}" NAME)
  # The shim copies the package files into <shim>/lib/<triplet>/cmake/hip-lang, Debian's layout,
  # and links <shim>/lib/cmake/hip-lang (where CMake looks) to it. The files find the headers
  # four folders up from their real path: <shim>/include, holding links to HIP's and HSA's
  # headers only (the package's own answer, /usr, would add -isystem /usr/include, which
  # breaks libstdc++'s #include_next <math.h>). They find libamdhip64 from the path they were
  # loaded by, which is the link's: that path is rewritten to the library's real folder.
  set(_root "${CMAKE_BINARY_DIR}/rf-debian-rocm")
  set(_pkg "${_root}/lib/${_triplet}/cmake/hip-lang")
  file(MAKE_DIRECTORY "${_pkg}" "${_root}/lib/cmake" "${_root}/include")
  file(CREATE_LINK "${_pkg}" "${_root}/lib/cmake/hip-lang" SYMBOLIC)
  file(GLOB _files "${_hiplang_dir}/*.cmake")
  foreach(_f IN LISTS _files)
    get_filename_component(_n "${_f}" NAME)
    file(READ "${_f}" _text)
    string(REPLACE "\${_IMPORT_PREFIX}/lib/${_triplet}/" "${_libdir}/" _text "${_text}")
    file(WRITE "${_pkg}/${_n}" "${_text}")
  endforeach()
  foreach(_inc hip hsa)
    file(CREATE_LINK "/usr/include/${_inc}" "${_root}/include/${_inc}" SYMBOLIC)
  endforeach()
  # amd_comgr's package: CMake's test projects for the HIP compiler do not know the multiarch
  # triplet yet, so they find it through the prefix path (the environment reaches them; a
  # cache variable would not).
  if(EXISTS "${_libdir}/cmake/amd_comgr")
    file(CREATE_LINK "${_libdir}/cmake/amd_comgr" "${_root}/lib/cmake/amd_comgr" SYMBOLIC)
  endif()
  set(ENV{CMAKE_PREFIX_PATH} "${_root}:$ENV{CMAKE_PREFIX_PATH}")
  set(CMAKE_HIP_COMPILER_ROCM_ROOT "${_root}" CACHE PATH
      "ROCm root for CMake's HIP language (a shim over Debian's multiarch layout)")
  message(STATUS "hip: Debian ROCm layout, CMake package from ${_hiplang_dir}")

  # Device libraries: Debian's bitcode, plus an ISA-version file for each missing target.
  file(GLOB _ocml /usr/lib/*-linux-gnu/amdgcn/bitcode/ocml.bc)
  if(NOT _ocml)
    message(FATAL_ERROR "hip: no ROCm device libraries (ocml.bc); install Debian's rocm-device-libs")
  endif()
  list(GET _ocml 0 _ocml)
  get_filename_component(_bc "${_ocml}" DIRECTORY)
  set(_archs ${CMAKE_HIP_ARCHITECTURES})
  set(_missing "")
  foreach(_arch IN LISTS _archs)
    string(REGEX REPLACE "^gfx([0-9a-f]+)(:.*)?$" "\\1" _num "${_arch}")
    if(NOT EXISTS "${_bc}/oclc_isa_version_${_num}.bc")
      list(APPEND _missing ${_num})
    endif()
  endforeach()
  if(NOT _missing)
    return()
  endif()
  set(_hipcc "${CMAKE_HIP_COMPILER}")
  if(NOT _hipcc)
    set(_hipcc "${CMAKE_CXX_COMPILER}")
  endif()
  get_filename_component(_bindir "${_hipcc}" DIRECTORY)
  string(REGEX MATCH "-[0-9]+$" _ver "${_hipcc}")
  find_program(RF_LLVM_AS NAMES llvm-as${_ver} llvm-as HINTS "${_bindir}" REQUIRED)
  set(_dir "${CMAKE_BINARY_DIR}/rf-device-libs")
  file(MAKE_DIRECTORY "${_dir}")
  file(GLOB _bcs "${_bc}/*.bc")
  foreach(_f IN LISTS _bcs)
    get_filename_component(_n "${_f}" NAME)
    file(CREATE_LINK "${_f}" "${_dir}/${_n}" SYMBOLIC)
  endforeach()
  # The data layout of this compiler's amdgcn target, so linking raises no layout warning.
  file(WRITE "${_dir}/probe.hip" "")
  list(GET _missing 0 _first)
  execute_process(COMMAND "${_hipcc}" -x hip --offload-arch=gfx${_first} --offload-device-only
                          -nogpulib -S -emit-llvm -o - "${_dir}/probe.hip"
                  OUTPUT_VARIABLE _ir RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  string(REGEX MATCH "target datalayout = \"[^\"]*\"" _layout "${_ir}")
  if(NOT _rc EQUAL 0 OR NOT _layout)
    message(FATAL_ERROR "hip: ${_hipcc} cannot compile for gfx${_first}: ${_err}")
  endif()
  foreach(_num IN LISTS _missing)
    string(LENGTH "${_num}" _len)
    math(EXPR _mlen "${_len} - 2")
    string(SUBSTRING "${_num}" 0 ${_mlen} _major)
    string(SUBSTRING "${_num}" ${_mlen} 1 _minor)
    math(EXPR _minor "0x${_minor}")
    math(EXPR _mlen "${_len} - 1")
    string(SUBSTRING "${_num}" ${_mlen} 1 _step)
    math(EXPR _step "0x${_step}")
    math(EXPR _isa "${_major} * 1000 + ${_minor} * 100 + ${_step}")
    file(WRITE "${_dir}/oclc_isa_version_${_num}.ll"
         "${_layout}\ntarget triple = \"amdgcn-amd-amdhsa\"\n"
         "@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 ${_isa}, align 4\n")
    execute_process(COMMAND "${RF_LLVM_AS}" "${_dir}/oclc_isa_version_${_num}.ll"
                            -o "${_dir}/oclc_isa_version_${_num}.bc" RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "hip: ${RF_LLVM_AS} failed on oclc_isa_version_${_num}.ll")
    endif()
    message(STATUS "hip: ROCm 5.2 device libraries lack gfx${_num}: generated its ISA version file (${_isa})")
  endforeach()
  set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} --rocm-device-lib-path=${_dir}" PARENT_SCOPE)
endfunction()
