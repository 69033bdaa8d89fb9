// Sinks (SEMANTICS.md §1). addBatch is called after the batch's operators ran, with the batch
// id; an exactly-once sink ignores a batch id it already has (re-run after a crash).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/operator.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim {

struct SinkContext {
  const Env* env = nullptr;
  int64_t batchId = 0;
  OutputMode outputMode = OutputMode::kAppend;
  std::string checkpointRoot;
};

class Sink {
 public:
  virtual ~Sink() = default;
  virtual std::string description() const = 0;
  // The class Spark names for this sink: what MicroBatchExecution records in commit log v3
  // (sink.getClass.getName) and what real-time mode's SINK_NOT_SUPPORTED names (className); the
  // description when there is none. sparkApiVersion: a DSv1 Sink ("v1") or a DSv2 table ("v2").
  virtual std::string sparkClassName() const { return description(); }
  virtual std::string sparkApiVersion() const { return "v2"; }
  // Called once per run; the file sink records its path in the checkpoint and fails with
  // FailedPrecondition if a restart points it elsewhere.
  virtual Status start(const SinkContext& ctx) {
    (void)ctx;
    return Status::OK();
  }
  virtual Status addBatch(const SinkContext& ctx, const std::vector<Row>& rows) = 0;
};

}  // namespace streamsim
