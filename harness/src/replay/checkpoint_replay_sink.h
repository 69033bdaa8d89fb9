// Internal to checkpoint_replay.cc: what a file sink committed per batch, lined up with the
// replayed output (CheckpointReplayOptions::sink).
#pragma once

#include <string>

#include "streamsim/checkpoint/checkpoint_reader.h"
#include "streamsim/env.h"
#include "streamsim/harness/checkpoint_replay.h"
#include "streamsim/status.h"

namespace streamsim::harness::detail {

// For every replayed batch of `result`, reads the data files the sink log `<sinkDir>/_spark_metadata`
// lists for it (`report` was inspected with that sink folder) and sets sinkRows, sinkNote and
// differsFromSink; sets comparedWithSink and firstDifference. `recordedSinkPath` is the path the
// checkpoint's sink_path file records (the log's absolute paths start with it), or "".
// A batch is left uncompared, with a note, when the log no longer tells its own files (purged,
// or folded into a compact file whose earlier batches are gone) or a listed file is missing.
// A data file that does not parse is InvalidArgument naming it.
Status compareWithSink(const Env& real, const std::string& sinkDir,
                       const std::string& recordedSinkPath, const CheckpointReport& report,
                       CheckpointReplayResult& result);

}  // namespace streamsim::harness::detail
