#include "streamsim/io/parsed_files.h"

#include <cstring>
#include <functional>

namespace streamsim {

namespace {

bool sameSchema(const SchemaPtr& a, const SchemaPtr& b) {
  if (a == b) return true;
  return a != nullptr && b != nullptr && *a == *b;
}

// What an entry costs beyond its content: the rows' objects and their values (string payloads
// counted as the content they came from).
size_t rowsBytes(std::span<const Row> rows) {
  size_t n = rows.size() * sizeof(Row);
  for (const Row& r : rows) n += r.size() * sizeof(Value);
  return n;
}

}  // namespace

// Not a hash of every byte (that cost as much as a tenth of a parse): the size, sixteen words
// spread over the content and its last eight bytes, and the reader. Files that agree on all of
// that share a list, told apart by lookup's full comparison.
uint64_t ParsedFiles::keyOf(std::string_view reader, std::string_view content) {
  uint64_t h = std::hash<std::string_view>{}(reader) ^ (content.size() * 0x9e3779b97f4a7c15ULL);
  auto mix = [&h](uint64_t w) { h = (h ^ w) * 0x100000001b3ULL + (h >> 29); };
  if (content.size() < 16 * 8 + 8) {
    for (char c : content) mix(static_cast<unsigned char>(c));
    return h;
  }
  const size_t step = (content.size() - 8) / 16;
  for (size_t i = 0; i < 16; ++i) {
    uint64_t w;
    std::memcpy(&w, content.data() + i * step, 8);
    mix(w);
  }
  uint64_t last;
  std::memcpy(&last, content.data() + content.size() - 8, 8);
  mix(last);
  return h;
}

const ParsedFiles::Entry* ParsedFiles::lookup(uint64_t key, std::string_view reader, const SchemaPtr& schema,
                                              std::string_view content) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) return nullptr;
  for (const Entry& e : it->second)
    if (e.content == content && e.reader == reader && sameSchema(e.schema, schema)) return &e;
  return nullptr;
}

bool ParsedFiles::find(std::string_view reader, const SchemaPtr& schema, std::string_view content,
                       std::vector<Row>& out) {
  if (entries_.empty()) return false;
  const Entry* e = lookup(keyOf(reader, content), reader, schema, content);
  if (e == nullptr) return false;
  out.reserve(out.size() + e->rows.size());
  for (const Row& r : e->rows) {
    // A row of the reader's schema takes the caller's (equal) object; one the format gave
    // another schema (a Parquet file's own, equal to the caller's) keeps it, as a parse would.
    if (r.schema() == e->schema)
      out.emplace_back(schema, r.values());
    else
      out.push_back(r);
  }
  ++hits_;
  return true;
}

void ParsedFiles::keep(std::string_view reader, const SchemaPtr& schema, std::string_view content,
                       std::span<const Row> rows) {
  if (bytes_ >= capacity_) return;
  const size_t cost = content.size() + reader.size() + rowsBytes(rows);
  if (bytes_ + cost > capacity_) return;
  const uint64_t key = keyOf(reader, content);
  if (lookup(key, reader, schema, content) != nullptr) return;
  entries_[key].push_back(Entry{std::string(reader), schema, std::string(content), {rows.begin(), rows.end()}});
  bytes_ += cost;
  ++files_;
}

}  // namespace streamsim
