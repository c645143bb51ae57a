# Writes a ctest include file that registers every Catch2 test case of one test program
# as its own ctest test. Run after the program is built (see course_add_test_program).
# Inputs: TEST_PROGRAM, CTEST_FILE, STEP_LABEL, SKIP_CODE, GPU_SKIP (ON: a [gpu] test that finds
# no GPU is reported as skipped; OFF: as failed, with the test main's "no GPU" line),
# CATCH2_MAJOR (2 or 3). A name that selects no test must fail: Catch2 2 needs
# `--warn NoTests` for that, Catch2 3 fails by itself and names the option otherwise
# (`--warn UnmatchedTestSpec`).
execute_process(
  COMMAND "${TEST_PROGRAM}" --course-list-tests
  OUTPUT_VARIABLE listing
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "could not list the tests of ${TEST_PROGRAM} (exit ${status})")
endif()
if(CATCH2_MAJOR GREATER_EQUAL 3)
  set(no_match_warning UnmatchedTestSpec)
else()
  set(no_match_warning NoTests)
endif()
string(REPLACE ";" "," listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(script "")
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  string(FIND "${line}" "\t" tab)
  string(SUBSTRING "${line}" 0 ${tab} name)
  math(EXPR after "${tab} + 1")
  string(SUBSTRING "${line}" ${after} -1 tags)
  string(REPLACE "," ";" labels "${tags}")
  list(APPEND labels ${STEP_LABEL})
  list(REMOVE_DUPLICATES labels)
  set(skip "SKIP_RETURN_CODE ${SKIP_CODE} ")
  list(FIND labels "gpu" gpu_index)
  if(gpu_index GREATER -1 AND NOT GPU_SKIP)
    set(skip "")
  endif()
  string(APPEND script
    "add_test([==[${STEP_LABEL}: ${name}]==] [==[${TEST_PROGRAM}]==] [==[${name}]==] --warn ${no_match_warning})\n"
    "set_tests_properties([==[${STEP_LABEL}: ${name}]==] PROPERTIES LABELS [==[${labels}]==] "
    "${skip}TIMEOUT 600)\n")
endforeach()
file(WRITE "${CTEST_FILE}" "${script}")
