// Spark 4.2's query evolution as the micro-batch loop needs it (docs/checkpoint-format.md
// "Spark 4.2"): the source and sink names checked when the query starts, each source's id (the
// key of an offsets v2 file and its folder under sources/), a checkpoint's offsets lined up with
// the query's sources by id, and the sinks a v3 commit records. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/query.h"
#include "streamsim/status.h"

namespace streamsim::detail {

// The names' rules (Spark's StreamingSourceEvolutionSuite and SPARK-56719): a name is letters,
// digits and '_' (STREAMING_QUERY_EVOLUTION_ERROR.INVALID_SOURCE_NAME / INVALID_SINK_NAME); with
// source evolution every source is named (UNNAMED_STREAMING_SOURCES_WITH_ENFORCEMENT) and no two
// alike (DUPLICATE_SOURCE_NAMES); without it a name is SOURCE_NAMING_NOT_SUPPORTED; with sink
// evolution the sink is named (UNNAMED_STREAMING_SINKS_WITH_ENFORCEMENT).
Status checkQueryEvolution(const QueryOptions& options, size_t numSources);

// Source i's id: its name under source evolution, else its position ("0", "1", ...).
std::vector<std::string> sourceIds(const QueryOptions& options, size_t numSources);

// A checkpoint's offsets file as one offset per query source. v1: by position (the count must
// match: Spark's "There are [N] sources in the checkpoint offsets..."); v2 (OffsetMap): by id, a
// source the file does not name has no offset yet and an id the query lacks is ignored, as
// OffsetSeqBase.toStreamProgress(sources, sourceIdToSourceMap) does.
Result<std::vector<std::optional<std::string>>> offsetsForSources(const OffsetSeq& seq,
                                                                  const std::vector<std::string>& ids,
                                                                  const std::string& where);

// What offsets/N holds for `end`: v1 one line per source ("-" for none); v2 `id:offset` for each
// source that has an offset (StreamProgress.toOffsetMap maps only the sources it holds).
void setSourceOffsets(OffsetSeq& seq, const std::vector<std::string>& ids,
                      const std::vector<std::optional<std::string>>& end);

// The sinkMetadataMap of the next v3 commit: every earlier sink inactive, this one active (added
// at the end, or in its place when it was there; Scala's small Map keeps insertion order).
std::vector<SinkMetadataInfo> nextSinks(std::vector<SinkMetadataInfo> previous, SinkMetadataInfo active);

}  // namespace streamsim::detail
