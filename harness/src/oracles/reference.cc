// The reference oracle (oracles/reference.h): the reference set with the built-in references
// ("count", "simple_counter"), the recording source, the check.
#include "streamsim/harness/oracles/reference.h"

#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "oracles/trace_fields.h"
#include "streamsim/harness/row_diff.h"
#include "streamsim/trace_events.h"
#include "streamsim/source.h"

namespace streamsim::harness {
namespace {

class RecordingSource final : public Source {
 public:
  RecordingSource(std::unique_ptr<Source> inner, int index, std::shared_ptr<DeliveredRows> rows)
      : inner_(std::move(inner)), index_(index), rows_(std::move(rows)) {}
  std::string description() const override { return inner_->description(); }
  Status restore(const SourceContext& ctx, const std::optional<std::string>& committed) override {
    return inner_->restore(ctx, committed);
  }
  Result<std::optional<std::string>> latestOffset(const SourceContext& ctx,
                                                  const std::optional<std::string>& start) override {
    return inner_->latestOffset(ctx, start);
  }
  Result<std::vector<Row>> getBatch(const SourceContext& ctx, const std::optional<std::string>& start,
                                    const std::string& end) override {
    auto rows = inner_->getBatch(ctx, start, end);
    if (rows.ok()) rows_->record(ctx.batchId, index_, *rows);
    return rows;
  }
  Status commit(const SourceContext& ctx, const std::string& end) override { return inner_->commit(ctx, end); }

 private:
  std::unique_ptr<Source> inner_;
  int index_;
  std::shared_ptr<DeliveredRows> rows_;
};

std::string keyOf(const Row& r, const std::vector<std::string>& columns) {
  std::string k;
  for (const auto& c : columns) k += (r.has(c) ? r.get(c).toString() : "null") + '\x1f';
  return k;
}

// Rows per grouping key, in first-seen order: {key columns..., `column`: n}.
std::vector<Row> countPerKey(const ReferenceInput& in, const std::vector<std::string>& keys,
                             const std::function<Row(const Row& first, int64_t n)>& make) {
  std::map<std::string, std::pair<Row, int64_t>> counts;
  std::vector<std::string> order;
  for (const Row& r : in.rows) {
    auto [it, fresh] = counts.try_emplace(keyOf(r, keys), r, 0);
    if (fresh) order.push_back(it->first);
    ++it->second.second;
  }
  std::vector<Row> out;
  for (const auto& k : order) out.push_back(make(counts[k].first, counts[k].second));
  return out;
}

// "count": rows per grouping key, {key columns..., count}.
std::vector<Row> countReference(const ReferenceInput& in) {
  RowShapes shapes;
  return countPerKey(in, in.groupBy, [&](const Row& first, int64_t n) {
    std::vector<std::pair<std::string, Value>> named;
    for (const auto& c : in.groupBy) named.emplace_back(c, first.has(c) ? first.get(c) : Value());
    named.emplace_back("count", Value(n));
    return shapes.fromNamed(std::move(named));
  });
}

// "simple_counter" (seed 001): rows per key, {id: the first grouping column as a string,
// countAsString}.
std::vector<Row> simpleCounterReference(const ReferenceInput& in) {
  return countPerKey(in, in.groupBy, [&](const Row& first, int64_t n) {
    Value id = in.groupBy.empty() || !first.has(in.groupBy[0]) ? Value() : first.get(in.groupBy[0]);
    return Row{{"id", id.isNull() ? Value() : Value(id.toString())}, {"countAsString", std::to_string(n)}};
  });
}

}  // namespace

ReferenceSet::ReferenceSet()
    : entries_({
          [](std::string_view name, const std::vector<std::string>& known) {
            return fmt::format("unknown reference '{}'; registered: {}", name, fmt::join(known, ", "));
          },
          [](std::string_view name, int times) {
            return fmt::format("the reference name '{}' was added {} times; names must be unique", name, times);
          },
      }) {
  add("count", countReference);
  add("simple_counter", simpleCounterReference, {"id"});
}

void ReferenceSet::add(std::string_view name, ReferenceFunction function, std::vector<std::string> keyColumns) {
  entries_.add(name, Entry{std::move(function), std::move(keyColumns)});
}

Result<ReferenceFunction> ReferenceSet::function(std::string_view name) const {
  STREAMSIM_ASSIGN_OR_RETURN(const Entry* e, entries_.find(name));
  return e->function;
}

std::vector<std::string> ReferenceSet::keyColumns(std::string_view name) const {
  auto e = entries_.find(name);
  return e.ok() ? (*e)->keyColumns : std::vector<std::string>{};
}

std::vector<std::string> ReferenceSet::names() const { return entries_.names(); }

std::optional<std::pair<std::string, std::string>> splitPythonReference(std::string_view name) {
  const size_t at = name.rfind(".py:");
  if (at == std::string_view::npos || at + 4 >= name.size()) return std::nullopt;
  return std::make_pair(std::string(name.substr(0, at + 3)), std::string(name.substr(at + 4)));
}

void DeliveredRows::record(int64_t batch, int source, std::vector<Row> rows) {
  batches_[batch][source] = std::move(rows);
}

ReferenceInput DeliveredRows::input(size_t sources, std::vector<std::string> groupBy) const {
  ReferenceInput in;
  in.sources.resize(sources);
  for (const auto& [batch, bySource] : batches_)
    for (const auto& [source, rows] : bySource) {
      if (source >= 0 && static_cast<size_t>(source) < sources)
        in.sources[static_cast<size_t>(source)].insert(in.sources[static_cast<size_t>(source)].end(),
                                                       rows.begin(), rows.end());
      in.rows.insert(in.rows.end(), rows.begin(), rows.end());
    }
  in.groupBy = std::move(groupBy);
  return in;
}

SourceFactory recordingSource(SourceFactory inner, int index, std::shared_ptr<DeliveredRows> rows) {
  return [inner = std::move(inner), index, rows = std::move(rows)]() -> std::unique_ptr<Source> {
    return std::make_unique<RecordingSource>(inner(), index, rows);
  };
}

std::vector<Row> latestPerKey(const std::vector<Row>& rows, const std::vector<std::string>& keys) {
  if (keys.empty()) return rows;
  std::vector<Row> out;
  std::map<std::string, size_t> index;
  for (const Row& r : rows) {
    std::string k;
    bool all = true;
    for (const auto& c : keys) {
      int i = r.schema()->indexOf(c);
      if (i < 0) {
        all = false;
        break;
      }
      k += r[static_cast<size_t>(i)].toString() + '\x1f';
    }
    if (!all) {
      out.push_back(r);
      continue;
    }
    auto [it, fresh] = index.emplace(k, out.size());
    if (fresh) out.push_back(r);
    else out[it->second] = r;
  }
  return out;
}

std::vector<Row> lastOutputPerGroupingKey(const std::vector<std::string>& trace) {
  std::map<std::pair<int64_t, std::string>, std::string> last;
  for (const std::string& line : trace) {
    if (traceEventName(line) != events::kTwsOutput) continue;  // cheap filter first
    nlohmann::json e = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!e.is_object() || e.value("event", std::string()) != events::kTwsOutput) continue;
    auto rows = e.find("rows");
    if (rows == e.end() || !rows->is_array() || rows->empty()) continue;
    last[{eventInt(e, "operator"), eventKey(e)}] = rows->back().dump();
  }
  const SchemaPtr schema = *parseSchema("operator long, key string, output string");
  std::vector<Row> out;
  for (const auto& [where, row] : last)
    out.emplace_back(schema, std::vector<Value>{Value(where.first), Value(where.second), Value(row)});
  return out;
}

std::optional<Violation> checkReference(const ReferenceViews& views) {
  RowDiff d = diffRows(views.expected, views.actual);
  if (d.equal) return std::nullopt;
  Violation v;
  v.oracle = "reference";
  const Row* first = !d.missing.empty() ? &d.missing.front() : !d.unexpected.empty() ? &d.unexpected.front() : nullptr;
  if (first != nullptr) v.key = formatRow(*first);
  v.message = fmt::format(
      "the final view ({} rows) is not what the reference '{}' computes from the rows the sources "
      "delivered ({} rows): {} missing, {} unexpected\n{}",
      views.actual.size(), views.name, views.expected.size(), d.missing.size(), d.unexpected.size(), d.report);
  return v;
}

}  // namespace streamsim::harness
