# Builds and tests docs/example-project (the README's CMake snippet) the two ways a user consumes
# streamsim: against an installed prefix (cmake --install + find_package) and through
# add_subdirectory of this checkout. Also checks that the user's build gets none of streamsim's
# own tests, and that streamsim.pc compiles and links a program.
#   cmake -DSOURCE_DIR=<streamsim checkout> -DBINARY_DIR=<its build> -DWORK_DIR=<scratch>
#         -DSUBDIR_BUILD=<folder> -DBUILD_TYPE=<the build's type> -DGENERATOR=<generator>
#         -P example_project.cmake
# SUBDIR_BUILD, the add_subdirectory build, takes streamsim's objects from BINARY_DIR where
# their compile is the same (reuse_objects.cmake), so streamsim is compiled once per CI run.
set(example ${SOURCE_DIR}/docs/example-project)
file(REMOVE_RECURSE ${WORK_DIR} ${SUBDIR_BUILD})
file(MAKE_DIRECTORY ${WORK_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/run.cmake)

# The example's tests: its gtest, and each scenario run once and swept over 20 seeds.
function(check_example build)
  run(${CMAKE_CTEST_COMMAND} --test-dir ${build} -N)
  if(NOT out MATCHES "Total Tests: 5\n")
    message(FATAL_ERROR "expected the example's 5 tests only (1 gtest, 2 scenarios, 2 sweeps):\n${out}")
  endif()
  run(${CMAKE_CTEST_COMMAND} --test-dir ${build} -j2 --output-on-failure)
  message(STATUS "${build}: ${out}")
endfunction()

# The README's CMake snippet is the example's CMakeLists.txt, verbatim.
file(READ ${example}/CMakeLists.txt example_cmake)
file(READ ${SOURCE_DIR}/README.md readme)
string(FIND "${readme}" "```cmake\n${example_cmake}```" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md does not hold docs/example-project/CMakeLists.txt verbatim "
                      "in a ```cmake block")
endif()

# 1. Installed prefix.
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${prefix})
foreach(f lib/cmake/streamsim/streamsimConfig.cmake lib/cmake/streamsim/streamsimConfigVersion.cmake
          lib/pkgconfig/streamsim.pc bin/streamsim include/streamsim/tws/processor_registry.h
          include/streamsim/harness/gtest_matchers.h)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "cmake --install did not write ${f}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${example} -B ${WORK_DIR}/installed -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Debug)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/installed -j2)
check_example(${WORK_DIR}/installed)

# A version the package does not offer is refused (0.x: the minor version must match).
file(WRITE ${WORK_DIR}/wrong-version/CMakeLists.txt
     "cmake_minimum_required(VERSION 3.21)\nproject(v CXX)\nfind_package(streamsim 0.99 REQUIRED)\n")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK_DIR}/wrong-version -B ${WORK_DIR}/wrong-version/b
                        -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "not compatible|no suitable|version")
  message(FATAL_ERROR "find_package(streamsim 0.99) should fail against 0.1:\n${err}")
endif()

# pkg-config: a program using the registry compiles and links with streamsim.pc alone.
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  file(WRITE ${WORK_DIR}/pc/main.cc
       "#include \"streamsim/tws/processor_registry.h\"\n"
       "int main() { streamsim::ProcessorSet set; return set.create(\"count\").ok() ? 1 : 0; }\n")
  set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
  run(${PKG_CONFIG} --cflags --libs streamsim)
  string(STRIP "${out}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(c++ ${WORK_DIR}/pc/main.cc -o ${WORK_DIR}/pc/main ${flags})
  run(${WORK_DIR}/pc/main)
endif()

# 2. add_subdirectory of this checkout: streamsim's libraries are built inside the user's build,
# from the main build's objects wherever the compile is the same (reuse_objects.cmake): the
# user's build archives and links them, and compiles the rest (its own sources, any object whose
# flags differ). A "Unix Makefiles" build: make decides by dates alone, Ninja would compile
# every object its own log has not seen.
run(${CMAKE_COMMAND} -S ${example} -B ${SUBDIR_BUILD} -G "Unix Makefiles"
    -DSTREAMSIM_SOURCE_DIR=${SOURCE_DIR} -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
include(${CMAKE_CURRENT_LIST_DIR}/reuse_objects.cmake)
reuse_objects(${BINARY_DIR} ${SUBDIR_BUILD}/streamsim ${SUBDIR_BUILD})
message(STATUS "add_subdirectory build: ${REUSED} of the main build's objects reused, ${COMPILED} compiled")
if(REUSED EQUAL 0)
  message(FATAL_ERROR "the add_subdirectory build reused none of the main build's objects: "
                      "reuse_objects.cmake no longer matches their compile lines")
endif()
run(${CMAKE_COMMAND} --build ${SUBDIR_BUILD} -j2)
check_example(${SUBDIR_BUILD})
file(REMOVE_RECURSE ${SUBDIR_BUILD})
