# Runs the checkpoint log tests that read Spark's fixtures with the fixtures folder pointing
# nowhere (STREAMSIM_TEST_FIXTURES_DIR): each must fail with a message naming the missing fixture,
# and the program must exit 1, not die of a signal (issue 35: a segfault without the fixtures).
# `cmake -DTEST=<engine_tests> -DMISSING=<a path that does not exist> -P missing_fixture.cmake`.
set(ENV{STREAMSIM_TEST_FIXTURES_DIR} "${MISSING}")
execute_process(COMMAND ${TEST} --gtest_filter=FileSinkLogFormat.Spark21*:FileSourceLogFormat.*:CheckpointFixtures.*
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT code STREQUAL "1")
  message(FATAL_ERROR "expected exit 1 (failed tests), got '${code}':\n${out}")
endif()
string(FIND "${out}" "the fixture ${MISSING}/file-sink-log-version-2.1.0 is missing" at)
if(at EQUAL -1)
  message(FATAL_ERROR "no message naming the missing fixture:\n${out}")
endif()
