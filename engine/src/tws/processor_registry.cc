// The processor registry (processor_registry.h): filled during static initialisation, read-only
// afterwards.
#include "streamsim/tws/processor_registry.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace streamsim {

namespace detail {
// Defined in processors/builtin_processors.cc; referencing it makes the linker keep that object
// (and so its registrations) in every binary that uses the registry.
void linkBuiltinProcessors();
// Likewise for processors/list_ttl_processor.cc and processors/timer_at_processor.cc.
void linkListTtlProcessor();
void linkTimerAtProcessor();
void linkAsyncProcessors();  // processors/async_processors.cc
void linkRealTimeProcessors();
void linkNestedProcessors();  // processors/nested_processors.cc
void linkAllBuiltins() {
  linkAsyncProcessors();
  linkBuiltinProcessors();
  linkListTtlProcessor();
  linkTimerAtProcessor();
  linkRealTimeProcessors();
  linkNestedProcessors();
}
}  // namespace detail

namespace {
struct Entry {
  ProcessorFactory factory;
  ProcessorRegistry::FactoryMaker maker;  // null: registered with a plain factory or parameters
  std::vector<std::string> paramNames;
  ProcessorParamFactory paramFactory;  // null: the processor takes no parameters
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

ProcessorRegistry::Registrar::Registrar(std::string_view name, FactoryMaker make) {
  Entry& e = entries()[std::string(name)];
  if (e.registrations++ != 0) return;
  e.maker = std::move(make);
  e.factory = e.maker();
}

ProcessorRegistry::Registrar::Registrar(std::string_view name, std::vector<std::string> paramNames,
                                        ProcessorParamFactory factory) {
  Entry& e = entries()[std::string(name)];
  if (e.registrations++ != 0) return;
  e.paramNames = std::move(paramNames);
  e.paramFactory = std::move(factory);
  // The defaults: a factory of an empty map (a registration whose defaults fail is a bug of the
  // binary, reported when the processor is first used).
  auto defaults = e.paramFactory(ProcessorParams{});
  if (defaults.ok()) e.factory = std::move(*defaults);
}

namespace {
Result<const Entry*> findEntry(std::string_view name) {
  detail::linkAllBuiltins();
  auto it = entries().find(name);
  if (it == entries().end()) {
    std::string known;
    for (const auto& n : ProcessorRegistry::names()) known += (known.empty() ? "" : ", ") + n;
    return Status::NotFound(
        fmt::format("no stateful processor named '{}' is registered; known: {}", name, known));
  }
  if (it->second.registrations > 1)
    return Status::FailedPrecondition(fmt::format(
        "the processor name '{}' was registered {} times (STREAMSIM_REGISTER_PROCESSOR); names "
        "must be unique",
        name, it->second.registrations));
  if (!it->second.factory)
    return Status::FailedPrecondition(fmt::format(
        "the processor '{}' cannot be made with its default parameters", name));
  return &it->second;
}
thread_local ProcessorRegistry::FreshScope* current_scope = nullptr;
}  // namespace

ProcessorRegistry::FreshScope::FreshScope() : previous_(current_scope) { current_scope = this; }
ProcessorRegistry::FreshScope::~FreshScope() { current_scope = previous_; }

Result<ProcessorFactory> ProcessorRegistry::FreshScope::factory(std::string_view name) {
  if (auto it = made_.find(name); it != made_.end()) return it->second;
  STREAMSIM_ASSIGN_OR_RETURN(const Entry* e, findEntry(name));
  ProcessorFactory f = e->factory;
  if (e->maker) {
    f = e->maker();
  } else if (e->paramFactory) {
    auto fresh = e->paramFactory(ProcessorParams{});
    if (fresh.ok()) f = std::move(*fresh);
  }
  made_.emplace(std::string(name), f);
  return f;
}

Result<ProcessorFactory> ProcessorRegistry::factory(std::string_view name) {
  if (current_scope != nullptr) return current_scope->factory(name);
  STREAMSIM_ASSIGN_OR_RETURN(const Entry* e, findEntry(name));
  return e->factory;
}

Result<ProcessorFactory> ProcessorRegistry::factory(std::string_view name,
                                                    const ProcessorParams& params) {
  if (params.empty()) return factory(name);
  STREAMSIM_ASSIGN_OR_RETURN(const Entry* e, findEntry(name));
  for (const auto& [param, value] : params) {
    if (std::find(e->paramNames.begin(), e->paramNames.end(), param) != e->paramNames.end())
      continue;
    return Status::InvalidArgument(fmt::format(
        "the processor '{}' takes no parameter '{}'; it takes: {}", name, param,
        e->paramNames.empty() ? std::string("none") : fmt::format("{}", fmt::join(e->paramNames, ", "))));
  }
  auto made = e->paramFactory(params);
  if (!made.ok())
    return Status::InvalidArgument(
        fmt::format("the processor '{}': {}", name, made.status().message()));
  return made;
}

Result<std::vector<std::string>> ProcessorRegistry::paramNames(std::string_view name) {
  STREAMSIM_ASSIGN_OR_RETURN(const Entry* e, findEntry(name));
  return e->paramNames;
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
