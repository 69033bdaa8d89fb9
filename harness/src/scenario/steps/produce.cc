// The produce step (docs/scenarios.md "Kafka-like sources"): records appended to a topic at
// virtual times, as a producer sends them (duplicates of a retrying one included). Its row is in
// step_table.cc.
#include <fmt/format.h>

#include "scenario/parse_context.h"
#include "scenario/step_actions.h"

namespace streamsim::harness::detail {

// produce: {topic?, at?, records: [{key, value, at?, partition?, duplicates?}]}, or the
// records list alone.
ProduceStep parseProduce(ParseContext& pc, const YAML::Node&, const YAML::Node& v) {
  ProduceStep s;
  for (const auto& src : pc.sources())
    if (src.kind == SourceSpec::Kind::kKafka) {
      s.topic = src.topic;
      break;
    }
  // Bound once, never assigned: assigning a YAML::Node rebinds the node it shares (here the
  // scenario's own `produce:`), and assigning a missing key's node throws.
  const YAML::Node recs = v.IsMap() ? v["records"] : v;
  if (v.IsMap()) {
    pc.checkKeys(v, "produce", {"topic", "at", "records"});
    if (auto t = v["topic"]; t) s.topic = pc.str(t, "produce topic");
    if (auto a = v["at"]; a) s.at = pc.timestamp(a, "produce at");
    if (!recs) {
      pc.error(v, "missing key 'records' in produce");
      return s;
    }
  }
  if (s.topic.empty()) pc.error(v, "produce needs 'topic' (there is no kafka source to default to)");
  if (!pc.expectList(recs, "produce records")) return s;
  for (const auto& r : recs) {
    ProduceRecord rec;
    rec.where = pc.loc(r);
    if (!pc.expectMap(r, "a produced record")) continue;
    pc.checkKeys(r, "a produced record", {"key", "value", "at", "partition", "duplicates"});
    if (auto k = r["key"]; k && !k.IsNull()) rec.key = pc.str(k, "record key");
    if (auto val = r["value"]; val) {
      if (val.IsMap()) rec.value = pc.row(val, "a record value").toRow().toJson();
      else rec.value = pc.str(val, "record value");
    } else {
      pc.error(r, "missing key 'value' in a produced record");
    }
    if (auto a = r["at"]; a) rec.at = pc.timestamp(a, "record at");
    if (auto p = r["partition"]; p) rec.partition = pc.int32(p, "partition", 0, kMaxTopicPartitions - 1);
    if (auto d = r["duplicates"]; d) rec.duplicates = pc.int32(d, "duplicates", 0, kMaxRecordDuplicates);
    s.records.push_back(std::move(rec));
  }
  return s;
}

// The records are appended to the topic at their times (default: the clock's now).
void produceActions(StepActions& a, const ProduceStep& p, const SourceLocation& at) {
  auto log = a.state().log;
  a.push(AssertOnQuery{[log, p](StreamTestContext& ctx) -> Status {
                         for (const ProduceRecord& r : p.records) {
                           TimeMs t = r.at.value_or(p.at.value_or(ctx.sim.clock().nowMs()));
                           STREAMSIM_RETURN_IF_ERROR(
                               log->produce(p.topic, r.key, r.value, t, r.partition, r.duplicates)
                                   .status()
                                   .withContext(r.where.toString()));
                         }
                         return Status::OK();
                       },
                       fmt::format("produce {} record(s) to {}", p.records.size(), p.topic)},
         at);
}

}  // namespace streamsim::harness::detail
