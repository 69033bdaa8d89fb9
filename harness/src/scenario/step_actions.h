// What a scenario step's actions are built with (step_table.h: a step's `toActions`): the
// scenario, the run's options, the list of actions with the location of each, and the state the
// actions share with the runner while the run goes on (the memory sources, the Kafka-like log,
// the sink's views, what the last expectation saw). One per scenario run: not for several threads.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "scenario/sink_views.h"
#include "streamsim/harness/actions.h"
#include "streamsim/harness/recording_writer.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/io/console_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/sim/kafka_log.h"
#include "streamsim/state/state_store.h"

namespace streamsim::harness::detail {

// Owned by the runner; the actions hold a pointer to it while the run goes on.
struct ScenarioRunState {
  std::vector<std::shared_ptr<MemoryStreamData>> memory;  // per source; null: not a memory one
  // The Kafka-like log of the run's sources and sink (outside the engine: survives crashes).
  std::shared_ptr<sim::KafkaLog> log = std::make_shared<sim::KafkaLog>();
  std::shared_ptr<RecordingWriter> foreach;  // a foreach sink's writer
  std::shared_ptr<ConsoleOutput> console;    // a console sink's prints
  std::shared_ptr<KafkaTopicView> kafkaView;
  std::string failure;  // what the check that failed said
  // What the last sink/new_rows expectation saw (new_rows are the rows since).
  std::vector<Row> seen;
  size_t seenCount = 0;
  int64_t seenBatch = -1;
  std::vector<ActualRows> actual;  // with ScenarioRunOptions::collectActual

  // `failure` = msg, as a FailedPrecondition.
  Status fail(std::string msg);
};

// The state store the scenario's query runs on (real time defaults to RocksDB).
StateStoreKind storeKindOf(const QuerySpec& q);

class StepActions {
 public:
  using WriterFor = std::function<Result<DataStreamWriter>(const QuerySpec&)>;
  StepActions(const Scenario& sc, const ScenarioRunOptions& options, ScenarioRunState& state,
              WriterFor writerFor)
      : sc_(sc), options_(options), state_(state), writer_for_(std::move(writerFor)) {}

  const Scenario& scenario() const { return sc_; }
  const ScenarioRunOptions& options() const { return options_; }
  ScenarioRunState& state() { return state_; }
  // The first source's schema, when it has one (the rows of put steps are cast to it).
  const Schema* sourceSchema() const;
  // The writer of `q` on the run's sources and sink (a `restart: {query: ...}`).
  Result<DataStreamWriter> writerFor(const QuerySpec& q) { return writer_for_(q); }

  // The step whose actions are pushed next (its name in the step table): each action keeps it,
  // so a failed action names its step ("run", "expect") in the run's failure.
  void beginStep(std::string_view name) { step_ = name; }
  void push(Action a, const SourceLocation& at);
  // The scenario cannot run as written: the first such error is the run's setup error.
  void setupFail(const SourceLocation& where, std::string msg);

  std::vector<Action> takeActions() { return std::move(actions_); }
  const std::vector<SourceLocation>& where() const { return where_; }
  const std::vector<std::string>& stepNames() const { return step_names_; }
  const Status& setupStatus() const { return setup_; }

 private:
  const Scenario& sc_;
  const ScenarioRunOptions& options_;
  ScenarioRunState& state_;
  WriterFor writer_for_;
  std::vector<Action> actions_;
  std::vector<SourceLocation> where_;
  std::vector<std::string> step_names_;  // per action, its step's name
  std::string step_;
  Status setup_;
};

}  // namespace streamsim::harness::detail
