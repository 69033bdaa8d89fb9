# Instrumented builds of the whole project (docs/reliability.md).
#
#   -DSTREAMSIM_SANITIZE=ON   every target compiled and linked with AddressSanitizer and
#                             UndefinedBehaviorSanitizer; any UB report aborts the test
#                             (-fno-sanitize-recover=undefined). GCC or clang.
#   -DSTREAMSIM_FUZZ=ON       (clang only) the libraries also carry libFuzzer's coverage
#                             instrumentation (-fsanitize=fuzzer-no-link) and tests/fuzz/ builds one
#                             libFuzzer executable per *_fuzz.cc; implies STREAMSIM_SANITIZE.
option(STREAMSIM_SANITIZE "Build everything with ASan + UBSan" OFF)
option(STREAMSIM_FUZZ "Build the libFuzzer targets in tests/fuzz (clang)" OFF)

if(STREAMSIM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "STREAMSIM_FUZZ needs clang: CXX=clang++ cmake -DSTREAMSIM_FUZZ=ON ...")
  endif()
  set(STREAMSIM_SANITIZE ON)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(STREAMSIM_SANITIZE)
  set(_streamsim_san -fsanitize=address,undefined -fno-sanitize-recover=undefined)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    # clang 14 cannot compile C++20 coroutines (scenarios/processors/src/async_processors.cc) with
    # -fsanitize=function ("error: Cannot represent a difference across sections"); that one
    # check (calls through a function pointer of the wrong type) is left out.
    list(APPEND _streamsim_san -fno-sanitize=function)
  endif()
  add_compile_options(${_streamsim_san} -fno-omit-frame-pointer)
  add_link_options(${_streamsim_san})
  # ASan + UBSan run the suite 2-5x slower (a Python scenario's `run` went past its 120 s):
  # every test's timeout is this many times the normal one (tests/CMakeLists.txt, Streamsim.cmake).
  set(STREAMSIM_TEST_TIMEOUT_SCALE 4)
  # The sanitizers' reports name the line; a test that trips one fails.
  set(STREAMSIM_SANITIZER_ENV
      "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1"
      "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
endif()
