// The add_rows step (docs/scenarios.md "Steps"): rows appended to a memory source (AddData).
// Its row is in the table of step_table.cc.
#include <algorithm>

#include <fmt/format.h>

#include "scenario/parse_context.h"
#include "scenario/step_actions.h"

namespace streamsim::harness::detail {

AddRowsStep parseAddRows(ParseContext& pc, const YAML::Node& key, const YAML::Node& v) {
  AddRowsStep s;
  if (v.IsSequence()) {
    s.rows = pc.rows(v, "an add_rows row");
  } else if (pc.expectMap(v, "add_rows")) {
    pc.checkKeys(v, "add_rows", {"rows", "source"});
    if (auto r = v["rows"]; r) s.rows = pc.rows(r, "an add_rows row");
    else pc.error(v, "missing key 'rows' in add_rows");
    if (auto src = v["source"]; src) {
      // The index of one of the query's sources (sources() is empty if the query is bad).
      const int last = std::max<int>(0, static_cast<int>(pc.sources().size()) - 1);
      s.source = pc.int32(src, fmt::format("add_rows source (an index into the query's {} "
                                           "source{})", pc.sources().size(),
                                           pc.sources().size() == 1 ? "" : "s"),
                          0, last);
    }
  }
  if (s.source < static_cast<int>(pc.sources().size()) &&
      pc.sources()[s.source].kind != SourceSpec::Kind::kMemory) {
    pc.error(key, "add_rows needs a memory source (source kind: memory); use put for files");
  }
  pc.checkSourceRows(s.rows, s.source);
  return s;
}

void addRowsActions(StepActions& a, const AddRowsStep& s, const SourceLocation& at) {
  const auto& memory = a.state().memory;
  if (s.source >= static_cast<int>(memory.size()) || !memory[s.source])
    return a.setupFail(at, "add_rows needs a memory source");
  std::vector<Row> rows;
  for (const auto& r : s.rows) rows.push_back(r.toRow());
  a.push(AddData{memory[s.source], rows}, at);
}

}  // namespace streamsim::harness::detail
