# .ci/run runs the README's test command verbatim (the second command of "Set up"): CI checks what
# a user runs on a fresh machine. `cmake -DSOURCE_DIR=<repo> -P check_ci_command.cmake`.
file(STRINGS ${SOURCE_DIR}/README.md readme_lines REGEX "^tools/install-deps --tests ")
file(STRINGS ${SOURCE_DIR}/.ci/run ci_lines REGEX "^tools/install-deps --tests ")
list(LENGTH readme_lines readme_count)
list(LENGTH ci_lines ci_count)
if(NOT readme_count EQUAL 1 OR NOT ci_count EQUAL 1)
  message(FATAL_ERROR "expected one line starting `tools/install-deps --tests` in README.md "
                      "(found ${readme_count}) and in .ci/run (found ${ci_count})")
endif()
if(NOT readme_lines STREQUAL ci_lines)
  message(FATAL_ERROR ".ci/run does not run the README's test command:\n"
                      "  README.md: ${readme_lines}\n  .ci/run:   ${ci_lines}")
endif()
message(STATUS "README.md and .ci/run: ${ci_lines}")
