// Sources (SEMANTICS.md §1, §3). An offset is the JSON string Spark writes into offsets/N for
// that source ({"logOffset":K} for files). The batch loop asks for the latest offset when
// planning, gets the rows between two offsets when running (also for a re-run after a crash),
// and tells the source when a batch is committed.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim {

struct SourceContext {
  const Env* env = nullptr;
  std::string checkpointRoot;
  int sourceIndex = 0;  // sources/<sourceIndex>/
  int64_t batchId = 0;
  bool firstBatchOfRun = false;
  // AvailableNow: the source should only take what existed when the query started.
  bool availableNow = false;
  // Spark 4.2: a source named under source evolution keeps its log in sources/<name>/ instead of
  // sources/<sourceIndex>/ (StreamingSourceEvolutionSuite "named sources - metadata path uses
  // source name"); "" for an unnamed one.
  std::string sourceName;
};

class Source {
 public:
  virtual ~Source() = default;
  virtual std::string description() const = 0;
  // The Spark class this source stands for, as Spark's errors name it (e.g. real-time mode's
  // INPUT_STREAM_NOT_SUPPORTED className); the description when there is none.
  virtual std::string sparkClassName() const { return description(); }
  // Whether every trigger finds new rows, whatever the clock or the input (Spark's
  // rate-micro-batch): "all available" then means the batches of the triggers that fell due
  // (StreamingQuery::processAllAvailable), not until the source runs dry.
  virtual bool newRowsEveryTrigger() const { return false; }
  // Called once per query run with the last committed end offset (nullopt on a new checkpoint);
  // the file source rebuilds its seen files from sources/<i>/ here.
  virtual Status restore(const SourceContext& ctx, const std::optional<std::string>& committed) = 0;
  // Plans the next batch: the end offset it would read up to, or the current end when there is
  // nothing new (equal to `start`). The file source writes sources/<i>/K for the files it picks.
  virtual Result<std::optional<std::string>> latestOffset(const SourceContext& ctx,
                                                          const std::optional<std::string>& start) = 0;
  // Rows in (start, end]. Deterministic: the same offsets give the same rows.
  virtual Result<std::vector<Row>> getBatch(const SourceContext& ctx,
                                            const std::optional<std::string>& start,
                                            const std::string& end) = 0;
  // The batch ending at `end` is committed (cleanSource acts on files before it).
  virtual Status commit(const SourceContext& ctx, const std::string& end) {
    (void)ctx;
    (void)end;
    return Status::OK();
  }
};

}  // namespace streamsim
