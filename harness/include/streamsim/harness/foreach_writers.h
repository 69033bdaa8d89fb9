// A user's ForeachWriter by name, for scenarios (`sink: {kind: foreach, writer: NAME}`): the
// scenario runner wraps the named writer in its RecordingWriter, which keeps every row the
// user's writer processed (none of a partition its open() declined), so exactly_once reports
// the duplicates a non-idempotent writer produces after a crash. Registration happens during
// static initialisation (STREAMSIM_REGISTER_FOREACH_WRITER); afterwards the registry is only
// read, so lookups are safe from several threads.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/io/foreach_sink.h"
#include "streamsim/status.h"

namespace streamsim::harness {

// A new writer for one run of a query (kept across the run's restarts, as an outside store is).
using ForeachWriterFactory = std::function<std::shared_ptr<ForeachWriter>()>;

class ForeachWriterRegistry {
 public:
  // NotFound lists the registered names.
  static Result<ForeachWriterFactory> factory(std::string_view name);
  static std::vector<std::string> names();  // sorted
  struct Registrar {
    Registrar(std::string_view name, ForeachWriterFactory factory);
  };
};

}  // namespace streamsim::harness

// At namespace scope in a .cc file of your runner (or test):
//   STREAMSIM_REGISTER_FOREACH_WRITER("my_writer", MyWriter);
#define STREAMSIM_REGISTER_FOREACH_WRITER(name, Type)                                  \
  static const ::streamsim::harness::ForeachWriterRegistry::Registrar STREAMSIM_CONCAT( \
      streamsim_foreach_writer_registrar_, __LINE__)(                                   \
      name, [] { return std::shared_ptr<::streamsim::ForeachWriter>(std::make_shared<Type>()); })
