# CMake helpers for streamsim users and for the project itself (docs/scenarios.md "Runners").
#
#   streamsim_add_runner(my_runner SOURCES my_processors.cc ...)
#     Builds an executable `my_runner` that is the streamsim CLI (run, sweep, replay, inspect,
#     state, list-faults) with the processors registered in SOURCES
#     (STREAMSIM_REGISTER_PROCESSOR) linked in — the way gtest_main gives a test its main().
#     SOURCES may be empty (the built-in processors only).
#
#   streamsim_add_scenarios(DIR [RUNNER runner] [SEEDS n])
#     Registers every *.yaml file under DIR (recursively) as a CTest test named
#     scenario/<relative path without .yaml> that runs `<runner> run FILE`; RUNNER defaults to
#     the project's `streamsim`. With SEEDS n, also one test per file running
#     `<runner> sweep FILE --seeds n`.

function(streamsim_add_runner name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  if(NOT ARG_SOURCES)
    # add_executable needs a source: an empty translation unit stands in.
    set(stub "${CMAKE_CURRENT_BINARY_DIR}/${name}_no_processors.cc")
    if(NOT EXISTS "${stub}")
      file(WRITE "${stub}" "// ${name}: the built-in processors only.\n")
    endif()
    target_sources(${name} PRIVATE "${stub}")
  endif()
  target_link_libraries(${name} PRIVATE streamsim_cli_main ${ARG_LIBRARIES})
endfunction()

function(streamsim_add_scenarios dir)
  cmake_parse_arguments(ARG "" "RUNNER;SEEDS" "" ${ARGN})
  if(NOT ARG_RUNNER)
    set(ARG_RUNNER streamsim)
  endif()
  get_filename_component(dir "${dir}" ABSOLUTE)
  file(GLOB_RECURSE files CONFIGURE_DEPENDS "${dir}/*.yaml")
  list(SORT files)
  foreach(file ${files})
    file(RELATIVE_PATH rel "${dir}" "${file}")
    string(REGEX REPLACE "\\.yaml$" "" rel "${rel}")
    add_test(NAME scenario/${rel} COMMAND $<TARGET_FILE:${ARG_RUNNER}> run "${file}")
    set_tests_properties(scenario/${rel} PROPERTIES TIMEOUT 120 LABELS scenario)
    if(ARG_SEEDS)
      add_test(NAME sweep/${rel}
               COMMAND $<TARGET_FILE:${ARG_RUNNER}> sweep "${file}" --seeds ${ARG_SEEDS})
      set_tests_properties(sweep/${rel} PROPERTIES TIMEOUT 600 LABELS sweep)
    endif()
  endforeach()
endfunction()
