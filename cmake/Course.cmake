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
# `ctest -L gpu` work). Tests tagged [gpu] are reported as skipped without a GPU.
function(course_add_test_program target)
  cmake_parse_arguments(ARG "" "LABEL" "SOURCES;LIBRARIES" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE course_test_main ${ARG_LIBRARIES})
  course_warnings(${target})
  set(ctest_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_tests.cmake")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}" -D "TEST_PROGRAM=$<TARGET_FILE:${target}>"
            -D "CTEST_FILE=${ctest_file}" -D "STEP_LABEL=${ARG_LABEL}" -D "SKIP_CODE=77"
            -P "${PROJECT_SOURCE_DIR}/cmake/CourseListTests.cmake"
    BYPRODUCTS "${ctest_file}"
    VERBATIM)
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${ctest_file}")
endfunction()

# course_add_program(<target> SOURCES <files...> [LIBRARIES <libs...>])
# A step program: links common, honours COURSE_DEBUG (defines DEBUG).
function(course_add_program target)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE course_common ${ARG_LIBRARIES})
  if(COURSE_DEBUG)
    target_compile_definitions(${target} PRIVATE DEBUG)
  endif()
  course_warnings(${target})
endfunction()
