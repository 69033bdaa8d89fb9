# streamsim as a CMake package: the streamsim:: targets, their install rules, streamsimConfig.cmake
# (+ version file) for find_package(streamsim 0.1 REQUIRED), and streamsim.pc for pkg-config.
# Included from the top-level CMakeLists.txt after the libraries are defined.
#
#   streamsim::engine    the engine (processor API, state stores, checkpoint formats)
#   streamsim::examples  the example processors (registerExampleProcessors: count, heartbeat, ...)
#   streamsim::platform  the real clock and POSIX filesystem
#   streamsim::sim       the simulation (virtual clock, crashing filesystem, faults, workloads)
#   streamsim::harness   ProcessorTester, actions, oracles, scenarios, sweeps
#   streamsim::gtest     the harness + its GoogleTest matchers + GoogleTest/GoogleMock + gtest_main
#   streamsim::cli       the CLI's subcommands;  streamsim::cli_main  the same with main()
#   streamsim::streamsim the `streamsim` runner (the example processors)
# add_subdirectory / FetchContent gives the same names (ALIAS targets in each folder).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STREAMSIM_EXPORTED streamsim_engine streamsim_examples streamsim_platform streamsim_sim streamsim_harness
                       streamsim_gtest streamsim_cli streamsim_cli_main)
foreach(target ${STREAMSIM_EXPORTED})
  string(REGEX REPLACE "^streamsim_" "" export_name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
endforeach()

option(STREAMSIM_INSTALL "Generate streamsim's install rules" ${PROJECT_IS_TOP_LEVEL})
if(NOT STREAMSIM_INSTALL)
  return()
endif()

set(STREAMSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/streamsim)
install(TARGETS ${STREAMSIM_EXPORTED} streamsim
        EXPORT streamsimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(dir engine/include scenarios/processors/include engine/platform/include sim/include harness/include)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
install(EXPORT streamsimTargets NAMESPACE streamsim:: DESTINATION ${STREAMSIM_CMAKE_DIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/streamsimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/streamsimConfig.cmake
                              INSTALL_DESTINATION ${STREAMSIM_CMAKE_DIR})
# 0.x: a minor version may break the API, so 0.1 accepts 0.1.y only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/streamsimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/streamsimConfig.cmake
              ${PROJECT_BINARY_DIR}/streamsimConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/Streamsim.cmake
        DESTINATION ${STREAMSIM_CMAKE_DIR})

# pkg-config: the libraries below the CLI (engine, platform, sim, harness) for non-CMake builds.
file(RELATIVE_PATH STREAMSIM_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${CMAKE_CURRENT_LIST_DIR}/streamsim.pc.in ${PROJECT_BINARY_DIR}/streamsim.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/streamsim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
