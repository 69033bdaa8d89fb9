# CTest smoke test of `streamsim bench --quick` (docs/performance.md): it must exit 0 and print
# the table header. Never asserts on a figure: a test does not time anything.
#   cmake -DSTREAMSIM=<path to streamsim> -P bench_smoke.cmake
execute_process(COMMAND "${STREAMSIM}" bench --quick
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "streamsim bench --quick exited with ${rc}")
endif()
if(NOT out MATCHES "id +workload +figure +limit +ratio +target +met +scaling")
  message(FATAL_ERROR "streamsim bench --quick did not print the table header")
endif()
