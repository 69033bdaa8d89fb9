// Rows read from files, kept for the next reader of the same bytes (Env::parsedFiles).
//
// A simulation reads one input many times: a sweep seed's fault-free run, its run under the
// fault plan and its oracles' runs all take the same files, and parsing them again was a quarter
// of a seed's cost (docs/performance.md, issue 38). A reader that finds its file's content here
// takes the rows it gave the first time instead of parsing again.
//
// Exact by construction: an entry is found only by the file's whole content (compared byte for
// byte, not by a hash), the reader's whole configuration (`reader`: format, mode and options) and
// an equal schema, and only reads that succeeded are kept (an error is worded with the file's
// name, so a failing read runs again). Rows come back with the caller's schema object, as a fresh
// parse would give them. Owned by whoever builds the Env; not thread-safe (one Env, one thread).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "streamsim/value.h"

namespace streamsim {

class ParsedFiles {
 public:
  // Past `capacityBytes` (content kept plus an estimate of the rows' size) nothing more is kept:
  // a run over an input larger than that parses as it would without the cache.
  static constexpr size_t kDefaultCapacityBytes = size_t{256} << 20;
  explicit ParsedFiles(size_t capacityBytes = kDefaultCapacityBytes) : capacity_(capacityBytes) {}

  // Appends to `out` the rows `reader` gave for `content` into `schema` and returns true; false
  // (`out` untouched) when none are kept.
  bool find(std::string_view reader, const SchemaPtr& schema, std::string_view content, std::vector<Row>& out);
  // Keeps `rows` as what `reader` gave for `content` into `schema` (a read that succeeded).
  void keep(std::string_view reader, const SchemaPtr& schema, std::string_view content, std::span<const Row> rows);

  int64_t hits() const { return hits_; }
  size_t files() const { return files_; }
  size_t bytes() const { return bytes_; }

 private:
  struct Entry {
    std::string reader;
    SchemaPtr schema;
    std::string content;
    std::vector<Row> rows;
  };
  static uint64_t keyOf(std::string_view reader, std::string_view content);
  const Entry* lookup(uint64_t key, std::string_view reader, const SchemaPtr& schema, std::string_view content) const;

  std::unordered_map<uint64_t, std::vector<Entry>> entries_;  // by keyOf; equal keys share a list
  size_t capacity_;
  size_t bytes_ = 0;
  size_t files_ = 0;
  int64_t hits_ = 0;
};

}  // namespace streamsim
