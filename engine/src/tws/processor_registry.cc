// The processor registry (processor_registry.h): filled during static initialisation, read-only
// afterwards.
#include "streamsim/tws/processor_registry.h"

#include <map>

#include <fmt/format.h>

namespace streamsim {

namespace detail {
// Defined in processors/builtin_processors.cc; referencing it makes the linker keep that object
// (and so its registrations) in every binary that uses the registry.
void linkBuiltinProcessors();
// Likewise for processors/list_ttl_processor.cc and processors/timer_at_processor.cc.
void linkListTtlProcessor();
void linkTimerAtProcessor();
void linkRealTimeProcessors();
void linkAllBuiltins() {
  linkBuiltinProcessors();
  linkListTtlProcessor();
  linkTimerAtProcessor();
  linkRealTimeProcessors();
}
}  // namespace detail

namespace {
struct Entry {
  ProcessorFactory factory;
  int registrations = 0;
};
std::map<std::string, Entry, std::less<>>& entries() {
  static std::map<std::string, Entry, std::less<>> m;
  return m;
}
}  // namespace

ProcessorRegistry::Registrar::Registrar(std::string_view name, ProcessorFactory factory) {
  Entry& e = entries()[std::string(name)];
  if (e.registrations++ == 0) e.factory = std::move(factory);
}

Result<ProcessorFactory> ProcessorRegistry::factory(std::string_view name) {
  detail::linkAllBuiltins();
  auto it = entries().find(name);
  if (it == entries().end()) {
    std::string known;
    for (const auto& n : names()) known += (known.empty() ? "" : ", ") + n;
    return Status::NotFound(
        fmt::format("no stateful processor named '{}' is registered; known: {}", name, known));
  }
  if (it->second.registrations > 1)
    return Status::FailedPrecondition(fmt::format(
        "the processor name '{}' was registered {} times (STREAMSIM_REGISTER_PROCESSOR); names "
        "must be unique",
        name, it->second.registrations));
  return it->second.factory;
}

Result<std::unique_ptr<StatefulProcessor>> ProcessorRegistry::create(std::string_view name) {
  STREAMSIM_ASSIGN_OR_RETURN(ProcessorFactory f, factory(name));
  return f();
}

std::vector<std::string> ProcessorRegistry::names() {
  detail::linkAllBuiltins();
  std::vector<std::string> out;
  for (const auto& [n, e] : entries()) out.push_back(n);
  return out;
}

}  // namespace streamsim
