// The scenario steps as one table (docs/contributing.md "Add a scenario step"): each row names a
// step as the file writes it, parses its YAML into its alternative of StepVariant (scenario.h)
// and maps it onto the harness actions it runs as (actions.h). The loader and the runner both
// dispatch through it. Built once, then read-only: any thread.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "streamsim/harness/scenario.h"

namespace YAML {
class Node;
}

namespace streamsim::harness {
namespace detail {
class ParseContext;  // harness/src/scenario/parse_context.h: the node readers and the errors
class StepActions;   // harness/src/scenario/step_actions.h: the actions of a run's steps
}  // namespace detail

// What a step is to the oracles' variants (oracles/scenario_variants.h): a variant that re-cuts the
// input into batches keeps the data and time steps and drops the others.
enum class StepRole {
  kUnset,    // no row may keep it (step_table_test)
  kData,     // input arrives: put, put_partial, resend, touch, delete, add_rows, produce
  kTime,     // the virtual clock moves: advance
  kControl,  // the driver: run, crash, restart, stop
  kCheck,    // expect
};

struct StepKind {
  std::string_view name;  // the step's key in a scenario file: put, run, expect, ...
  size_t index = 0;       // its alternative in StepVariant
  // The step's value -> the step (`key` is the step's key node, for an error at it); errors go
  // to the context, with file:line:col.
  StepVariant (*parse)(detail::ParseContext& pc, const YAML::Node& key,
                       const YAML::Node& value) = nullptr;
  // The step at `at` -> its actions.
  void (*toActions)(detail::StepActions& actions, const StepVariant& step,
                    const SourceLocation& at) = nullptr;
  // A valid value of the step, for a query with a files source then a memory source
  // (step_table_test parses each one; docs/scenarios.md has the others).
  std::string_view example;
  StepRole role = StepRole::kUnset;
};

// Every step, in the order of StepVariant (error messages list the names in this order).
const std::vector<StepKind>& stepTable();
// The row of a StepVariant alternative; nullptr when no row has it.
const StepKind* stepKindOf(size_t index);
// The row named `name`; nullptr for an unknown step.
const StepKind* stepKindNamed(std::string_view name);

}  // namespace streamsim::harness
