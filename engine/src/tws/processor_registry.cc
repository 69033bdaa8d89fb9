// The processor registry (processor_registry.h): the binary's registered processors (filled during
// static initialisation, read-only afterwards) and a run's own ProcessorFactories, both a
// NamedRegistry (named_registry.h).
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
};

// The processors the binary registered (STREAMSIM_REGISTER_PROCESSOR): the default set a run
// without its own ProcessorFactories uses.
NamedRegistry<Entry>& registered() {
  static NamedRegistry<Entry> r({
      [](std::string_view name, const std::vector<std::string>& known) {
        return fmt::format("no stateful processor named '{}' is registered; known: {}", name, fmt::join(known, ", "));
      },
      [](std::string_view name, int times) {
        return fmt::format("the processor name '{}' was registered {} times (STREAMSIM_REGISTER_PROCESSOR); names "
                           "must be unique",
                           name, times);
      },
  });
  return r;
}
}  // namespace

ProcessorRegistry::Registrar::Registrar(std::string_view name, ProcessorFactory factory) {
  registered().add(name, Entry{std::move(factory), nullptr, {}, nullptr});
}

ProcessorRegistry::Registrar::Registrar(std::string_view name, FactoryMaker make) {
  if (registered().has(name)) {
    registered().add(name, Entry{});  // counted: the name is refused
    return;
  }
  ProcessorFactory factory = make();
  registered().add(name, Entry{std::move(factory), std::move(make), {}, nullptr});
}

ProcessorRegistry::Registrar::Registrar(std::string_view name, std::vector<std::string> paramNames,
                                        ProcessorParamFactory factory) {
  if (registered().has(name)) {
    registered().add(name, Entry{});
    return;
  }
  Entry e{nullptr, nullptr, std::move(paramNames), std::move(factory)};
  // The defaults: a factory of an empty map (a registration whose defaults fail is a bug of the
  // binary, reported when the processor is first used).
  auto defaults = e.paramFactory(ProcessorParams{});
  if (defaults.ok()) e.factory = std::move(*defaults);
  registered().add(name, std::move(e));
}

namespace {
Result<const Entry*> findEntry(std::string_view name) {
  detail::linkAllBuiltins();
  STREAMSIM_ASSIGN_OR_RETURN(const Entry* e, registered().find(name));
  if (!e->factory)
    return Status::FailedPrecondition(fmt::format(
        "the processor '{}' cannot be made with its default parameters", name));
  return e;
}
}  // namespace

ProcessorFactories::ProcessorFactories()
    : factories_({
          [](std::string_view name, const std::vector<std::string>& known) {
            return fmt::format("no stateful processor named '{}' in this run's processors; known: {}", name,
                               fmt::join(known, ", "));
          },
          [](std::string_view name, int times) {
            return fmt::format("the processor name '{}' was added {} times to this run's processors; names must "
                               "be unique",
                               name, times);
          },
      }) {}

void ProcessorFactories::add(std::string_view name, ProcessorFactory factory) {
  factories_.add(name, std::move(factory));
}

Result<ProcessorFactory> ProcessorFactories::factory(std::string_view name) const {
  STREAMSIM_ASSIGN_OR_RETURN(const ProcessorFactory* f, factories_.find(name));
  return *f;
}

ProcessorFactories ProcessorRegistry::fresh() {
  detail::linkAllBuiltins();
  ProcessorFactories out;
  registered().forEach([&out](const std::string& name, const Entry& e) {
    if (!e.factory) return;
    ProcessorFactory f = e.factory;
    if (e.maker) {
      f = e.maker();
    } else if (e.paramFactory) {
      auto made = e.paramFactory(ProcessorParams{});
      if (made.ok()) f = std::move(*made);
    }
    out.add(name, std::move(f));
  });
  return out;
}

Result<ProcessorFactory> ProcessorRegistry::factory(std::string_view name) {
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
  return registered().names();
}

}  // namespace streamsim
