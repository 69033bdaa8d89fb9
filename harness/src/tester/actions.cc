#include "streamsim/harness/actions.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "streamsim/fault_points.h"
#include "streamsim/io/memory_sink.h"

namespace streamsim::harness {
namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

class MemorySinkView final : public SinkView {
 public:
  explicit MemorySinkView(std::shared_ptr<MemorySinkData> data) : data_(std::move(data)) {}
  Result<std::vector<Row>> rows() override { return data_->currentView(); }
  Result<std::map<int64_t, std::vector<Row>>> batches() override { return data_->batches(); }
  std::string description() const override { return "memory sink"; }

 private:
  std::shared_ptr<MemorySinkData> data_;
};

class FileSinkView final : public SinkView {
 public:
  FileSinkView(SimEnv& sim, std::string path, SchemaPtr schema)
      : sim_(sim), path_(std::move(path)), schema_(std::move(schema)) {}
  Result<std::vector<Row>> rows() override {
    return readFileSinkOutput(sim_.env(), path_, schema_);
  }
  Result<std::map<int64_t, std::vector<Row>>> batches() override {
    return Status::FailedPrecondition("the file sink at " + path_ +
                                      " has no per-batch view; use CheckAnswer");
  }
  std::string description() const override { return "file sink " + path_; }

 private:
  SimEnv& sim_;
  std::string path_;
  SchemaPtr schema_;
};

std::string rowsBrief(const std::vector<Row>& rows, size_t max = 3) {
  std::string out = fmt::format("{} row{}", rows.size(), rows.size() == 1 ? "" : "s");
  if (rows.empty()) return out;
  out += ": ";
  for (size_t i = 0; i < rows.size() && i < max; ++i) out += (i ? ", " : "") + formatRow(rows[i]);
  if (rows.size() > max) out += ", ...";
  return out;
}

template <class Check>
std::string checkName(const Check& a) {
  std::vector<std::string> parts;
  if (a.order == RowOrder::kInOrder) parts.emplace_back("in order");
  if (!a.process) parts.emplace_back("without processing");
  if (a.match.strictTypes) parts.emplace_back("strict types");
  if (a.match.partial) parts.emplace_back("named columns only");
  return parts.empty() ? "" : fmt::format(" [{}]", fmt::join(parts, ", "));
}

// Batch ids named by the files of a checkpoint log folder (offsets/, commits/).
std::vector<int64_t> logBatchIds(FileSystem& fs, const std::string& dir) {
  std::vector<int64_t> ids;
  auto list = fs.list(dir);
  if (!list.ok()) return ids;
  for (const FileInfo& f : list.value()) {
    std::string name = baseName(f.path);
    int64_t id = 0;
    auto [p, ec] = std::from_chars(name.data(), name.data() + name.size(), id);
    if (ec == std::errc() && p == name.data() + name.size()) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::string idList(const std::vector<int64_t>& ids) { return fmt::format("[{}]", fmt::join(ids, ", ")); }

// Spark's StreamMustBeRunning (StreamTest.scala: the checks and StopStream), and the actions
// that run the query (a trigger or all available data).
bool needsRunningQuery(const Action& a) {
  return std::holds_alternative<CheckAnswer>(a) || std::holds_alternative<CheckNewAnswer>(a) ||
         std::holds_alternative<CheckLastBatch>(a) || std::holds_alternative<StopStream>(a) ||
         std::holds_alternative<RunBatches>(a) || std::holds_alternative<ProcessAllAvailable>(a) ||
         std::holds_alternative<AdvanceManualClock>(a);
}

class Runner {
 public:
  Runner(SimEnv& sim, const TestQuery& query, std::vector<Action> actions,
         const StreamTestOptions& options)
      : sim_(sim), query_(query), actions_(std::move(actions)), options_(options),
        driver_(sim, options.supervisor) {}

  StreamTestResult run() {
    StreamTestResult result = runActions();
    result.restarts = driver_.restarts();
    return result;
  }

 private:
  StreamTestResult runActions() {
    StreamTestResult result;
    if (query_.sink == nullptr) {
      result.status = Status::InvalidArgument("testStream: the TestQuery has no sink view");
      return result;
    }
    // Spark's testStream: the query starts before the first action unless a StartStream comes
    // before the first action that needs it running (StreamMustBeRunning).
    auto firstNeeding = std::find_if(actions_.begin(), actions_.end(), needsRunningQuery);
    bool startedManually = std::any_of(actions_.begin(), firstNeeding, [](const Action& a) {
      return std::holds_alternative<StartStream>(a);
    });
    if (!startedManually && !sim_.running()) {
      current_ = kImplicitStart;
      const int64_t crashes = sim_.crashCount();
      Status st = driver_.start(query_.writer);
      if (st.code() == Status::Code::kAborted && sim_.crashCount() > crashes && !sim_.running()) {
        // A simulated crash while the query started that the driver did not recover (a plain
        // StreamTest restarts nothing): the driver is down, as after a crash during an action;
        // the actions decide what follows. Bug: a plan crash at log.mid_write while the first
        // start wrote sink_path failed correct scenarios. Only the crash itself (Aborted): when
        // the driver restarted after it and that start failed, the failure is the query's and is
        // held for an ExpectFailure (bug: a crash while the metadata file was written swallowed
        // the TTL error the restarted start raised).
        crash_seen_ = sim_.crashCount();
      } else if (Status held = startFailed(st, "the query's start (before the first action)"); !held.ok()) {
        return fail(result, -1, held.toString());
      }
    }
    for (size_t i = 0; i < actions_.size(); ++i) {
      current_ = i;
      Status st = pendingFailure(actions_[i]);
      if (st.ok()) st = std::visit([this](auto& a) { return apply(a); }, actions_[i]);
      if (!st.ok()) return fail(result, static_cast<int>(i), st.toString());
    }
    if (!pending_error_.ok())
      return fail(result, pending_from_ < 0 ? -1 : pending_from_,
                  pendingText() + "\nand no ExpectFailure after it took the failure");
    for (const auto& [index, handle] : armed_) {
      if (sim_.injector().armedFired(handle)) continue;
      const auto& c = std::get<Crash>(actions_[index]);
      result.unfiredCrashes.emplace_back(
          static_cast<int>(index),
          fmt::format("the crash armed at {} never fired: the query did not pass the point{} after this step",
                      c.point, c.batch >= 0 ? fmt::format(" in batch {}", c.batch) : ""));
    }
    if (options_.unfiredCrashFails && !result.unfiredCrashes.empty())
      return fail(result, result.unfiredCrashes.front().first, result.unfiredCrashes.front().second);
    if (options_.reportOnPass) result.report = report(-1);
    return result;
  }

  static constexpr size_t kImplicitStart = static_cast<size_t>(-1);
  bool expectFailureFollows() const {
    const size_t from = current_ == kImplicitStart ? 0 : current_ + 1;
    return std::any_of(actions_.begin() + static_cast<std::ptrdiff_t>(std::min(from, actions_.size())),
                       actions_.end(),
                       [](const Action& a) { return std::holds_alternative<ExpectFailure>(a); });
  }
  // A query error from running or starting. As in Spark, where a failed query is down until an
  // ExpectFailure takes its error: kept while an ExpectFailure comes later in the list (actions
  // that need the running query fail with it meanwhile, pendingFailure), else a failure now.
  Status queryError(const Status& st, std::string_view what) {
    if (st.ok()) return st;
    if (st.code() == Status::Code::kAborted && sim_.lastCrash() && crash_seen_ < sim_.crashCount()) {
      // A simulated crash (armed or planned): the driver is down; not an error of the action.
      crash_seen_ = sim_.crashCount();
      return Status::OK();
    }
    if (expectFailureFollows()) {
      pending_error_ = st;
      pending_from_ = current_ == kImplicitStart ? -1 : static_cast<int>(current_);
      return Status::OK();
    }
    return Status(st).withContext(fmt::format("{} failed", what));
  }
  // A failed start (not a simulated crash): its error is also the run's startError.
  Status startFailed(const Status& st, std::string_view what) {
    if (!st.ok() && st.code() != Status::Code::kAborted) start_error_ = st;
    return queryError(st, what);
  }
  std::string pendingText() const {
    return fmt::format("the query failed at {}: {}",
                       pending_from_ < 0 ? std::string("its start before the first action")
                                         : fmt::format("action {} ({})", pending_from_ + 1,
                                                       describe(actions_[static_cast<size_t>(pending_from_)])),
                       pending_error_.toString());
  }
  // An action that needs the running query (or starts another) while a failure waits for its
  // ExpectFailure fails with that failure (Spark: the query is down, "stream not running").
  Status pendingFailure(const Action& a) const {
    if (pending_error_.ok()) return Status::OK();
    const bool starts = std::holds_alternative<StartStream>(a) || std::holds_alternative<Restart>(a);
    if (!needsRunningQuery(a) && !starts) return Status::OK();
    return Status::FailedPrecondition(pendingText() + (starts ? "\nand a new start would hide it"
                                                              : "\nand this action needs the running query"));
  }
  Status processAll(std::string_view what) {
    STREAMSIM_RETURN_IF_ERROR(comeBack());
    if (!sim_.running()) return Status::OK();
    Status st = driver_.supervise([](StreamingQuery& q) { return q.processAllAvailable(); });
    return queryError(st, what);
  }
  // The last committed batch id in the checkpoint (-1: none).
  int64_t committedBatch() {
    auto ids = logBatchIds(sim_.fs(), joinPath(query_.writer.queryOptions().checkpointLocation, "commits"));
    return ids.empty() ? -1 : ids.back();
  }

  Status apply(AddData& a) {
    if (a.source == nullptr) return Status::InvalidArgument("AddData without a source");
    return a.source->addData(a.rows);
  }
  Status apply(AddFile& a) {
    if (a.visibleBytes) return sim_.fs().putPartial(a.path, a.content, *a.visibleBytes);
    return sim_.fs().putDurable(a.path, a.content);
  }
  Status apply(CompleteFile& a) { return sim_.fs().completePartial(a.path); }
  Status apply(ResendFile& a) {
    STREAMSIM_ASSIGN_OR_RETURN(std::string content, sim_.fs().read(a.from));
    return sim_.fs().putDurable(a.to, content);
  }
  Status apply(TouchFile& a) {
    return sim_.fs().setModificationTime(a.path, a.mtime.value_or(sim_.clock().nowMs()));
  }
  Status apply(DeleteFile& a) { return sim_.fs().remove(a.path); }
  Status apply(AdvanceClock& a) {
    if (a.by < 0) return Status::InvalidArgument("AdvanceClock: time moves forward only");
    sim_.clock().advance(a.by);
    return Status::OK();
  }
  Status apply(AdvanceManualClock& a) {
    if (a.to) {  // a trigger time the driver was down at, or took after its downtime, is not taken
      if (sim_.clock().nowMs() > *a.to || (last_trigger_ && *last_trigger_ >= *a.to)) return Status::OK();
      if (a.wanted && !a.wanted()) return Status::OK();
      a.by = *a.to - sim_.clock().nowMs();
    }
    if (a.by < 0) return Status::InvalidArgument("AdvanceManualClock: time moves forward only");
    sim_.clock().advance(a.by);
    STREAMSIM_RETURN_IF_ERROR(comeBack());
    if (!sim_.running()) return Status::OK();
    if (!driver_.options().restartPlannedCrashes) {
      auto r = sim_.guarded([](StreamingQuery& q) { return q.triggerOnce(); });
      last_trigger_ = sim_.clock().nowMs();
      return queryError(r.status(), "AdvanceManualClock");
    }
    // Supervised: a planned crash in the trigger's batch is recovered by a restart and one more
    // trigger at the same time (it re-runs the batch when its offsets were logged), unless the
    // batch committed before the crash.
    const int64_t before = committedBatch();
    bool first = true;
    Status st = driver_.supervise(
        [&](StreamingQuery& q) {
          first = false;
          return q.triggerOnce().status();
        },
        [&] { return !first && committedBatch() > before; });
    last_trigger_ = sim_.clock().nowMs();
    return queryError(st, "AdvanceManualClock");
  }
  Status apply(RunBatches& a) {
    STREAMSIM_RETURN_IF_ERROR(comeBack());
    if (!sim_.running()) return Status::FailedPrecondition("RunBatches: the query is not running");
    if (!driver_.options().restartPlannedCrashes) {
      auto r = sim_.guarded([&](StreamingQuery& q) { return q.runBatches(a.n); });
      return queryError(r.status(), "RunBatches");
    }
    // Supervised: batches count by commits, so that a batch that committed before a crash is
    // not run a second time by this action.
    const int64_t target = committedBatch() + a.n;
    bool first = true;
    Status st = driver_.supervise(
        [&](StreamingQuery& q) {
          int n = first ? a.n : static_cast<int>(target - committedBatch());
          first = false;
          return q.runBatches(n).status();
        },
        [&] { return !first && committedBatch() >= target; });
    return queryError(st, "RunBatches");
  }
  Status apply(ProcessAllAvailable&) {
    STREAMSIM_RETURN_IF_ERROR(comeBack());
    if (!sim_.running())
      return Status::FailedPrecondition("ProcessAllAvailable: the query is not running");
    return processAll("ProcessAllAvailable");
  }
  Status apply(StopStream&) {
    sim_.stop();
    return Status::OK();
  }
  Status apply(StartStream& a) {
    down_until_.reset();  // an explicit start ends a restart's downtime
    if (sim_.running()) return Status::FailedPrecondition("StartStream: the query is already running");
    return startFailed(a.writer ? driver_.startWith(*a.writer) : driver_.start(query_.writer),
                       "StartStream");
  }
  Status apply(Restart& a) {
    if (sim_.running()) sim_.crash();
    if (a.after > 0) {
      down_until_ = sim_.clock().nowMs() + a.after;  // down: comeBack() starts it
      down_writer_ = a.writer;
      return Status::OK();
    }
    return startFailed(a.writer ? driver_.startWith(*a.writer) : driver_.start(query_.writer),
                       "Restart");
  }
  // After a `Restart{after}`: an action that needs the query brings the driver back, at the end
  // of the downtime at the earliest (the clock moves on to it).
  Status comeBack() {
    if (!down_until_) return Status::OK();
    const TimeMs until = *down_until_;
    down_until_.reset();
    if (sim_.running()) return Status::OK();
    sim_.downUntil(until, "restart");
    std::optional<DataStreamWriter> writer = std::move(down_writer_);
    down_writer_.reset();
    return startFailed(writer ? driver_.startWith(*writer) : driver_.start(query_.writer), "Restart");
  }
  Status apply(Crash& a) {
    if (a.point.empty()) {
      if (sim_.running()) sim_.crash();
      crash_seen_ = sim_.crashCount();
      return Status::OK();
    }
    if (!faults::isFaultPoint(a.point))
      return Status::InvalidArgument("Crash: unknown fault point '" + a.point +
                                     "' (see streamsim list-faults)");
    armed_.emplace_back(current_, sim_.injector().armCrash(a.point, a.batch, a.partition, a.nth));
    return Status::OK();
  }
  template <class Check>
  Status checkRows(const Check& a, const std::vector<Row>& actual, std::string_view what) {
    RowDiff d = diffRows(a.rows, actual, a.order, a.match);
    if (d.equal) return Status::OK();
    return Status::FailedPrecondition(fmt::format("{} does not match\n{}", what, d.report));
  }
  Status apply(CheckAnswer& a) {
    if (a.process) STREAMSIM_RETURN_IF_ERROR(processAll("CheckAnswer"));
    STREAMSIM_ASSIGN_OR_RETURN(auto rows, query_.sink->rows());
    STREAMSIM_ASSIGN_OR_RETURN(auto batches, query_.sink->batches());
    if (!batches.empty()) last_checked_batch_ = batches.rbegin()->first;
    return checkRows(a, rows, "the sink's content");
  }
  Status apply(CheckNewAnswer& a) {
    if (a.process) STREAMSIM_RETURN_IF_ERROR(processAll("CheckNewAnswer"));
    STREAMSIM_ASSIGN_OR_RETURN(auto batches, query_.sink->batches());
    std::vector<Row> rows;
    for (auto& [id, b] : batches) {
      if (id <= last_checked_batch_) continue;
      rows.insert(rows.end(), b.begin(), b.end());
    }
    if (!batches.empty()) last_checked_batch_ = batches.rbegin()->first;
    return checkRows(a, rows, "the rows new since the last check");
  }
  Status apply(CheckLastBatch& a) {
    if (a.process) STREAMSIM_RETURN_IF_ERROR(processAll("CheckLastBatch"));
    STREAMSIM_ASSIGN_OR_RETURN(auto batches, query_.sink->batches());
    std::vector<Row> rows;
    if (!batches.empty()) {
      rows = batches.rbegin()->second;
      last_checked_batch_ = batches.rbegin()->first;
    }
    return checkRows(a, rows, "the last batch");
  }
  Status apply(ExpectFailure& a) {
    Status err = pending_error_;
    if (!err.ok()) start_error_ = Status::OK();  // a failed start's error, taken here
    pending_error_ = Status::OK();
    pending_from_ = -1;
    if (err.ok()) STREAMSIM_RETURN_IF_ERROR(comeBack());
    if (err.ok() && sim_.running()) {
      err = driver_.supervise([](StreamingQuery& q) { return q.processAllAvailable(); });
      if (err.ok() && sim_.running() && !sim_.query()->exception().ok()) err = sim_.query()->exception();
    }
    if (err.ok()) return Status::FailedPrecondition("ExpectFailure: the query did not fail");
    bool match = (!a.code || err.code() == *a.code) &&
                 err.toString().find(a.messageContains) != std::string::npos &&
                 (a.condition.empty() || err.condition() == a.condition);
    for (const auto& [name, value] : a.parameters) match = match && err.parameter(name) == value;
    if (!match)
      return Status::FailedPrecondition("ExpectFailure: the query failed differently: " +
                                        err.toString());
    return Status::OK();
  }
  Status apply(CheckCheckpoint& a) {
    const std::string& chk = query_.writer.queryOptions().checkpointLocation;
    if (a.offsets) {
      auto got = logBatchIds(sim_.fs(), joinPath(chk, "offsets"));
      if (got != *a.offsets)
        return Status::FailedPrecondition(fmt::format("checkpoint offsets are {}, expected {}",
                                                      idList(got), idList(*a.offsets)));
    }
    if (a.commits) {
      auto got = logBatchIds(sim_.fs(), joinPath(chk, "commits"));
      if (got != *a.commits)
        return Status::FailedPrecondition(fmt::format("checkpoint commits are {}, expected {}",
                                                      idList(got), idList(*a.commits)));
    }
    return Status::OK();
  }
  Status apply(AssertOnQuery& a) {
    if (!a.check) return Status::InvalidArgument("AssertOnQuery without a check");
    StreamTestContext ctx{sim_, *query_.sink, query_, driver_};
    Status st = a.check(ctx);
    if (!st.ok()) return st.withContext(a.description);
    return st;
  }

  StreamTestResult& fail(StreamTestResult& result, int index, const std::string& reason) {
    result.failedAction = index;
    if (!start_error_.ok()) result.startError = start_error_;
    result.report = report(index);
    std::string head = index < 0 ? "testStream failed before the first action"
                                 : fmt::format("testStream failed at action {}: {}", index + 1,
                                               describe(actions_[static_cast<size_t>(index)]));
    result.status = Status::FailedPrecondition(head + "\n" + reason + "\n\n" + result.report);
    return result;
  }

  std::string report(int failed) {
    std::string r = "== actions ==\n";
    for (size_t i = 0; i < actions_.size(); ++i)
      r += fmt::format("{} {:>2}. {}\n", static_cast<int>(i) == failed ? "=>" : "  ", i + 1,
                       describe(actions_[i]));
    r += "== batches ==\n";
    const auto& progress = sim_.allProgress();
    if (progress.empty()) r += "  (none)\n";
    for (const QueryProgress& p : progress) {
      r += fmt::format("  batch {} at {}: {} input row(s), {} output row(s), watermark {}{}\n",
                       p.batchId, formatTimestamp(p.timestamp), p.numInputRows, p.numOutputRows,
                       p.eventTime.watermark, p.rerun ? " (re-run)" : "");
    }
    if (!sim_.injector().injected().empty()) {
      r += "== faults ==\n";
      for (const auto& f : sim_.injector().injected())
        r += fmt::format("  {} at {} (batch {}, partition {})\n", f.kind, f.point,
                         f.context.batchId, f.context.partition);
    }
    r += fmt::format("== {} ==\n", query_.sink->description());
    auto batches = query_.sink->batches();
    if (!batches.ok()) {
      auto rows = query_.sink->rows();
      if (rows.ok()) {
        r += formatRows(rows.value());
      } else {
        r += "  cannot read: " + rows.status().toString() + "\n";
      }
    } else if (batches.value().empty()) {
      r += "  (empty)\n";
    } else {
      for (const auto& [id, rows] : batches.value()) {
        r += fmt::format("  batch {}:\n", id);
        r += formatRows(rows, 4);
      }
    }
    r += fmt::format("== query: {} ==\n", sim_.running() ? "running" : "not running");
    return r;
  }

  SimEnv& sim_;
  const TestQuery& query_;
  std::vector<Action> actions_;
  size_t current_ = 0;
  Status pending_error_;  // a query failure waiting for a later ExpectFailure
  int pending_from_ = -1;  // the action that failed with it (-1: the implicit start)
  Status start_error_;     // why the last start failed (not a simulated crash), until taken
  int64_t last_checked_batch_ = -1;
  int64_t crash_seen_ = 0;
  std::optional<TimeMs> down_until_;  // a Restart{after}'s driver comes back then
  std::optional<TimeMs> last_trigger_;  // the clock after the last AdvanceManualClock's trigger
  std::optional<DataStreamWriter> down_writer_;  // ... as this query (Restart::writer)
  StreamTestOptions options_;
  Driver driver_;
  std::vector<std::pair<size_t, int>> armed_;  // (Crash action, injector handle)
};

}  // namespace

std::shared_ptr<SinkView> memorySinkView(std::shared_ptr<MemorySinkData> data) {
  return std::make_shared<MemorySinkView>(std::move(data));
}

std::shared_ptr<SinkView> fileSinkView(SimEnv& sim, std::string path, SchemaPtr schema) {
  return std::make_shared<FileSinkView>(sim, std::move(path), std::move(schema));
}

TestQuery memoryQuery(DataStreamWriter writer, std::shared_ptr<MemorySinkData> sinkData) {
  if (sinkData == nullptr) sinkData = std::make_shared<MemorySinkData>();
  writer.sink(makeMemorySink(sinkData));
  return TestQuery{std::move(writer), memorySinkView(std::move(sinkData))};
}

AddFile AddJsonFile(std::string path, const std::vector<Row>& rows) {
  std::string content;
  for (const Row& r : rows) content += r.toJson() + "\n";
  return AddFile{std::move(path), std::move(content)};
}

std::string describe(const Action& action) {
  return std::visit(
      Overloaded{
          [](const AddData& a) {
            return fmt::format("AddData({}, {})", a.source ? "memory" : "no source", rowsBrief(a.rows));
          },
          [](const AddFile& a) {
            if (a.visibleBytes)
              return fmt::format("AddFile({}, {} bytes, {} visible)", a.path, a.content.size(),
                                 *a.visibleBytes);
            return fmt::format("AddFile({}, {} bytes)", a.path, a.content.size());
          },
          [](const CompleteFile& a) { return fmt::format("CompleteFile({})", a.path); },
          [](const ResendFile& a) { return fmt::format("ResendFile({} -> {})", a.from, a.to); },
          [](const TouchFile& a) {
            return a.mtime ? fmt::format("TouchFile({}, {})", a.path, formatTimestamp(*a.mtime))
                           : fmt::format("TouchFile({})", a.path);
          },
          [](const DeleteFile& a) { return fmt::format("DeleteFile({})", a.path); },
          [](const AdvanceClock& a) { return fmt::format("AdvanceClock({})", formatDuration(a.by)); },
          [](const AdvanceManualClock& a) { return fmt::format("AdvanceManualClock({})", formatDuration(a.by)); },
          [](const RunBatches& a) { return fmt::format("RunBatches({})", a.n); },
          [](const ProcessAllAvailable&) { return std::string("ProcessAllAvailable"); },
          [](const StopStream&) { return std::string("StopStream"); },
          [](const StartStream& a) { return std::string(a.writer ? "StartStream(another query)" : "StartStream"); },
          [](const Restart& a) {
            std::string s = a.after > 0 ? fmt::format("Restart(after {}", formatDuration(a.after)) : "Restart(";
            if (a.writer) s += a.after > 0 ? ", as another query" : "as another query";
            return s == "Restart(" ? std::string("Restart") : s + ")";
          },
          [](const Crash& a) {
            if (a.point.empty()) return std::string("Crash(now)");
            std::string s = "Crash(at " + a.point;
            if (a.batch >= 0) s += fmt::format(", batch {}", a.batch);
            if (a.partition >= 0) s += fmt::format(", partition {}", a.partition);
            if (a.nth != 1) s += fmt::format(", pass {}", a.nth);
            return s + ")";
          },
          [](const CheckAnswer& a) {
            return fmt::format("CheckAnswer({}){}", rowsBrief(a.rows), checkName(a));
          },
          [](const CheckNewAnswer& a) {
            return fmt::format("CheckNewAnswer({}){}", rowsBrief(a.rows), checkName(a));
          },
          [](const CheckLastBatch& a) {
            return fmt::format("CheckLastBatch({}){}", rowsBrief(a.rows), checkName(a));
          },
          [](const ExpectFailure& a) {
            std::string cond = a.condition;
            for (const auto& [k, v] : a.parameters) cond += fmt::format(" {}={}", k, v);
            return fmt::format("ExpectFailure({}{}{})", a.code ? std::string(Status::codeName(*a.code)) + ", " : "",
                               cond.empty() ? "" : cond + ", ", '"' + a.messageContains + '"');
          },
          [](const CheckCheckpoint& a) {
            std::string s = "CheckCheckpoint(";
            if (a.offsets) s += "offsets " + idList(*a.offsets);
            if (a.commits) s += std::string(a.offsets ? ", " : "") + "commits " + idList(*a.commits);
            return s + ")";
          },
          [](const AssertOnQuery& a) { return fmt::format("AssertOnQuery({})", a.description); },
      },
      action);
}

StreamTestResult runStreamTest(SimEnv& sim, const TestQuery& query, std::vector<Action> actions,
                               const StreamTestOptions& options) {
  return Runner(sim, query, std::move(actions), options).run();
}

Status testStream(SimEnv& sim, const TestQuery& query, std::vector<Action> actions) {
  return runStreamTest(sim, query, std::move(actions)).status;
}

Status testStream(const TestQuery& query, std::vector<Action> actions) {
  SimEnv sim;
  return testStream(sim, query, std::move(actions));
}

}  // namespace streamsim::harness
