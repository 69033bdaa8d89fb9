// The sink views of a scenario run (sink_views.h).
#include "scenario/sink_views.h"

#include <cstdlib>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/file_sink_log.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/io/file_source.h"
#include "streamsim/io/file_sink.h"
#include "streamsim/io/kafka_source.h"
#include "streamsim/json_nesting.h"

namespace streamsim::harness::detail {
namespace {

Value jsonValue(const nlohmann::json& j) {
  if (j.is_null()) return Value();
  if (j.is_boolean()) return Value(j.get<bool>());
  if (j.is_number_integer()) return Value(j.get<int64_t>());
  if (j.is_number()) return Value(j.get<double>());
  if (j.is_string()) return Value(j.get<std::string>());
  // A struct or map column written as an object, an array as an array (Spark's JSON layout):
  // read back as a map and an array, typed like the expected rows by typedLike.
  if (j.is_array()) {
    std::vector<Value> elements;
    for (const auto& e : j) elements.push_back(jsonValue(e));
    return Value::arrayOf(std::move(elements));
  }
  if (j.is_object()) {
    std::vector<std::pair<Value, Value>> entries;
    for (auto it = j.begin(); it != j.end(); ++it) entries.emplace_back(Value(it.key()), jsonValue(*it));
    auto m = Value::mapOf(std::move(entries));
    if (m.ok()) return std::move(m).value();
  }
  return Value(j.dump());
}

Result<std::vector<Row>> parseJsonLines(const std::string& path, const std::string& text) {
  std::vector<Row> out;
  RowShapes shapes;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    auto j = parseJsonBounded<nlohmann::json>(line);
    if (j.is_discarded() || !j.is_object())
      return Status::Corruption(fmt::format("{}: not a JSON object: {}", path, line));
    std::vector<std::pair<std::string, Value>> named;
    for (auto it = j.begin(); it != j.end(); ++it) named.emplace_back(it.key(), jsonValue(*it));
    out.push_back(shapes.fromNamed(std::move(named)));
  }
  return out;
}

}  // namespace

std::vector<std::string> outputKeys(const Scenario& sc) {
  std::vector<std::string> keys;
  for (const auto& op : sc.query.operators) {
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op)) keys = t->groupBy;
    if (auto* f = std::get_if<FlatMapGroupsWithStateOp>(&op.op)) keys = f->groupBy;
    if (auto* w = std::get_if<WindowAggregationOp>(&op.op)) {
      keys = w->groupBy;  // the expression form's include its window column
      if (!w->windowless && w->aggExprs.empty()) {
        keys.push_back("window_start");
        keys.push_back("window_end");
      }
    }
  }
  return keys;
}

Result<std::vector<Row>> FileSinkView::rows() {
  STREAMSIM_ASSIGN_OR_RETURN(auto perBatch, batches());
  std::vector<Row> all;
  for (auto& [id, rows] : perBatch) all.insert(all.end(), rows.begin(), rows.end());
  return update_ ? latestPerKey(all, keys_) : all;
}

Result<std::map<int64_t, std::vector<Row>>> FileSinkView::batches() {
  std::map<int64_t, std::vector<Row>> out;
  if (!sim_.fs().exists(path_)) return out;
  FileSinkLog log(sim_.env(), path_);
  STREAMSIM_ASSIGN_OR_RETURN(auto ids, log.listBatchIds());
  std::set<std::string> listed;
  for (int64_t id : ids) {
    STREAMSIM_ASSIGN_OR_RETURN(auto entries, log.get(id));
    auto& rows = out[id];
    if (!entries) continue;
    for (const auto& e : *entries) {
      if (e.isDir || e.action != kSinkAddAction) continue;
      std::string file = stripFileUri(e.path);
      if (!listed.insert(file).second) continue;
      auto text = sim_.fs().read(file);
      if (!text.ok())
        return Status::NotFound(fmt::format("{} is listed in {}/{} but cannot be read: {}", file,
                                            log.dir(), id, text.status().message()));
      STREAMSIM_ASSIGN_OR_RETURN(auto parsed, parseJsonLines(file, *text));
      rows.insert(rows.end(), parsed.begin(), parsed.end());
    }
  }
  return out;
}

Result<std::vector<Row>> KafkaTopicView::rows() {
  std::vector<Row> out;
  RowShapes shapes;
  batch_of_.clear();
  for (const LogRecord& r : log_->all(topic_)) {
    auto j = parseJsonBounded<nlohmann::json>(r.value);
    if (!j.is_discarded() && j.is_object()) {
      std::vector<std::pair<std::string, Value>> named;
      for (auto it = j.begin(); it != j.end(); ++it) named.emplace_back(it.key(), jsonValue(*it));
      out.push_back(shapes.fromNamed(std::move(named)));
    } else {
      out.push_back(shapes.fromNamed({{"key", r.key ? Value(*r.key) : Value()}, {"value", Value(r.value)}}));
    }
    int64_t batch = -1;
    for (const auto& [k, v] : r.headers)
      if (k == kKafkaBatchHeader) batch = std::atoll(v.c_str());
    batch_of_.push_back(batch);
  }
  return out;
}

Result<std::map<int64_t, std::vector<Row>>> KafkaTopicView::batches() {
  STREAMSIM_ASSIGN_OR_RETURN(auto all, rows());
  std::map<int64_t, std::vector<Row>> out;
  for (size_t i = 0; i < all.size(); ++i) out[batch_of_[i]].push_back(all[i]);
  return out;
}

}  // namespace streamsim::harness::detail
