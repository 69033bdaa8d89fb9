// Processors by name, for scenarios and the CLI ("processor: count"). Registration happens during
// static initialisation (STREAMSIM_REGISTER_PROCESSOR); afterwards the registry is only read, so
// lookups are safe from several threads. The built-in processors (processors/*.h) are always
// present.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/tws/async_processor.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim {

class ProcessorRegistry {
 public:
  // A new instance of the processor registered as `name`; NotFound lists the known names.
  static Result<std::unique_ptr<StatefulProcessor>> create(std::string_view name);
  static Result<ProcessorFactory> factory(std::string_view name);
  // Sorted.
  static std::vector<std::string> names();

  // Used by STREAMSIM_REGISTER_PROCESSOR; registering a name twice makes create() fail for it.
  struct Registrar {
    Registrar(std::string_view name, ProcessorFactory factory);
  };
};

}  // namespace streamsim

// At namespace scope in a .cc file of your binary:
//   STREAMSIM_REGISTER_PROCESSOR("count", CountProcessor);
// Type may be a StatefulProcessor or an AsyncStatefulProcessor (async_processor.h).
#define STREAMSIM_REGISTER_PROCESSOR(name, Type)                                  \
  static const ::streamsim::ProcessorRegistry::Registrar STREAMSIM_CONCAT(        \
      streamsim_processor_registrar_, __LINE__)(name, [] {                        \
    return ::streamsim::asStatefulProcessor(std::make_unique<Type>());                \
  })
