// Spark 4.2's source and sink names in the checkpoint (query_evolution.h).
#include "query/query_evolution.h"

#include <set>

#include <fmt/format.h>

#include "streamsim/spark_errors.h"

namespace streamsim::detail {
namespace {

bool validName(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!(c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  return true;
}

Status evolutionError(std::string condition, ErrorParams params) {
  return sparkError(Status::Code::kInvalidArgument, "STREAMING_QUERY_EVOLUTION_ERROR." + std::move(condition),
                    std::move(params));
}

}  // namespace

Status checkQueryEvolution(const QueryOptions& o, size_t numSources) {
  std::vector<std::string> names = o.sourceNames;
  names.resize(numSources);
  std::set<std::string> seen, duplicates;
  for (size_t i = 0; i < numSources; ++i) {
    const std::string& n = names[i];
    if (n.empty()) {
      if (o.sourceEvolution)
        return evolutionError("UNNAMED_STREAMING_SOURCES_WITH_ENFORCEMENT",
                              {{"sourceInfo", fmt::format("source {} has no name", i)}});
      continue;
    }
    if (!o.sourceEvolution) return evolutionError("SOURCE_NAMING_NOT_SUPPORTED", {{"name", n}});
    if (!validName(n)) return evolutionError("INVALID_SOURCE_NAME", {{"sourceName", n}});
    if (!seen.insert(n).second) duplicates.insert(n);
  }
  if (!duplicates.empty()) {
    std::string list;
    for (const std::string& d : duplicates) list += (list.empty() ? "'" : ", '") + d + "'";
    return evolutionError("DUPLICATE_SOURCE_NAMES", {{"names", list}});
  }
  if (!o.sinkName.empty() && !validName(o.sinkName))
    return evolutionError("INVALID_SINK_NAME", {{"sinkName", o.sinkName}});
  if (o.sinkEvolution && o.sinkName.empty())
    // error-conditions.json's message has no placeholder: no parameters.
    return evolutionError("UNNAMED_STREAMING_SINKS_WITH_ENFORCEMENT", {});
  return Status::OK();
}

std::vector<std::string> sourceIds(const QueryOptions& o, size_t numSources) {
  std::vector<std::string> ids;
  for (size_t i = 0; i < numSources; ++i)
    ids.push_back(o.sourceEvolution && i < o.sourceNames.size() && !o.sourceNames[i].empty() ? o.sourceNames[i]
                                                                                             : std::to_string(i));
  return ids;
}

Result<std::vector<std::optional<std::string>>> offsetsForSources(const OffsetSeq& seq,
                                                                  const std::vector<std::string>& ids,
                                                                  const std::string& where) {
  if (seq.formatVersion < 2) {
    if (seq.offsets.size() != ids.size())
      return Status::FailedPrecondition(fmt::format(
          "{} records {} source(s) but the query has {}: a checkpoint cannot be reused by a query with "
          "other sources (name the sources and enable source evolution, offsets v2, to change them)",
          where, seq.offsets.size(), ids.size()));
    return seq.offsets;
  }
  std::vector<std::optional<std::string>> out(ids.size());
  for (size_t i = 0; i < ids.size(); ++i)
    for (size_t k = 0; k < seq.sourceIds.size() && k < seq.offsets.size(); ++k)
      if (seq.sourceIds[k] == ids[i]) out[i] = seq.offsets[k];
  return out;
}

void setSourceOffsets(OffsetSeq& seq, const std::vector<std::string>& ids,
                      const std::vector<std::optional<std::string>>& end) {
  seq.offsets.clear();
  seq.sourceIds.clear();
  for (size_t i = 0; i < end.size(); ++i) {
    if (seq.formatVersion >= 2 && !end[i]) continue;
    seq.offsets.push_back(end[i]);
    if (seq.formatVersion >= 2) seq.sourceIds.push_back(i < ids.size() ? ids[i] : std::to_string(i));
  }
}

std::vector<SinkMetadataInfo> nextSinks(std::vector<SinkMetadataInfo> previous, SinkMetadataInfo active) {
  active.isActive = true;
  bool placed = false;
  for (SinkMetadataInfo& s : previous) {
    if (s.sinkName == active.sinkName) {
      s = active;
      placed = true;
    } else {
      s.isActive = false;
    }
  }
  if (!placed) previous.push_back(std::move(active));
  return previous;
}

}  // namespace streamsim::detail
