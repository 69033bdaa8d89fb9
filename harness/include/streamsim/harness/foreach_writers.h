// A user's ForeachWriter by name, for scenarios (`sink: {kind: foreach, writer: NAME}`): the
// scenario runner wraps the named writer in its RecordingWriter, which keeps every row the
// user's writer processed (none of a partition its open() declined), so exactly_once reports
// the duplicates a non-idempotent writer produces after a crash. The names a run knows are the
// ForeachWriterSet its runner handed it (RunRegistries::foreachWriters, filled by the runner's
// REGISTER_RUN functions): a value whose const use is safe from several threads.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/io/foreach_sink.h"
#include "streamsim/named_registry.h"
#include "streamsim/status.h"

namespace streamsim::harness {

// A new writer for one run of a query (kept across the run's restarts, as an outside store is).
using ForeachWriterFactory = std::function<std::shared_ptr<ForeachWriter>()>;

// ForeachWriters by name (one registry mechanism: named_registry.h).
class ForeachWriterSet {
 public:
  ForeachWriterSet();
  // A name added twice is refused on lookup.
  void add(std::string_view name, ForeachWriterFactory factory);
  // A writer of type T, made with `new T()` for each run: writers.add<MyWriter>("my_writer").
  template <class T>
  void add(std::string_view name) {
    add(name, [] { return std::shared_ptr<ForeachWriter>(std::make_shared<T>()); });
  }
  // NotFound lists the names the set holds.
  Result<ForeachWriterFactory> factory(std::string_view name) const;
  std::vector<std::string> names() const;  // sorted

 private:
  NamedRegistry<ForeachWriterFactory> entries_;
};

}  // namespace streamsim::harness
