// The inspector's search for renamed resends (checkpoint_inspector.h): files a source took, or the
// sink wrote, under different names with the same bytes.
#include <map>
#include <set>

#include <fmt/format.h>

#include "checkpoint/checkpoint_inspector.h"

namespace streamsim::detail {

namespace {

uint64_t fnv1a(std::string_view data) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace

void CheckpointInspector::findRenamedResends() {
  // Group files taken by a source, or written by the sink, by (size, content hash).
  struct Seen {
    std::string path;
    int64_t batchId;
    std::string where;
    bool hashed;
  };
  std::map<std::pair<int64_t, uint64_t>, std::vector<Seen>> groups;
  std::set<std::string> done;
  for (const Taken& t : taken_) {
    if (!done.insert(t.where + "|" + t.path).second) continue;
    std::string local = localPath(t.path);
    int64_t size = -1;
    auto st = env_.fs->stat(local);
    if (st.ok() && !st->isDir) {
      size = st->size;
    } else if (auto it = sink_sizes_.find(t.path); t.where == "sink" && it != sink_sizes_.end()) {
      size = it->second;
    }
    if (size <= 0) continue;  // unknown or empty: no evidence
    uint64_t hash = 0;
    bool hashed = false;
    if (st.ok()) {
      auto content = env_.fs->read(local);
      if (content.ok()) {
        hash = fnv1a(*content);
        hashed = true;
      }
    }
    groups[{size, hash}].push_back(Seen{t.path, t.batchId, t.where, hashed});
  }
  for (auto& [key, seen] : groups) {
    // Same name twice in the same place cannot happen; different names or places with the same
    // bytes can be a renamed resend — but a sink file and the source file it came from are
    // different things, so require two entries from the same side.
    std::map<std::string, std::vector<const Seen*>> bySide;
    for (const auto& s : seen) bySide[s.where].push_back(&s);
    for (auto& [side, list] : bySide) {
      std::set<std::string> distinct;
      for (const Seen* s : list) distinct.insert(s->path);
      if (distinct.size() < 2) continue;
      std::vector<int64_t> ids;
      std::vector<std::string> paths;
      std::string desc;
      bool allHashed = true;
      for (const Seen* s : list) {
        ids.push_back(s->batchId);
        paths.push_back(s->path);
        allHashed = allHashed && s->hashed;
        desc += fmt::format("{}{} (batch {})", desc.empty() ? "" : ", ", s->path, s->batchId);
      }
      add(DiagnosisKind::kRenamedResend,
          fmt::format("{}: {} files under different names have {} ({} bytes): {}. A renamed "
                      "resend is processed again; exactly once is per file name, not per "
                      "content (use dropDuplicates on a content key)",
                      side, list.size(),
                      allHashed ? "the same content" : "the same size (content not readable)",
                      key.first, desc),
          ids, paths);
    }
  }
}

}  // namespace streamsim::detail
