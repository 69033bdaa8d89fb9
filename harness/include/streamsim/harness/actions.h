// StreamTest-style actions for whole queries (DESIGN.md §5, SEMANTICS.md §8): a test is a list of
// actions run by one testStream(query, actions...) call on a SimEnv. The actions are the C++ form
// of the scenario steps of DESIGN.md §6, one to one:
//   put -> AddFile, put_partial -> AddFile{.visibleBytes}, (complete) -> CompleteFile,
//   resend -> ResendFile, touch -> TouchFile, delete -> DeleteFile, add_rows -> AddData,
//   advance -> AdvanceClock, run -> RunBatches / ProcessAllAvailable, crash -> Crash,
//   restart -> Restart, stop -> StopStream, (start) -> StartStream,
//   expect -> CheckAnswer / CheckNewAnswer / CheckLastBatch / ExpectFailure / CheckCheckpoint /
//             AssertOnQuery.
// A failure returns a Status whose message lists the actions with the failing one marked, the
// batches the query ran, the faults injected and the sink's contents (as Spark's StreamTest).
// Actions are plain values; a run is single-threaded.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "streamsim/harness/row_diff.h"
#include "streamsim/harness/run/driver.h"
#include "streamsim/harness/sim_env.h"
#include "streamsim/io/file_sink.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim::harness {

// How the checks read what a query wrote.
class SinkView {
 public:
  virtual ~SinkView() = default;
  // What a reader of the sink sees now (CheckAnswer).
  virtual Result<std::vector<Row>> rows() = 0;
  // The rows per committed batch id, ascending (CheckNewAnswer, CheckLastBatch).
  virtual Result<std::map<int64_t, std::vector<Row>>> batches() = 0;
  virtual std::string description() const = 0;
};

// A memory sink read through the view of its latest batch's output mode (append: all rows,
// update: latest row per key, complete: last batch).
std::shared_ptr<SinkView> memorySinkView(std::shared_ptr<MemorySinkData> data);
// A file sink's output folder as a reader sees it (readFileSinkOutput: only committed files),
// parsed with `schema`. It has no per-batch view: CheckNewAnswer / CheckLastBatch fail on it.
// `sim` must outlive the view.
std::shared_ptr<SinkView> fileSinkView(SimEnv& sim, std::string path, SchemaPtr schema);

// The query under test: how to start it (every start builds a fresh instance from the writer,
// as a driver restart does) and how to read its output.
struct TestQuery {
  DataStreamWriter writer;
  std::shared_ptr<SinkView> sink;
};
// A query ending in a fresh memory sink: `writer` must not have a sink yet; the data is kept
// outside the engine (`sinkData`, also returned through the view).
TestQuery memoryQuery(DataStreamWriter writer, std::shared_ptr<MemorySinkData> sinkData = nullptr);

struct StreamTestContext;

// --- data ---
struct AddData {  // add_rows: rows appended to a memory stream
  std::shared_ptr<MemoryStreamData> source;
  std::vector<Row> rows;
};
struct AddFile {  // put (atomic, durable) / put_partial (visibleBytes set: visible while written)
  std::string path;
  std::string content;
  std::optional<size_t> visibleBytes{};
};
// A JSON-lines file of `rows` (Spark's JSON: one object per line).
AddFile AddJsonFile(std::string path, const std::vector<Row>& rows);
struct CompleteFile {  // the writer of a put_partial file finishes it
  std::string path;
};
struct ResendFile {  // resend: the same content under a new name
  std::string from;
  std::string to;
};
struct TouchFile {  // touch: set the modification time (default: the clock's now)
  std::string path;
  std::optional<TimeMs> mtime{};
};
struct DeleteFile {
  std::string path;
};

// --- time and running ---
struct AdvanceClock {  // advance
  DurationMs by = 0;
};
// advance: {by, trigger: once} — Spark's AdvanceManualClock: moves the clock, then the running
// query takes exactly one trigger at the new time (a data batch, a no-data batch or nothing, by
// Spark's rules), not "sleep to the next interval".
struct AdvanceManualClock {
  DurationMs by = 0;
  // Set (a generated workload's trigger times): the clock moves to `to` instead, and when it is
  // already past `to` or a trigger ran at `to` or later (a crash's downtime moved the driver's
  // return on while the driver was down) nothing happens.
  std::optional<TimeMs> to{};
  // With `to`: nothing happens unless it says yes when the action's turn comes (a generated
  // workload's drain, which a downtime may have moved on). Unset: yes.
  std::function<bool()> wanted{};
};
struct RunBatches {  // run: {batches: n} — up to n triggers on the trigger's schedule
  int n = 1;
};
struct ProcessAllAvailable {};  // run: available
struct StopStream {};           // stop: graceful (processors' close)
// Starts a new instance from the checkpoint (after stop/crash); with `writer`, a different query
// (processor, its parameters, output mode, options) on the same checkpoint and sink, which then
// also serves later restarts (e.g. memoryQuery(newWriter, sameSinkData).writer).
struct StartStream {
  std::optional<DataStreamWriter> writer{};
};
// restart: crash the driver if running, then start again; with `after` > 0 it stays down that
// long (virtual time; later actions that add data or move the clock happen meanwhile) and comes
// back at the first action that needs the query, the clock moved to the end of the downtime.
// With `writer` it comes back as that query, as StartStream{writer} does (restart: {query: ...}).
struct Restart {
  DurationMs after = 0;
  std::optional<DataStreamWriter> writer{};
};
// crash: with `point`, arms a crash at that fault point (the nth matching pass from now);
// without, crashes the driver now. A run that hits the crash leaves the query down.
struct Crash {
  std::string point;
  int64_t batch = -1;
  int partition = -1;
  int64_t nth = 1;
};

// --- checks (expect) ---
// With process=true (Spark's behaviour) a running query first processes all available data.
// `match` (row_diff.h): loose by default; {.strictTypes = true} compares value types as Spark's
// checkAnswer does (EmitsRowsStrict), {.partial = true} only the columns each expected row names
// (EmitsRowsWithColumns).
struct CheckAnswer {  // the sink's whole content
  std::vector<Row> rows;
  RowOrder order = RowOrder::kAnyOrder;
  bool process = true;
  RowMatch match{};
};
struct CheckNewAnswer {  // rows of the batches committed since the previous check
  std::vector<Row> rows;
  RowOrder order = RowOrder::kAnyOrder;
  bool process = true;
  RowMatch match{};
};
struct CheckLastBatch {  // rows of the last batch in the sink
  std::vector<Row> rows;
  RowOrder order = RowOrder::kAnyOrder;
  bool process = true;
  RowMatch match{};
};
// The query failed (or fails when it processes what is available, or failed to start) with a
// message containing `messageContains` (and with `code` when set; with Spark's error condition
// `condition` and each of `parameters` when set: Status::condition(), Status::parameter()).
// As in Spark's StreamTest a failure waits for the ExpectFailure that takes it anywhere later in
// the list (`StartStream, AddData, ExpectFailure`): the query is down meanwhile, and an action
// that needs it running (the checks, StopStream, RunBatches, ProcessAllAvailable,
// AdvanceManualClock) or starts it again fails with that failure. Without a later ExpectFailure
// the action that failed fails the run.
struct ExpectFailure {
  std::string messageContains;
  std::optional<Status::Code> code{};
  std::string condition{};
  ErrorParams parameters{};
};
// Offsets and commits present in the checkpoint (batch ids, ascending).
struct CheckCheckpoint {
  std::optional<std::vector<int64_t>> offsets{};
  std::optional<std::vector<int64_t>> commits{};
};
struct AssertOnQuery {
  std::function<Status(StreamTestContext&)> check;
  std::string description = "assertion";
};

using Action = std::variant<AddData, AddFile, CompleteFile, ResendFile, TouchFile, DeleteFile,
                            AdvanceClock, AdvanceManualClock, RunBatches, ProcessAllAvailable,
                            StopStream, StartStream,
                            Restart, Crash, CheckAnswer, CheckNewAnswer, CheckLastBatch,
                            ExpectFailure, CheckCheckpoint, AssertOnQuery>;

// One line: "AddData(memory, 2 rows: {k=a}, {k=b})", "Crash(at offsets.after_write)".
std::string describe(const Action& action);

// What AssertOnQuery sees.
struct StreamTestContext {
  SimEnv& sim;
  SinkView& sink;
  const TestQuery& query;
  Driver& driver;  // the run's driver (start / supervise)
  // The running query, or nullptr (stopped, crashed, never started).
  StreamingQuery* running() { return sim.query(); }
};

struct StreamTestResult {
  Status status;             // OK, or the failure with the full report as message
  int failedAction = -1;     // index into the actions, -1 when all passed
  std::string report;        // the report (also when passing, unless !reportOnPass: actions, batches, sink)
  // When the run stopped because the query did not start (the implicit start, a StartStream or
  // a Restart) and no ExpectFailure took it: the start's own error, e.g. InvalidArgument for a
  // bad option.
  Status startError;
  int64_t restarts = 0;      // supervisor restarts (StreamTestOptions::supervisor)
  // The Crash{point} actions whose crash never fired by the end of the run (their indexes), each
  // with what to report; a failure as well with StreamTestOptions::unfiredCrashFails.
  std::vector<std::pair<int, std::string>> unfiredCrashes;
};

struct StreamTestOptions {
  // How the run's driver supervises the query (run/driver.h). The default restarts nothing: a
  // crash leaves the query down, as in Spark's StreamTest. With restartPlannedCrashes a crash of
  // the SimEnv's fault plan (also during a start) is followed by a restart and the action goes on:
  // RunBatches(n) then runs until n more batches committed.
  SupervisorOptions supervisor;
  // A Crash{point} whose crash never fired by the end of the run fails it at that action (the
  // query never passed the point: the scenario does not test what it says). Scenario runs.
  bool unfiredCrashFails = false;
  // StreamTestResult::report of a run that passed (a failure's is in its status either way). The
  // scenario runner reads none: it turns this off (the report formats every sink row: ~3.5% of a
  // plain generated run, docs/performance.md).
  bool reportOnPass = true;
};

// Runs `actions` against `query` in `sim`. As Spark's testStream, the query is started before the
// first action unless a StartStream comes before the first action that needs the query running
// (`AddData, StartStream, CheckAnswer` starts it at the StartStream; `AssertOnQuery` and the data
// and file actions do not need it). Each check compares against the sink; the first failing
// action stops the run.
StreamTestResult runStreamTest(SimEnv& sim, const TestQuery& query, std::vector<Action> actions,
                               const StreamTestOptions& options = {});

// Status-only forms, for EXPECT_THAT(testStream(q, ...), IsOk()).
Status testStream(SimEnv& sim, const TestQuery& query, std::vector<Action> actions);
Status testStream(const TestQuery& query, std::vector<Action> actions);  // on a fresh SimEnv
template <class... A>
Status testStream(const TestQuery& query, A&&... actions) {
  return testStream(query, std::vector<Action>{Action(std::forward<A>(actions))...});
}
template <class... A>
Status testStream(SimEnv& sim, const TestQuery& query, A&&... actions) {
  return testStream(sim, query, std::vector<Action>{Action(std::forward<A>(actions))...});
}

}  // namespace streamsim::harness
