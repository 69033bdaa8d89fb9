// State changelog/snapshot files: one writer (StateFileWriter), one reader (parseStateFile),
// and version replay. Format: docs/state-format.md §2.
#include "streamsim/state/state_files.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include <fmt/format.h>
#include <isa-l/crc.h>

#include "json_text.h"
#include "state/crc32.h"
#include "streamsim/trace_events.h"

namespace streamsim {
namespace {

constexpr std::string_view kMagic = "SSSTATE1";  // 8 bytes
constexpr char kKindChangelog = 'C';
constexpr char kKindSnapshot = 'S';
constexpr char kOpPut = 'P';
constexpr char kOpRemove = 'D';
constexpr char kOpEnd = 'E';
constexpr size_t kHeaderSize = 8 + 1 + 8;
constexpr size_t kFooterSize = 1 + 8 + 4;

void putFixed(uint64_t x, int bytes, std::string& out) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((x >> (8 * i)) & 0xFF));
}
uint64_t getFixed(std::string_view in, int bytes) {
  uint64_t x = 0;
  for (int i = 0; i < bytes; ++i) x = (x << 8) | static_cast<uint8_t>(in[i]);
  return x;
}
bool getVarint(std::string_view& in, uint64_t& x) {
  x = 0;
  for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
    auto b = static_cast<uint8_t>(in[0]);
    in.remove_prefix(1);
    x |= uint64_t{b & 0x7Fu} << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}
bool getBytes(std::string_view& in, std::string_view& out) {
  uint64_t n = 0;
  if (!getVarint(in, n) || n > in.size()) return false;
  out = in.substr(0, n);
  in.remove_prefix(n);
  return true;
}

// "<v>.<ext>" -> v, or -1 when the name is not a state file of that extension.
int64_t versionOf(std::string_view name, std::string_view ext) {
  if (name.size() <= ext.size() + 1 || !name.ends_with(ext) || name[name.size() - ext.size() - 1] != '.')
    return -1;
  std::string_view digits = name.substr(0, name.size() - ext.size() - 1);
  int64_t v = -1;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || p != digits.data() + digits.size() || v < 0) return -1;
  return v;
}

std::string_view changelogExt(StateStoreKind kind) {
  return kind == StateStoreKind::kMemory ? "delta" : "changelog";
}

}  // namespace

// By ISA-L, which folds by carry-less multiplication where the CPU has it: the same value as
// zlib at 7-14x its speed, and 1-6x that of the hand-written fold it replaced
// (docs/performance.md "Libraries instead of hand-written code").
uint32_t detail::crc32Ieee(std::string_view data) {
  return crc32_gzip_refl(0, reinterpret_cast<const unsigned char*>(data.data()), data.size());
}

Result<StateFilesListing> listStateFiles(const Env& env, const std::string& dir, StateStoreKind kind) {
  StateFilesListing out;
  if (!env.fs->exists(dir)) return out;
  STREAMSIM_ASSIGN_OR_RETURN(auto entries, env.fs->list(dir));
  for (const FileInfo& f : entries) {
    if (f.isDir) continue;
    std::string_view name = std::string_view(f.path).substr(f.path.rfind('/') + 1);
    if (int64_t v = versionOf(name, changelogExt(kind)); v > 0) out.changelogs[v] = f.size;
    if (int64_t v = versionOf(name, "snapshot"); v > 0) out.snapshots[v] = f.size;
  }
  return out;
}

StateFileWriter::StateFileWriter(StateFileKind kind, int64_t version) : kind_(kind) {
  data_.append(kMagic);
  data_.push_back(kind == StateFileKind::kChangelog ? kKindChangelog : kKindSnapshot);
  putFixed(static_cast<uint64_t>(version), 8, data_);
  size_ = data_.size();
}

void StateFileWriter::reserve(size_t bytes) {
  if (bytes > data_.size()) data_.resize(bytes);
}

char* StateFileWriter::room(size_t bytes) {
  if (data_.size() - size_ < bytes) data_.resize(std::max(data_.size() * 2, size_ + bytes + 256));
  char* p = data_.data() + size_;
  size_ += bytes;
  return p;
}

namespace {
// memcpy of a short run without the library call: state keys and family names are mostly
// 8–32 bytes, copied as two overlapping words (or word pairs). Never reads or writes outside
// [src, src + n) and [dst, dst + n).
inline void copyShort(char* dst, const char* src, size_t n) {
  uint64_t a, b, c, d;
  if (n >= 8 && n <= 16) {
    std::memcpy(&a, src, 8);
    std::memcpy(&b, src + n - 8, 8);
    std::memcpy(dst, &a, 8);
    std::memcpy(dst + n - 8, &b, 8);
  } else if (n > 16 && n <= 32) {
    std::memcpy(&a, src, 8);
    std::memcpy(&b, src + 8, 8);
    std::memcpy(&c, src + n - 16, 8);
    std::memcpy(&d, src + n - 8, 8);
    std::memcpy(dst, &a, 8);
    std::memcpy(dst + 8, &b, 8);
    std::memcpy(dst + n - 16, &c, 8);
    std::memcpy(dst + n - 8, &d, 8);
  } else if (n < 8) {
    for (size_t i = 0; i < n; ++i) dst[i] = src[i];
  } else {
    std::memcpy(dst, src, n);
  }
}
}  // namespace

void StateFileWriter::record(char op, std::string_view cf, std::string_view key,
                             std::string_view value) {
  // The same bytes as push_back(op), a varint length + append per field.
  auto varintSize = [](uint64_t x) {
    size_t n = 1;
    for (; x >= 0x80; x >>= 7) ++n;
    return n;
  };
  const bool put = op == kOpPut;
  const size_t size = 1 + varintSize(cf.size()) + cf.size() + varintSize(key.size()) + key.size() +
                      (put ? varintSize(value.size()) + value.size() : 0);
  char* p = room(size);
  auto varint = [&p](uint64_t x) {
    for (; x >= 0x80; x >>= 7) *p++ = static_cast<char>((x & 0x7F) | 0x80);
    *p++ = static_cast<char>(x);
  };
  auto bytes = [&p](std::string_view b) {
    copyShort(p, b.data(), b.size());
    p += b.size();
  };
  *p++ = op;
  varint(cf.size());
  bytes(cf);
  varint(key.size());
  bytes(key);
  if (put) {
    varint(value.size());
    bytes(value);
  }
  ++count_;
}

void StateFileWriter::put(std::string_view cf, std::string_view key, std::string_view value) {
  record(kOpPut, cf, key, value);
}

void StateFileWriter::remove(std::string_view cf, std::string_view key) {
  record(kOpRemove, cf, key, {});
}

std::string StateFileWriter::finish() {
  data_.resize(size_);
  data_.push_back(kOpEnd);
  putFixed(count_, 8, data_);
  putFixed(detail::crc32Ieee(data_), 4, data_);
  return std::move(data_);
}

Status parseStateFile(std::string_view data, const std::string& path, StateFileKind kind,
                      int64_t version, const StateRecordVisitor& visit) {
  auto corrupt = [&](std::string_view why) {
    return Status::Corruption(fmt::format("state file {} is corrupt or torn: {}", path, why));
  };
  if (data.size() < kHeaderSize + kFooterSize)
    return corrupt(fmt::format("{} bytes, shorter than header and footer", data.size()));
  if (data.substr(0, kMagic.size()) != kMagic) return corrupt("does not start with SSSTATE1");
  char expectedKind = kind == StateFileKind::kChangelog ? kKindChangelog : kKindSnapshot;
  if (data[kMagic.size()] != expectedKind)
    return corrupt(fmt::format("kind byte '{}', expected '{}'", data[kMagic.size()], expectedKind));
  auto fileVersion = static_cast<int64_t>(getFixed(data.substr(kMagic.size() + 1), 8));
  if (fileVersion != version)
    return corrupt(fmt::format("holds version {}, expected {}", fileVersion, version));
  std::string_view body = data.substr(0, data.size() - 4);
  uint32_t stored = static_cast<uint32_t>(getFixed(data.substr(data.size() - 4), 4));
  if (body[body.size() - 9] != kOpEnd) return corrupt("no end record (file cut short?)");
  if (detail::crc32Ieee(body) != stored) return corrupt("CRC-32 mismatch");
  uint64_t count = getFixed(body.substr(body.size() - 8), 8);

  // Two passes: check every record, then visit, so a bad file applies nothing.
  std::string_view records = body.substr(kHeaderSize, body.size() - kHeaderSize - 9);
  // Every record takes at least one byte: a count over the bytes left is a bad footer (and a
  // reservation bounded by the file's own size, whatever the count says).
  if (count > records.size())
    return corrupt(fmt::format("footer says {} records in {} bytes", count, records.size()));
  std::vector<StateRecordView> parsed;
  parsed.reserve(count);
  while (!records.empty()) {
    StateRecordView r;
    char op = records[0];
    records.remove_prefix(1);
    if (op != kOpPut && op != kOpRemove) return corrupt(fmt::format("bad record type 0x{:02x}", static_cast<uint8_t>(op)));
    if (op == kOpRemove && kind == StateFileKind::kSnapshot) return corrupt("remove record in a snapshot");
    r.remove = op == kOpRemove;
    if (!getBytes(records, r.cf) || !getBytes(records, r.key) || (!r.remove && !getBytes(records, r.value)))
      return corrupt(fmt::format("record {} is cut short", parsed.size()));
    parsed.push_back(r);
  }
  if (parsed.size() != count)
    return corrupt(fmt::format("{} records, footer says {}", parsed.size(), count));
  for (const StateRecordView& r : parsed) visit(r);
  return Status::OK();
}

std::string stateStoreDir(const std::string& checkpointRoot, int operatorId, int partition) {
  return joinPath(joinPath(joinPath(checkpointRoot, "state"), std::to_string(operatorId)),
                  std::to_string(partition));
}

std::string stateFileName(StateStoreKind kind, StateFileKind file, int64_t version) {
  std::string name = std::to_string(version);  // on every commit: no format string parsing
  name.push_back('.');
  name.append(file == StateFileKind::kSnapshot ? std::string_view("snapshot") : changelogExt(kind));
  return name;
}

Result<int64_t> latestStateVersion(const Env& env, const std::string& dir, StateStoreKind kind) {
  STREAMSIM_ASSIGN_OR_RETURN(StateFilesListing files, listStateFiles(env, dir, kind));
  int64_t top = 0;
  if (!files.changelogs.empty()) top = files.changelogs.rbegin()->first;
  if (!files.snapshots.empty()) top = std::max(top, files.snapshots.rbegin()->first);
  int64_t latest = 0;
  bool loadable = true;  // version 0 always is
  for (int64_t v = 1; v <= top; ++v) {
    loadable = files.snapshots.count(v) > 0 || (loadable && files.changelogs.count(v) > 0);
    if (loadable) latest = v;
  }
  return latest;
}

Status replayStateVersion(const Env& env, const std::string& dir, StateStoreKind kind,
                          int64_t version, const std::function<void()>& reset,
                          const StateRecordVisitor& visit) {
  reset();
  if (version <= 0) return Status::OK();
  STREAMSIM_ASSIGN_OR_RETURN(StateFilesListing files, listStateFiles(env, dir, kind));

  // Candidate bases: snapshots <= version, newest first, then version 0.
  std::vector<int64_t> bases;
  for (auto it = files.snapshots.rbegin(); it != files.snapshots.rend(); ++it)
    if (it->first <= version) bases.push_back(it->first);
  bases.push_back(0);

  Status firstError;
  for (int64_t base : bases) {
    int64_t missing = -1;
    for (int64_t v = base + 1; v <= version && missing < 0; ++v)
      if (!files.changelogs.count(v)) missing = v;
    if (missing >= 0) {
      if (firstError.ok()) {
        // Older than every file kept: retention deleted it, the checkpoint is not damaged.
        int64_t oldestKept = -1;
        if (!files.changelogs.empty()) oldestKept = files.changelogs.begin()->first;
        if (!files.snapshots.empty() &&
            (oldestKept < 0 || files.snapshots.begin()->first < oldestKept))
          oldestKept = files.snapshots.begin()->first;
        std::string why =
            oldestKept > version
                ? fmt::format(" (the oldest state file kept is version {}: older versions were "
                              "deleted by state store maintenance, which keeps only what the last "
                              "spark.sql.streaming.minBatchesToRetain batches need)",
                              oldestKept)
                : std::string();
        firstError = Status::Corruption(fmt::format(
            "cannot load state version {} of {}: {} is missing{}", version, dir,
            joinPath(dir, stateFileName(kind, StateFileKind::kChangelog, missing)), why));
      }
      continue;
    }
    reset();
    if (base > 0) {
      std::string path = joinPath(dir, stateFileName(kind, StateFileKind::kSnapshot, base));
      Result<std::string> data = env.fs->read(path);
      Status st = data.ok() ? parseStateFile(*data, path, StateFileKind::kSnapshot, base, visit)
                            : data.status().withContext(fmt::format("reading {}", path));
      if (!st.ok()) {
        if (env.trace != nullptr)
          TraceEvent(events::kStateSnapshotSkipped).add("path", path).add("error", st.message()).emit(env.trace);
        if (firstError.ok()) firstError = Status::Corruption(st.message());
        continue;
      }
    }
    for (int64_t v = base + 1; v <= version; ++v) {
      std::string path = joinPath(dir, stateFileName(kind, StateFileKind::kChangelog, v));
      STREAMSIM_ASSIGN_OR_RETURN(std::string data, env.fs->read(path));
      STREAMSIM_RETURN_IF_ERROR(
          parseStateFile(data, path, StateFileKind::kChangelog, v, visit)
              .withContext(fmt::format("loading state version {}", version)));
    }
    return Status::OK();
  }
  return firstError;
}

bool snapshotDue(const StateFilesListing& files, int64_t version, int64_t maxChain) {
  auto newest = files.snapshots.upper_bound(version);
  if (newest == files.snapshots.begin()) return true;  // no snapshot <= version yet
  const auto [base, baseBytes] = *std::prev(newest);
  if (base == version) return false;                    // already there (a re-run)
  if (version - base >= maxChain) return true;
  constexpr int64_t kEmpty = kHeaderSize + kFooterSize;  // a file without records
  int64_t changed = 0;
  for (auto it = files.changelogs.upper_bound(base);
       it != files.changelogs.end() && it->first <= version; ++it)
    changed += std::max<int64_t>(0, it->second - kEmpty);
  const int64_t snapshotRecords = std::max<int64_t>(0, baseBytes - kEmpty);
  return changed > 0 && changed >= snapshotRecords;
}

Result<std::vector<std::string>> deleteOldStateFiles(const Env& env, const std::string& dir,
                                                     StateStoreKind kind, int64_t latestVersion,
                                                     int minVersionsToRetain) {
  STREAMSIM_ASSIGN_OR_RETURN(StateFilesListing files, listStateFiles(env, dir, kind));
  return deleteOldStateFiles(env, dir, kind, files, latestVersion, minVersionsToRetain);
}

Result<std::vector<std::string>> deleteOldStateFiles(const Env& env, const std::string& dir,
                                                     StateStoreKind kind, StateFilesListing& files,
                                                     int64_t latestVersion, int minVersionsToRetain) {
  std::vector<std::string> deleted;
  const int64_t earliestToRetain = latestVersion - minVersionsToRetain;
  if (earliestToRetain <= 0) return deleted;
  auto base = files.snapshots.upper_bound(earliestToRetain);
  if (base == files.snapshots.begin()) return deleted;  // no snapshot <= earliestToRetain
  const int64_t baseVersion = std::prev(base)->first;
  std::vector<std::pair<int64_t, StateFileKind>> doomed;
  for (const auto& [v, bytes] : files.changelogs) {
    if (v >= baseVersion) break;
    doomed.emplace_back(v, StateFileKind::kChangelog);
  }
  for (const auto& [v, bytes] : files.snapshots) {
    if (v >= baseVersion) break;
    doomed.emplace_back(v, StateFileKind::kSnapshot);
  }
  std::sort(doomed.begin(), doomed.end());
  for (const auto& [v, fileKind] : doomed) {
    std::string path = joinPath(dir, stateFileName(kind, fileKind, v));
    Status st = removeIfExists(env, path);
    if (!st.ok()) return st.withContext(fmt::format("deleting old state file {}", path));
    (fileKind == StateFileKind::kChangelog ? files.changelogs : files.snapshots).erase(v);
    deleted.push_back(std::move(path));
  }
  return deleted;
}

Result<StateDump> readStateAt(const Env& env, const std::string& checkpointRoot, int operatorId,
                              int partition, int64_t version, StateStoreKind kind) {
  std::map<std::string, std::map<std::string, std::string>> state;
  STREAMSIM_RETURN_IF_ERROR(replayStateVersion(
      env, stateStoreDir(checkpointRoot, operatorId, partition), kind, version,
      [&] { state.clear(); },
      [&](const StateRecordView& r) {
        if (r.remove) {
          auto it = state.find(std::string(r.cf));
          if (it != state.end()) it->second.erase(std::string(r.key));
        } else {
          state[std::string(r.cf)][std::string(r.key)] = std::string(r.value);
        }
      }));
  StateDump out;
  for (auto& [cf, kv] : state) {
    if (kv.empty()) continue;
    auto& rows = out[cf];
    for (auto& [k, v] : kv) rows.emplace_back(k, v);
  }
  return out;
}

}  // namespace streamsim
