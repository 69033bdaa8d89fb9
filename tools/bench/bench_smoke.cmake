# CTest smoke test of `streamsim bench --quick` (docs/performance.md): it must exit 0 and print
# the table header; `--compare` against the run's own JSON must print the comparison, and a
# file that is not a bench report must be refused with exit 2. Never asserts on a figure: a test
# does not time anything.
#   cmake -DSTREAMSIM=<path to streamsim> -DWORK=<scratch folder> -P bench_smoke.cmake
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${STREAMSIM}" bench --quick --json
                RESULT_VARIABLE rc OUTPUT_FILE "${WORK}/bench.json" ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "streamsim bench --quick --json exited with ${rc}: ${err}")
endif()
execute_process(COMMAND "${STREAMSIM}" bench --quick --compare "${WORK}/bench.json"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "streamsim bench --quick exited with ${rc}")
endif()
if(NOT out MATCHES "id +workload +figure +limit +ratio +target +met +scaling")
  message(FATAL_ERROR "streamsim bench --quick did not print the table header")
endif()
foreach(limit "simdjson \\+ flat map" "heap timer loop" "plain runs" "WriteBatch puts")
  if(NOT out MATCHES "${limit}")
    message(FATAL_ERROR "streamsim bench --quick did not print the limit '${limit}'")
  endif()
endforeach()
# Issue 20's targets at the large key count: 1b and 2b scale (<= 1.2), 2b' keeps 60% of raw puts.
foreach(row "1b +throughput[^\n]*scaling <= 1\\.2" "2b +throughput[^\n]*scaling <= 1\\.2"
            "2b' +[^\n]*>= 60% of limit")
  if(NOT out MATCHES "${row}")
    message(FATAL_ERROR "streamsim bench --quick did not print the target row '${row}'")
  endif()
endforeach()
# Workload 4p (issue 38): the standard crash scenario swept with the seed's Python count processor,
# next to plain runs of the same Python workload; it ran (no "not run" note) and its seeds passed.
if(NOT out MATCHES "\n4p +sweep rate[^\n]*plain Python runs[^\n]*>= 40% of limit")
  message(FATAL_ERROR "streamsim bench --quick did not print row 4p (the Python sweep)")
endif()
if(out MATCHES "\n4p [^\n]*\n[^\n]*not run")
  message(FATAL_ERROR "streamsim bench --quick did not run row 4p")
endif()
if(NOT out MATCHES "compared with .*bench.json\n.*\n1a +[0-9.kMG]+ events/s")
  message(FATAL_ERROR "streamsim bench --compare did not print workload 1a's change")
endif()
file(WRITE "${WORK}/not-a-report.json" "[1, 2, 3]\n")
execute_process(COMMAND "${STREAMSIM}" bench --quick --only 1 --compare "${WORK}/not-a-report.json"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "not-a-report.json: not a `streamsim bench --json` report")
  message(FATAL_ERROR "a malformed --compare file gave exit ${rc}: ${err}")
endif()
