# CMake helpers for streamsim users and for the project itself (docs/scenarios.md "Runners").
# find_package(streamsim) includes this file; so does streamsim's own CMakeLists.txt (and so an
# add_subdirectory / FetchContent of streamsim).
#
#   streamsim_add_runner(my_runner [SOURCES my_processors.cc ...] [LIBRARIES my_lib ...] [MAIN lib])
#     Builds an executable `my_runner` that is the streamsim CLI (run, sweep, replay, inspect,
#     state, list-faults) with the processors registered (STREAMSIM_REGISTER_PROCESSOR) in SOURCES
#     or in the static libraries LIBRARIES linked in — the way gtest_main gives a test its main().
#     A static library in LIBRARIES is linked whole (WHOLE_ARCHIVE), so registrations in objects
#     nothing else references still reach the runner. Both may be empty (the built-in
#     processors only).
#     MAIN lib: the library holding main() (default streamsim::cli_main; the project's own runner
#     takes streamsim_python_runner_main, which hands the runs the Python support's loaders).
#
#   streamsim_add_scenarios(DIR [RUNNER runner] [SEEDS n])
#     Registers every *.yaml file under DIR (recursively) as a CTest test named
#     scenario/<relative path without .yaml> that runs `<runner> run FILE`; RUNNER defaults to
#     the project's `streamsim` (streamsim::streamsim when installed). With SEEDS n, also one test per file running
#     `<runner> sweep FILE --seeds n`.

function(streamsim_add_runner name)
  cmake_parse_arguments(ARG "" "MAIN" "SOURCES;LIBRARIES" ${ARGN})
  # MAIN: the library holding main() (default streamsim::cli_main: the CLI without Python;
  # streamsim_python_runner_main: the CLI handed the Python support's loaders).
  if(NOT ARG_MAIN)
    set(ARG_MAIN streamsim::cli_main)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  if(NOT ARG_SOURCES)
    # add_executable needs a source: an empty translation unit stands in.
    set(stub "${CMAKE_CURRENT_BINARY_DIR}/${name}_no_processors.cc")
    if(NOT EXISTS "${stub}")
      file(WRITE "${stub}" "// ${name}: the built-in processors only.\n")
    endif()
    target_sources(${name} PRIVATE "${stub}")
  endif()
  set(libs)
  foreach(lib ${ARG_LIBRARIES})
    set(type "")
    if(TARGET ${lib})
      get_target_property(type ${lib} TYPE)
    endif()
    if(type STREQUAL "STATIC_LIBRARY")
      # A static library's objects are linked only when something references them; a
      # registration is referenced by nothing, so the whole archive is linked.
      if(CMAKE_VERSION VERSION_LESS 3.24)
        list(APPEND libs -Wl,--whole-archive ${lib} -Wl,--no-whole-archive)
      else()
        list(APPEND libs "$<LINK_LIBRARY:WHOLE_ARCHIVE,${lib}>")
      endif()
    else()
      list(APPEND libs ${lib})
    endif()
  endforeach()
  target_link_libraries(${name} PRIVATE ${ARG_MAIN} ${libs})
endfunction()

function(streamsim_add_scenarios dir)
  cmake_parse_arguments(ARG "" "RUNNER;SEEDS" "" ${ARGN})
  if(NOT ARG_RUNNER)
    if(TARGET streamsim)
      set(ARG_RUNNER streamsim)
    else()
      set(ARG_RUNNER streamsim::streamsim)
    endif()
  endif()
  get_filename_component(dir "${dir}" ABSOLUTE)
  # Instrumented builds (STREAMSIM_SANITIZE) run several times slower: their timeouts scale.
  set(scale 1)
  if(STREAMSIM_TEST_TIMEOUT_SCALE)
    set(scale ${STREAMSIM_TEST_TIMEOUT_SCALE})
  endif()
  math(EXPR run_timeout "120 * ${scale}")
  math(EXPR sweep_timeout "600 * ${scale}")
  file(GLOB_RECURSE files CONFIGURE_DEPENDS "${dir}/*.yaml")
  list(SORT files)
  foreach(file ${files})
    file(RELATIVE_PATH rel "${dir}" "${file}")
    string(REGEX REPLACE "\\.yaml$" "" rel "${rel}")
    add_test(NAME scenario/${rel} COMMAND $<TARGET_FILE:${ARG_RUNNER}> run "${file}")
    set_tests_properties(scenario/${rel} PROPERTIES TIMEOUT ${run_timeout} LABELS scenario)
    if(ARG_SEEDS)
      add_test(NAME sweep/${rel}
               COMMAND $<TARGET_FILE:${ARG_RUNNER}> sweep "${file}" --seeds ${ARG_SEEDS})
      set_tests_properties(sweep/${rel} PROPERTIES TIMEOUT ${sweep_timeout} LABELS sweep)
    endif()
  endforeach()
endfunction()
