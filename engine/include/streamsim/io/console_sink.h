// Spark's console sink (format("console"); sql/.../streaming/sources/ConsoleWrite.scala): each
// batch is printed as a "Batch: N" banner between dashed lines and then the rows as
// Dataset.show(numRows, truncate) prints them. What it prints goes to a ConsoleOutput the test
// holds (the driver's simulated stdout; outside the engine, so it survives a crash and restart).
// Not idempotent, as Spark's: a batch re-run after a crash is printed again. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "streamsim/real_time.h"
#include "streamsim/sink.h"

namespace streamsim {

// Spark's options: numRows (default 20) and truncate (default true: cells longer than 20
// characters are cut to 17 and "...", and cells are right-aligned; false: left-aligned).
struct ConsoleSinkOptions {
  int numRows = 20;
  bool truncate = true;
};

class ConsoleOutput {
 public:
  struct Printed {
    int64_t batchId = 0;
    std::vector<Row> rows;  // every row of the batch, also those past numRows
    std::string text;       // what was printed for it
  };
  void print(int64_t batchId, std::vector<Row> rows, std::string text);
  // Everything printed, in order.
  const std::string& text() const { return text_; }
  // Each print (a re-run batch appears again), in order.
  const std::vector<Printed>& printed() const { return printed_; }
  // The latest print of each batch, in batch order: the text without the prints a crash made
  // the sink repeat (what a fault-free run prints, when the batches are the same).
  std::string latestText() const;

 private:
  std::string text_;
  std::vector<Printed> printed_;
};

// Dataset.showString(numRows, truncate ? 20 : 0) of `rows` (all in `schema`), as show() prints
// it (with println's newline): a table of the column names and the first numRows rows, cells as
// Spark's ToPrettyString renders them (NULL, timestamps "2026-01-01 10:00:00" in UTC, doubles
// as Java prints them), and "only showing top N rows" when there are more.
std::string showString(const Schema& schema, const std::vector<Row>& rows, int numRows, bool truncate);

// In real-time mode the console sink is in the allowlist; a batch is printed when it ends.
class ConsoleSink final : public Sink, public RealTimeSink {
 public:
  ConsoleSink(std::shared_ptr<ConsoleOutput> out, ConsoleSinkOptions options)
      : out_(std::move(out)), options_(options) {}
  bool writesPerRecord() const override { return false; }
  std::string description() const override;
  std::string sparkClassName() const override { return "org.apache.spark.sql.execution.streaming.ConsoleTable$"; }
  Status addBatch(const SinkContext& ctx, const std::vector<Row>& rows) override;

 private:
  std::shared_ptr<ConsoleOutput> out_;
  ConsoleSinkOptions options_;
  SchemaPtr last_schema_;  // an empty batch prints the columns of the last rows seen
};

std::function<std::unique_ptr<Sink>()> makeConsoleSink(std::shared_ptr<ConsoleOutput> out,
                                                       ConsoleSinkOptions options = {});

}  // namespace streamsim
