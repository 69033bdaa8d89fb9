// dropDuplicates and dropDuplicatesWithinWatermark (ops/dedup.h; SEMANTICS.md §4).
// Follows Spark's StreamingDeduplicateExec / StreamingDeduplicateWithinWatermarkExec: late rows
// are filtered with the late watermark, the first row of an unseen key is stored and emitted,
// then state is evicted with the eviction watermark, then the store commits.
#include "streamsim/ops/dedup.h"

#include <algorithm>
#include <optional>

#include "streamsim/ops/partitioning.h"
#include "streamsim/ops/stateful_support.h"
#include "streamsim/state/row_encoding.h"

namespace streamsim {

namespace {

// The dedup state value format: an int64 as 8 bytes big-endian (two's complement).
std::string encodeTime(TimeMs t) {
  std::string out(8, '\0');
  auto u = static_cast<uint64_t>(t);
  for (int i = 7; i >= 0; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(u & 0xff);
    u >>= 8;
  }
  return out;
}

std::optional<TimeMs> decodeTime(std::string_view v) {
  if (v.size() != 8) return std::nullopt;
  uint64_t u = 0;
  for (unsigned char c : v) u = (u << 8) | c;
  return static_cast<TimeMs>(u);
}

class DedupOperator final : public Operator {
 public:
  DedupOperator(std::vector<std::string> cols, bool withinWatermark)
      : cols_(std::move(cols)), within_(withinWatermark) {}

  std::string name() const override {
    return within_ ? "dropDuplicatesWithinWatermark" + ops::formatColumnList(cols_)
                   : "dropDuplicates" + ops::formatColumnList(cols_);
  }
  bool isStateful() const override { return true; }
  // dropDuplicatesWithinWatermark is not in real-time mode's allowlist (Spark 4.3's docs).
  std::string realTimeUnsupported() const override {
    return within_ ? "STREAMING_REAL_TIME_MODE.OPERATOR_OR_SINK_NOT_IN_ALLOWLIST" : "";
  }

  Status start(const OperatorStartContext& ctx) override {
    operator_id_ = ctx.operatorId;
    event_time_column_ = ctx.eventTimeColumn;
    delay_ = ctx.watermarkDelayMs;
    last_eviction_watermark_.reset();
    const char* what = within_ ? "dropDuplicatesWithinWatermark" : "dropDuplicates";
    if (within_ && event_time_column_.empty()) {
      return Status::FailedPrecondition(fmt::format(
          "dropDuplicatesWithinWatermark{} is not supported without a watermark: add "
          "withWatermark(eventTimeColumn, delay) before it",
          ops::formatColumnList(cols_)));
    }
    key_has_event_time_ =
        !event_time_column_.empty() &&
        (cols_.empty() || std::find(cols_.begin(), cols_.end(), event_time_column_) != cols_.end());
    ops::StateLayout layout;
    layout.operatorName = within_ ? "dedupeWithinWatermark" : "dedupe";
    layout.keyColumns = cols_.empty() ? std::vector<std::string>{"*"} : cols_;
    // Spark's dedup store keeps the key columns and an empty value (within watermark: the
    // expiry). The key's types come with the first rows (StateSchemaRecord); Spark does not
    // check dedupe's value schema, and dedupeWithinWatermark's (the expiry) never changes.
    layout.variables.push_back(StateVariableSchema{"default", "", within_ ? "expiresAtMs long" : "", false, ""});
    auto keyTypes = [cols = cols_](const std::vector<Row>& rows) -> std::optional<ops::StateRowTypes> {
      std::vector<std::string> keyColumns = cols;
      if (keyColumns.empty() && !rows.empty())  // dropDuplicates(): every column is the key
        for (const Field& f : rows.front().schema()->fields()) keyColumns.push_back(f.name);
      std::optional<Schema> key = ops::keyTypesOf(rows, keyColumns);
      if (!key) return std::nullopt;
      return ops::StateRowTypes{std::move(*key), std::nullopt};
    };
    return schema_record_.start(ctx, std::move(layout), keyTypes, what);
  }

  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext& ctx) override {
    const bool watermarkOn = !event_time_column_.empty();
    const bool evict = within_ || key_has_event_time_;
    STREAMSIM_RETURN_IF_ERROR(schema_record_.beforeBatch(ctx, input));
    std::vector<std::pair<std::string, Row>> keyed;
    keyed.reserve(input.size());
    for (auto& row : input) {
      std::string key;
      if (cols_.empty()) {
        for (const Value& v : row.values()) encodeOrderedValue(v, key);
      } else {
        key = ops::encodeKey(row, cols_);
      }
      keyed.emplace_back(std::move(key), std::move(row));
    }
    ops::PartitionedGroups parts =
        ops::groupByPartitionAndKey(std::move(keyed), ctx.shufflePartitions);

    auto task = [&](int p, StateStore& store, ops::TaskOutput& out,
                    const ops::MidwayFn& midway) -> Status {
      auto& groups = parts[static_cast<size_t>(p)];
      if (!ctx.runsPartition(!groups.empty())) return Status::OK();
      for (size_t i = 0; i < groups.size(); ++i) {
        if (i == groups.size() / 2) STREAMSIM_RETURN_IF_ERROR(midway());
        const ops::KeyGroup& g = groups[i];
        bool seen = store.get("default", g.key).has_value();
        for (const Row& row : g.rows) {  // copied, never moved: a retried task reads them again
          std::optional<TimeMs> t;
          if (watermarkOn) t = eventTimeOf(row, event_time_column_);
          if (watermarkOn && t && *t <= ctx.lateWatermarkMs) {
            ++out.droppedByWatermark;
            continue;
          }
          if (seen) continue;  // a duplicate
          seen = true;
          std::string value;
          if (within_) {
            value = encodeTime(t.value_or(0) + delay_);
          } else if (key_has_event_time_ && t) {
            value = encodeTime(*t);
          }
          store.put("default", g.key, value);
          out.rows.push_back(row);
        }
      }
      if (watermarkOn && evict && (!ctx.realTime() || ctx.realTimeFinal)) {
        std::vector<std::string> expired;
        store.scan("default", "", "", [&](std::string_view key, std::string_view value) {
          std::optional<TimeMs> t = decodeTime(value);
          // dropDuplicates: eventTime <= watermark; within watermark: watermark >= expiresAt.
          if (t && *t <= ctx.evictionWatermarkMs) expired.emplace_back(key);
          return true;
        });
        for (const auto& k : expired) store.remove("default", k);
      }
      return Status::OK();
    };
    STREAMSIM_ASSIGN_OR_RETURN(
        std::vector<Row> out,
        ops::runPartitionTasks(ctx, operator_id_, within_ ? "dedupeWithinWatermark" : "dedupe",
                               task));
    if (watermarkOn) last_eviction_watermark_ = ctx.evictionWatermarkMs;
    return out;
  }

  // Spark's shouldRunAnotherBatch: a watermark is set and it moved past the one this operator
  // last evicted with.
  bool needsNoDataBatch(TimeMs nextEvictionWatermark, bool watermarkMoved) const override {
    if (event_time_column_.empty()) return false;
    if (last_eviction_watermark_) return nextEvictionWatermark > *last_eviction_watermark_;
    return watermarkMoved;
  }

 private:
  std::vector<std::string> cols_;
  bool within_;
  int operator_id_ = 0;
  std::string event_time_column_;
  DurationMs delay_ = 0;
  bool key_has_event_time_ = false;
  std::optional<TimeMs> last_eviction_watermark_;
  ops::StateSchemaRecord schema_record_;  // the state schema record and its restart check
};

}  // namespace

std::unique_ptr<Operator> makeDropDuplicates(std::vector<std::string> cols) {
  return std::make_unique<DedupOperator>(std::move(cols), /*withinWatermark=*/false);
}

std::unique_ptr<Operator> makeDropDuplicatesWithinWatermark(std::vector<std::string> cols) {
  return std::make_unique<DedupOperator>(std::move(cols), /*withinWatermark=*/true);
}

}  // namespace streamsim
