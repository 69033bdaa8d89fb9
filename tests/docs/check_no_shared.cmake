# Nothing in the repository refers to the ../shared folder beside the checkout (issue 35): a clone
# has nothing beside it, so tests, tools and docs read the fixtures from tests/fixtures/.
# `cmake -DSOURCE_DIR=<repo> -P check_no_shared.cmake`.
file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/*.cc ${SOURCE_DIR}/*.h ${SOURCE_DIR}/*.py ${SOURCE_DIR}/*.cmake
     ${SOURCE_DIR}/*.txt ${SOURCE_DIR}/*.md ${SOURCE_DIR}/*.yaml ${SOURCE_DIR}/tools/*
     ${SOURCE_DIR}/.ci/*)
set(bad "")
foreach(f ${files})
  if(f MATCHES "^(build|\\.git|tests/fixtures/)" OR f MATCHES "check_no_shared\\.cmake$")
    continue()
  endif()
  file(STRINGS ${SOURCE_DIR}/${f} hits REGEX "\\.\\./shared|STREAMSIM_SHARED_DIR")
  if(hits)
    list(GET hits 0 first)
    string(APPEND bad "  ${f}: ${first}\n")
  endif()
endforeach()
if(NOT bad STREQUAL "")
  message(FATAL_ERROR "these files refer to ../shared, which a clone does not have:\n${bad}")
endif()
