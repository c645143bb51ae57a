# Helpers shared by the steps' CMakeLists.

# Warnings: -Wall -Wextra for host code (g++ and nvcc's host compiler) and nvcc's own
# warnings; with COURSE_WERROR=ON (CI) every warning is an error.
function(course_warnings target)
  set(host_flags -Wall -Wextra)
  if(COURSE_WERROR)
    list(APPEND host_flags -Werror)
  endif()
  string(REPLACE ";" "," host_flags_csv "${host_flags}")
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${host_flags}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${host_flags_csv}>)
  if(COURSE_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
  endif()
endfunction()

# course_add_test_program(<target> LABEL <label> SOURCES <files...> [LIBRARIES <libs...>])
# Builds a Catch2 test program with the course's test main and registers each of its test
# cases with ctest (labels: LABEL plus the test's tags, so `ctest -L step3` and
# `ctest -L gpu` work). Without a GPU, tests tagged [gpu] are reported as skipped; in a build
# of other kernels than the reference (COURSE_KERNELS=exercise or a student's folder) a
# step's [gpu] tests are reported as failed instead, each saying that it needs a GPU and did
# not run: there, nothing of the student's kernels has been checked, which must not look
# like a pass.
function(course_add_test_program target)
  cmake_parse_arguments(ARG "" "LABEL" "SOURCES;LIBRARIES" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE course_test_main ${ARG_LIBRARIES})
  course_warnings(${target})
  set(gpu_skip ON)
  if(DEFINED COURSE_KERNELS AND NOT COURSE_KERNELS STREQUAL "reference"
     AND ARG_LABEL MATCHES "^step[0-9]+$")
    set(gpu_skip OFF)
  endif()
  set(ctest_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_tests.cmake")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}" -D "TEST_PROGRAM=$<TARGET_FILE:${target}>"
            -D "CTEST_FILE=${ctest_file}" -D "STEP_LABEL=${ARG_LABEL}" -D "SKIP_CODE=77"
            -D "GPU_SKIP=${gpu_skip}" -D "CATCH2_MAJOR=${Catch2_VERSION_MAJOR}"
            -P "${PROJECT_SOURCE_DIR}/cmake/CourseListTests.cmake"
    BYPRODUCTS "${ctest_file}"
    VERBATIM)
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${ctest_file}")
endfunction()

# course_add_program(<target> SOURCES <files...> [LIBRARIES <libs...>])
# A step program: links common, honours COURSE_DEBUG (defines DEBUG). Every such program is
# listed in the global property COURSE_PROGRAMS (scripts/CMakeLists.txt writes the list for
# scripts/program_options.py, which documents each program's options in the README).
function(course_add_program target)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  set_property(GLOBAL APPEND PROPERTY COURSE_PROGRAMS ${target})
  target_link_libraries(${target} PRIVATE course_common ${ARG_LIBRARIES})
  if(COURSE_DEBUG)
    target_compile_definitions(${target} PRIVATE DEBUG)
  endif()
  course_warnings(${target})
endfunction()

# course_approach_option(<program> <variable> <approaches...>)
# The cache variable <variable> (e.g. STEP2_APPROACH): empty leaves main.cu's `#define
# APPROACH` alone; one of <approaches> defines APPROACH for <program>; anything else stops
# the configure step with an error naming the allowed values.
function(course_approach_option program variable)
  set(${variable} "" CACHE STRING
      "Approach ${program} runs by default (${ARGN}; empty: APPROACH in main.cu)")
  set(value "${${variable}}")
  if(value STREQUAL "")
    return()
  endif()
  if(NOT value IN_LIST ARGN)
    string(REPLACE ";" ", " allowed "${ARGN}")
    message(FATAL_ERROR "${variable} must be one of ${allowed}, got '${value}'")
  endif()
  target_compile_definitions(${program} PRIVATE APPROACH=${value})
endfunction()

# course_add_program_test(<target> LABEL <label> SOURCES <files...> LIBRARIES <libs...>
#                         PROGRAM <program> PATH_MACRO <macro>)
# A test program (course_add_test_program) whose bad-input tests also run the built step
# program, to check its exit code and message: the program is built first and its path
# reaches the tests as the macro <macro>.
function(course_add_program_test target)
  cmake_parse_arguments(ARG "" "LABEL;PROGRAM;PATH_MACRO" "SOURCES;LIBRARIES" ${ARGN})
  course_add_test_program(${target} LABEL ${ARG_LABEL}
    SOURCES ${ARG_SOURCES}
    LIBRARIES ${ARG_LIBRARIES})
  add_dependencies(${target} ${ARG_PROGRAM})
  target_compile_definitions(${target} PRIVATE
    ${ARG_PATH_MACRO}="$<TARGET_FILE:${ARG_PROGRAM}>")
endfunction()

# course_kernel_dir(<out_var> [REQUIRED <files...>])
# Where the kernel sources of the step folder being configured come from, chosen by the
# cache variable COURSE_KERNELS:
#   reference (default)  the course's solution: ${CMAKE_CURRENT_SOURCE_DIR}
#   exercise             the exercise version: ${CMAKE_CURRENT_SOURCE_DIR}/exercise
#   <absolute path>      a student's folder holding step folders: <path>/<step folder name>
# Stops with a FATAL_ERROR naming the folder and the files when the folder or one of the
# REQUIRED files is missing.
function(course_kernel_dir out_var)
  cmake_parse_arguments(ARG "" "" "REQUIRED" ${ARGN})
  set(COURSE_KERNELS "reference" CACHE STRING
      "Kernels to build: reference, exercise, or the absolute path of a student's folder that holds step folders")
  get_filename_component(step_folder "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  if(COURSE_KERNELS STREQUAL "reference")
    set(kernel_dir "${CMAKE_CURRENT_SOURCE_DIR}")
  elseif(COURSE_KERNELS STREQUAL "exercise")
    set(kernel_dir "${CMAKE_CURRENT_SOURCE_DIR}/exercise")
  elseif(IS_ABSOLUTE "${COURSE_KERNELS}")
    set(kernel_dir "${COURSE_KERNELS}/${step_folder}")
  else()
    message(FATAL_ERROR "COURSE_KERNELS must be 'reference', 'exercise' or the absolute path of "
                        "a folder that holds step folders (e.g. /home/me/solutions with "
                        "/home/me/solutions/${step_folder} in it), got '${COURSE_KERNELS}'")
  endif()
  if(kernel_dir MATCHES "[\"\\\\]")
    message(FATAL_ERROR "${step_folder}: the kernel folder '${kernel_dir}' contains a quote or "
                        "a backslash; move the solutions to a plain path")
  endif()
  if(NOT IS_DIRECTORY "${kernel_dir}")
    message(FATAL_ERROR "${step_folder}: COURSE_KERNELS=${COURSE_KERNELS} needs the folder "
                        "${kernel_dir}, which does not exist. A student's folder must hold one "
                        "folder per step, named like the course's (${step_folder}); build only "
                        "the steps it has with -DCOURSE_STEPS=...")
  endif()
  set(missing "")
  foreach(file IN LISTS ARG_REQUIRED)
    if(NOT EXISTS "${kernel_dir}/${file}")
      list(APPEND missing "${file}")
    endif()
  endforeach()
  if(missing)
    list(JOIN missing ", " missing_text)
    message(FATAL_ERROR "${step_folder}: COURSE_KERNELS=${COURSE_KERNELS} takes the kernels from "
                        "${kernel_dir}, which lacks ${missing_text}. Start from the files of "
                        "${CMAKE_CURRENT_SOURCE_DIR}/exercise.")
  endif()
  set(${out_var} "${kernel_dir}" PARENT_SCOPE)
endfunction()

# course_write_if_changed(<path> <content>)
# Writes <content> to <path> verbatim unless the file already holds it (its time stamp then
# stays, so a build reusing the directory recompiles nothing). Unlike file(CONFIGURE), it
# expands nothing: a path with '@' or '${' in it is written as it is.
function(course_write_if_changed path content)
  if(EXISTS "${path}")
    file(READ "${path}" old_content)
    if(old_content STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE "${path}" "${content}")
endfunction()

# course_add_kernel_library(<target> LAUNCHERS <file.cu> KERNELS <files.cuh...>
#                           [PRELUDE <headers...>])
# The static library of a step's kernels and their launchers, built from the folder that
# course_kernel_dir() picks. The KERNELS (the files a student writes, included by the
# launchers as "<step folder>/<file>") must be in that folder; the LAUNCHERS file is taken
# from it when it has one, otherwise from the course. The launcher header (<step>_launchers.hpp)
# is always the course's, so the programs and tests build unchanged. For another folder than
# the reference, a generated wrapper includes the chosen launcher file, and generated
# forwarding headers make "<step folder>/<kernel>.cuh" resolve to the chosen kernels (compiler
# messages still name the student's files).
#
# When the launchers are the course's (the folder has no launcher file: steps 2 to 5, and
# always in the grader), the kernel files are compiled for the GPU only. nvcc preprocesses
# the source once for the host, without __CUDA_ARCH__, and once per GPU architecture, with
# it; the forwarding header gives the chosen file to the GPU passes and the course's own
# file to the host pass. The chosen file's host code (functions, static objects,
# constructors, init sections, asm) is then compiled into nothing; the course's launchers,
# compiled against the course's declarations, launch the chosen file's kernels by their
# names, which must therefore be the interface's (grading/README.md, "Threat model"). The
# PRELUDE headers (course headers, named from the project root) are read by the GPU passes
# before the chosen file, so that no macro of it changes them (step 5's checked shuffle).
# Such objects are compiled through CourseDeviceOnlyCompile.cmake, which keeps the PTX that
# nvcc assembled beside each object (<object>.device/, read by the grader) and explains a
# kernel or variable the interface does not have; no compiler cache runs for them.
# COURSE_DEVICE_ONLY_KERNELS is defined for the library's objects.
function(course_add_kernel_library target)
  cmake_parse_arguments(ARG "" "LAUNCHERS" "KERNELS;PRELUDE" ${ARGN})
  course_kernel_dir(kernel_dir REQUIRED ${ARG_KERNELS})
  get_filename_component(step_folder "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  set(device_only OFF)
  if(kernel_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    add_library(${target} STATIC ${ARG_LAUNCHERS})
  else()
    if(EXISTS "${kernel_dir}/${ARG_LAUNCHERS}")
      set(launcher_file "${kernel_dir}/${ARG_LAUNCHERS}")
    else()
      set(launcher_file "${CMAKE_CURRENT_SOURCE_DIR}/${ARG_LAUNCHERS}")
      set(device_only ON)
    endif()
    set(stage "${CMAKE_CURRENT_BINARY_DIR}/course_kernels")
    set(generated "// Generated by course_add_kernel_library (COURSE_KERNELS=${COURSE_KERNELS}).")
    course_write_if_changed("${stage}/${ARG_LAUNCHERS}"
                            "${generated}\n#include \"${launcher_file}\"\n")
    set(prelude "")
    foreach(header IN LISTS ARG_PRELUDE)
      string(APPEND prelude "#include \"${header}\"\n")
    endforeach()
    foreach(kernel IN LISTS ARG_KERNELS)
      if(device_only)
        # nvcc's GPU passes define __CUDA_ARCH__, its host pass does not.
        string(CONCAT forwarding "${generated}\n#ifdef __CUDA_ARCH__\n${prelude}"
               "#include \"${kernel_dir}/${kernel}\"\n#else\n"
               "#include \"${CMAKE_CURRENT_SOURCE_DIR}/${kernel}\"\n#endif\n")
        course_write_if_changed("${stage}/${step_folder}/${kernel}" "${forwarding}")
      else()
        course_write_if_changed("${stage}/${step_folder}/${kernel}"
                                "${generated}\n#include \"${kernel_dir}/${kernel}\"\n")
      endif()
    endforeach()
    # A launcher header in the folder is ignored: warn when it differs from the course's.
    file(GLOB folder_headers "${kernel_dir}/*_launchers.hpp")
    foreach(header IN LISTS folder_headers)
      get_filename_component(header_name "${header}" NAME)
      if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${header_name}")
        file(SHA256 "${header}" folder_hash)
        file(SHA256 "${CMAKE_CURRENT_SOURCE_DIR}/${header_name}" course_hash)
        if(NOT folder_hash STREQUAL course_hash)
          message(WARNING "${step_folder}: ${header} differs from the course's ${header_name}; "
                          "the course's header is used (the interface is fixed)")
        endif()
      endif()
    endforeach()
    add_library(${target} STATIC "${stage}/${ARG_LAUNCHERS}")
    target_include_directories(${target} BEFORE PRIVATE "${stage}")
    if(device_only)
      list(TRANSFORM ARG_KERNELS PREPEND "${step_folder}/" OUTPUT_VARIABLE kernel_names)
      list(JOIN kernel_names "," kernel_names)
      target_compile_definitions(${target} PRIVATE COURSE_DEVICE_ONLY_KERNELS)
      set_property(TARGET ${target} PROPERTY CUDA_COMPILER_LAUNCHER
        "${CMAKE_COMMAND}" "-DCOURSE_KERNEL_FILES=${kernel_names}"
        -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/CourseDeviceOnlyCompile.cmake" --)
      message(STATUS "${step_folder}: kernels from ${kernel_dir} (compiled for the GPU only), "
                     "launchers from ${launcher_file}")
    else()
      message(STATUS "${step_folder}: kernels from ${kernel_dir}, launchers from ${launcher_file}")
    endif()
  endif()
  target_link_libraries(${target} PUBLIC course_common)
  course_warnings(${target})
endfunction()
