// The reference oracle (opt-in, `{reference: NAME}` or `{reference: file.py:function}`; a C++
// program's function: OracleArgs "function"): the final view equals the user's reference function
// over the rows each source delivered (oracles/reference.h). Parameters "name" (a registered
// reference, or file.py:function with the file resolved against the scenario's folder; with a
// function: its name in reports) and "function".
#include <filesystem>

#include <fmt/format.h>

#include "scenario/oracle_runs.h"
#include "scenario/parse_context.h"
#include "scenario/sink_views.h"
#include "streamsim/harness/oracles/scenario_variants.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/registries.h"

namespace streamsim::harness {
namespace unit_reference {

Result<std::optional<Violation>> check(OracleInput& in) {
  if (!in.referenceViews) return Status::FailedPrecondition("reference needs a reference function");
  STREAMSIM_ASSIGN_OR_RETURN(ReferenceViews views, in.referenceViews());
  return checkReference(views);
}

void parse(detail::ParseContext& pc, const YAML::Node& ref, const Scenario&, OracleArgs& args) {
  const ReferenceSet& references = referencesOf(pc.options().registries.get());
  std::string name = pc.str(ref, "reference (the name of a registered reference function, or file.py:function)");
  if (auto py = splitPythonReference(name)) {
    // A Python function (`file.py:function`, the file relative to the scenario's folder): loaded
    // when the oracle runs.
    std::filesystem::path path(py->first);
    if (path.is_relative()) path = std::filesystem::path(pc.file()).parent_path() / path;
    name = path.lexically_normal().string() + ":" + py->second;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
      pc.error(ref, fmt::format("no Python reference file '{}' (looked for {})", py->first, path.lexically_normal().string()));
  } else if (ref.IsScalar()) {
    if (auto f = references.function(name); !f.ok()) pc.error(ref, f.status().message());
  }
  args.set("reference", "name", std::move(name));
}

std::string refuse(const Scenario& sc) {
  return fmt::format("oracle 'reference' needs the name of its reference function: write "
                     "{{reference: NAME}}; registered: {}",
                     detail::joinNames(referencesOf(sc.registries.get()).names()));
}

// The outputStructType of the query's last transformWithState ("" when none or not given): a
// Python reference's rows are cast to it.
std::string lastOutputStructType(const Scenario& sc) {
  std::string ddl;
  for (const auto& op : sc.query.operators)
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op)) ddl = t->outputStructType;
  return ddl;
}

void prepare(ScenarioOracleRun& run, OracleInput& in) {
  const Scenario& sc = run.sc;
  if (const ReferenceFunction* f = sc.oracleArgs.function("reference", "function")) {  // a C++ program's
    in.referenceViews = [&run, f]() -> Result<ReferenceViews> {
      const Scenario& sc = run.sc;
      if (!run.r.delivered) return Status::FailedPrecondition("reference: the run recorded no source rows");
      const std::vector<std::string> keys = sc.hooks ? sc.hooks->referenceKeys : std::vector<std::string>{};
      ReferenceViews views;
      views.name = sc.oracleArgs.text("reference", "name");
      if (views.name.empty()) views.name = "reference";
      views.expected = (*f)(run.r.delivered->input(sc.query.sources.size(), keys));
      views.actual = sc.query.outputMode == "update" ? latestPerKey(run.r.sinkRows, keys) : run.r.sinkRows;
      return views;
    };
    return;
  }
  if (sc.oracleArgs.text("reference", "name").empty()) return;
  in.referenceViews = [&run]() -> Result<ReferenceViews> {
    const Scenario& sc = run.sc;
    const std::string name = sc.oracleArgs.text("reference", "name");
    if (!run.r.delivered) return Status::FailedPrecondition("reference: the run recorded no source rows");
    ReferenceViews views;
    views.name = name;
    const ReferenceInput input = run.r.delivered->input(sc.query.sources.size(), finalGroupBy(sc));
    if (auto py = splitPythonReference(name)) {  // file.py:function
      STREAMSIM_ASSIGN_OR_RETURN(PythonReference fn,
                                 loadPythonReference(sc.registries.get(), {py->first, py->second, lastOutputStructType(sc)}));
      STREAMSIM_ASSIGN_OR_RETURN(views.expected, fn(input.rows));
    } else {
      STREAMSIM_ASSIGN_OR_RETURN(ReferenceFunction f, referencesOf(sc.registries.get()).function(name));
      views.expected = f(input);
    }
    std::vector<std::string> keys = referencesOf(sc.registries.get()).keyColumns(name);
    if (keys.empty()) keys = detail::outputKeys(sc);
    views.actual = sc.query.outputMode == "update" ? latestPerKey(run.r.sinkRows, keys) : run.r.sinkRows;
    return views;
  };
}

}  // namespace unit_reference

Oracle referenceOracle() {
  Oracle o;
  o.name = "reference";
  o.needs = "the user's reference function over the rows the sources delivered, and the final view";
  o.check = unit_reference::check;
  o.forms = "{reference: NAME}, {reference: file.py:function}";
  o.example = "{reference: count}";
  o.parse = unit_reference::parse;
  o.refuse = unit_reference::refuse;
  o.needsArgs = true;
  o.prepare = unit_reference::prepare;
  return o;
}

}  // namespace streamsim::harness
