// What a reader of each kind of sink sees (the SinkView of actions.h a scenario's expectations
// and oracles read): a file sink's folder through _spark_metadata, the foreach writer's rows, the
// console's latest print of each batch, a Kafka-like topic's records. Views are read between
// actions, on the run's one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "streamsim/harness/actions.h"
#include "streamsim/harness/recording_writer.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/sim_env.h"
#include "streamsim/io/console_sink.h"
#include "streamsim/sim/kafka_log.h"

namespace streamsim::harness::detail {

// The key of the output rows in update mode: the last stateful operator's grouping columns
// (a window aggregation's also window_start and window_end).
std::vector<std::string> outputKeys(const Scenario& sc);

// What a reader of a file sink's folder sees: the files each batch listed in
// _spark_metadata/N, JSON typed as written (no schema needed: the scenario does not declare the
// output schema). In update mode the view is the latest row per key.
class FileSinkView final : public SinkView {
 public:
  FileSinkView(SimEnv& sim, std::string path, bool update, std::vector<std::string> keys)
      : sim_(sim), path_(std::move(path)), update_(update), keys_(std::move(keys)) {}
  Result<std::vector<Row>> rows() override;
  // Batch N's rows: the files _spark_metadata/N (or N.compact) lists that no earlier batch did.
  Result<std::map<int64_t, std::vector<Row>>> batches() override;
  std::string description() const override { return "files " + path_; }

 private:
  SimEnv& sim_;
  std::string path_;
  bool update_;
  std::vector<std::string> keys_;
};

// The foreach sink as its writer saw it: every row processed (duplicates included).
class ForeachView final : public SinkView {
 public:
  explicit ForeachView(std::shared_ptr<RecordingWriter> writer) : writer_(std::move(writer)) {}
  Result<std::vector<Row>> rows() override { return writer_->rows; }
  Result<std::map<int64_t, std::vector<Row>>> batches() override {
    std::map<int64_t, std::vector<Row>> out;
    for (size_t i = 0; i < writer_->rows.size(); ++i)
      out[writer_->batchOf[i]].push_back(writer_->rows[i]);
    return out;
  }
  std::string description() const override { return "foreach writer (every row processed)"; }

 private:
  std::shared_ptr<RecordingWriter> writer_;
};

// The console sink as a person reading the driver's output takes it: for each batch, its latest
// print (a batch a crash made it print again shows twice in the text, once here).
class ConsoleView final : public SinkView {
 public:
  explicit ConsoleView(std::shared_ptr<ConsoleOutput> out) : out_(std::move(out)) {}
  Result<std::vector<Row>> rows() override {
    std::vector<Row> out;
    for (auto& [batch, rows] : latest()) out.insert(out.end(), rows.begin(), rows.end());
    return out;
  }
  Result<std::map<int64_t, std::vector<Row>>> batches() override { return latest(); }
  std::string description() const override { return "console (each batch's latest print)"; }
  const ConsoleOutput& output() const { return *out_; }

 private:
  std::map<int64_t, std::vector<Row>> latest() const {
    std::map<int64_t, std::vector<Row>> out;
    for (const auto& p : out_->printed()) out[p.batchId] = p.rows;
    return out;
  }
  std::shared_ptr<ConsoleOutput> out_;
};

// A sink a C++ program supplied (ScenarioHooks::customSink): its own view of what a reader sees,
// read from the run's environment; no per-batch view.
class CustomSinkView final : public SinkView {
 public:
  CustomSinkView(SimEnv& sim, std::function<std::vector<Row>(const Env&)> view)
      : sim_(sim), view_(std::move(view)) {}
  Result<std::vector<Row>> rows() override { return view_(sim_.env()); }
  Result<std::map<int64_t, std::vector<Row>>> batches() override {
    return Status::FailedPrecondition("a custom sink (ScenarioHooks::customSink) has no per-batch view");
  }
  std::string description() const override { return "custom sink"; }

 private:
  SimEnv& sim_;
  std::function<std::vector<Row>(const Env&)> view_;
};

// A Kafka-like output topic as a consumer reads it: every record (duplicates of an at-least-once
// sink included), a JSON object value as its columns, anything else as {key, value}; the batch
// of each from the record's streamsim.batch header.
class KafkaTopicView final : public SinkView {
 public:
  KafkaTopicView(std::shared_ptr<sim::KafkaLog> log, std::string topic)
      : log_(std::move(log)), topic_(std::move(topic)) {}
  Result<std::vector<Row>> rows() override;
  Result<std::map<int64_t, std::vector<Row>>> batches() override;
  std::string description() const override { return "kafka topic " + topic_ + " (every record)"; }
  const std::vector<int64_t>& batchOf() const { return batch_of_; }

 private:
  std::shared_ptr<sim::KafkaLog> log_;
  std::string topic_;
  std::vector<int64_t> batch_of_;
};

}  // namespace streamsim::harness::detail
