# pip install of the python/ package into a fresh virtual environment, then pytest on the Python
# example project (docs/python-example) outside the tree, as a Python user does (docs/python.md
# "Install"); and a fake `pyspark` package first on the path keeps working beside streamsim.
# The package takes the already-built module and CLI from this build (STREAMSIM_BUILD_DIR:
# python/setup.py), so the test compiles nothing.
#   cmake -DSOURCE_DIR=<checkout> -DBINARY_DIR=<its build> -DWORK_DIR=<scratch>
#         -DPYTHON=<python3> -P pip_install.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/run.cmake)

# A copy of python/ (pip builds in the folder it is given: the checkout stays clean).
file(COPY ${SOURCE_DIR}/python DESTINATION ${WORK_DIR}/src PATTERN __pycache__ EXCLUDE)
set(venv ${WORK_DIR}/venv)
run(${PYTHON} -m venv --system-site-packages ${venv})
set(ENV{STREAMSIM_BUILD_DIR} ${BINARY_DIR})
set(ENV{PIP_NO_INDEX} 1)
set(ENV{PIP_DISABLE_PIP_VERSION_CHECK} 1)
unset(ENV{PYTHONPATH})
run(${venv}/bin/pip install --no-build-isolation --no-deps ${WORK_DIR}/src/python)
message(STATUS "${out}")
foreach(f bin/streamsim)
  if(NOT EXISTS ${venv}/${f})
    message(FATAL_ERROR "pip install did not write ${f}")
  endif()
endforeach()

# The example project, outside the tree, tested with the installed package and its plugin.
file(COPY ${SOURCE_DIR}/docs/python-example DESTINATION ${WORK_DIR} PATTERN __pycache__ EXCLUDE)
set(project ${WORK_DIR}/python-example)
set(ENV{PYTHONHASHSEED} 0)
set(ENV{PYTHONDONTWRITEBYTECODE} 1)
execute_process(COMMAND ${venv}/bin/python -m pytest -q -p no:cacheprovider
                WORKING_DIRECTORY ${project} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "4 passed")
  message(FATAL_ERROR "pytest on the example project (installed package):\n${out}")
endif()
message(STATUS "${out}")

# The plugin, loaded by its entry point: the marked test swept under crashes.
execute_process(COMMAND ${venv}/bin/python -m pytest -q -p no:cacheprovider --streamsim-seeds 30
                WORKING_DIRECTORY ${project} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "PASS tests/test_totals_job.py::test_totals_per_user_with_a_duplicate: 30 seeds, 0 failed")
  message(FATAL_ERROR "pytest --streamsim-seeds 30 on the example project:\n${out}")
endif()

# The installed CLI: its embedded Python finds the installed package and shim.
unset(ENV{PYTHONHASHSEED})
run(${venv}/bin/streamsim run ${project}/scenarios/totals.yaml)
set(ENV{PYTHONHASHSEED} 0)
if(NOT out MATCHES "^PASS")  # nothing before it: the command does not import the package
  message(FATAL_ERROR "streamsim run of the example's scenario:\n${out}")
endif()

# A fake pyspark first on the path: the example's tests still pass, and the fake is what
# `import pyspark` gives outside streamsim's calls.
file(WRITE ${WORK_DIR}/fake/pyspark/__init__.py "FAKE = True\n")
file(WRITE ${WORK_DIR}/fake/delta/__init__.py "FAKE = True\n")
set(ENV{PYTHONPATH} ${WORK_DIR}/fake)
execute_process(COMMAND ${venv}/bin/python -m pytest -q -p no:cacheprovider
                WORKING_DIRECTORY ${project} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "4 passed")
  message(FATAL_ERROR "pytest on the example project with a fake pyspark on the path:\n${out}")
endif()
run(${venv}/bin/python ${CMAKE_CURRENT_LIST_DIR}/fake_pyspark_check.py ${project})
message(STATUS "${out}")
