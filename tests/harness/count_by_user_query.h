// The query tests write a transformWithState checkpoint with: the count processor grouped by
// `user` over a file source (rows "user string"), two shuffle partitions, a memory sink. Used by
// cli_test (a real folder) and checkpoint_state_test (a simulated one).
#pragma once

#include <memory>
#include <string>

#include "streamsim/io/file_source.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/query.h"
#include "test_registries.h"

namespace streamsim::testing {

// Starts it on `env` with landing folder `landing`, checkpoint `chk` and state store `store`
// (memory | rocksdb).
inline Result<std::unique_ptr<StreamingQuery>> startCountByUser(const Env& env, const std::string& landing,
                                                                const std::string& chk,
                                                                const std::string& store) {
  auto writer = readStream(*makeFileSource(landing, *parseSchema("user string")))
                    .groupBy({"user"})
                    .transformWithState(*::streamsim::test::testProcessors(), "count", TimeMode::kNone, OutputMode::kUpdate)
                    .writeStream();
  writer.sink(makeMemorySink(std::make_shared<MemorySinkData>()))
      .outputMode(OutputMode::kUpdate)
      .option("checkpointLocation", chk)
      .option("spark.sql.shuffle.partitions", "2")
      .option("stateStore", store);
  return writer.start(env);
}

}  // namespace streamsim::testing
