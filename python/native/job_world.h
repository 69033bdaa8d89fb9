// The engine side of the PySpark job API (docs/python.md "PySpark jobs"): `_streamsim_native.JobWorld`,
// one simulated world (virtual clock, filesystem, Kafka-like log, fault injector) in which a
// PySpark job's streaming queries run, and the batch evaluation of expressions over rows that
// `DataFrame.select/where` and `spark.sql` use outside a stream (job_world.cc).
#pragma once

#include <pybind11/pybind11.h>

namespace streamsim::python {

// Adds JobWorld and eval_select / eval_where to `m`.
void defineJobModule(pybind11::module_& m);

// Adds the pytest sweep's plan_for_seed and shrink_plan (job_sweep.cc): the harness's fault-plan
// generator and shrinker, for sweeps of a test function (streamsim/_job_sweep.py).
void defineJobSweep(pybind11::module_& m);

}  // namespace streamsim::python
