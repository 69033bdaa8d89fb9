// The processor registry (processor_registry.h): the default set (the engine's example processors
// registered explicitly, then the binary's STREAMSIM_REGISTER_PROCESSOR lines during static
// initialisation; read-only afterwards) and a run's own ProcessorFactories, both a NamedRegistry
// (named_registry.h).
#include "streamsim/tws/processor_registry.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace streamsim {

ProcessorSet::ProcessorSet()
    : defs_({
          [](std::string_view name, const std::vector<std::string>& known) {
            return fmt::format("no stateful processor named '{}' is registered; known: {}", name, fmt::join(known, ", "));
          },
          [](std::string_view name, int times) {
            return fmt::format("the processor name '{}' was registered {} times (STREAMSIM_REGISTER_PROCESSOR); names "
                               "must be unique",
                               name, times);
          },
      }) {}

void ProcessorSet::add(std::string_view name, ProcessorFactory factory) {
  defs_.add(name, ProcessorDefinition{std::move(factory), nullptr, {}, nullptr});
}

void ProcessorSet::add(std::string_view name, ProcessorFactoryMaker make) {
  if (defs_.has(name)) {
    defs_.add(name, ProcessorDefinition{});  // counted: the name is refused
    return;
  }
  ProcessorFactory factory = make();
  defs_.add(name, ProcessorDefinition{std::move(factory), std::move(make), {}, nullptr});
}

void ProcessorSet::add(std::string_view name, std::vector<std::string> paramNames, ProcessorParamFactory factory) {
  if (defs_.has(name)) {
    defs_.add(name, ProcessorDefinition{});
    return;
  }
  ProcessorDefinition d{nullptr, nullptr, std::move(paramNames), std::move(factory)};
  // The defaults: a factory of an empty map (a registration whose defaults fail is a bug of the
  // binary, reported when the processor is first used).
  auto defaults = d.paramFactory(ProcessorParams{});
  if (defaults.ok()) d.factory = std::move(*defaults);
  defs_.add(name, std::move(d));
}

namespace detail {
// Each file of engine/src/processors/ registers its processors into a set.
void registerAsyncProcessors(ProcessorSet& set);
void registerBuiltinProcessors(ProcessorSet& set);
void registerListTtlProcessor(ProcessorSet& set);
void registerNestedProcessors(ProcessorSet& set);
void registerRealTimeProcessors(ProcessorSet& set);  // with the Spark real-time suite's
void registerTimerAtProcessor(ProcessorSet& set);

void registerExampleProcessors(ProcessorSet& set) {
  registerAsyncProcessors(set);
  registerBuiltinProcessors(set);
  registerListTtlProcessor(set);
  registerTimerAtProcessor(set);
  registerRealTimeProcessors(set);
  registerNestedProcessors(set);
}
}  // namespace detail

namespace {
// The default set: the engine's example processors, added when it is first used (explicitly, no
// static registrar of theirs), then the binary's STREAMSIM_REGISTER_PROCESSOR lines.
ProcessorSet& defaultSet() {
  static ProcessorSet set = [] {
    ProcessorSet s;
    detail::registerExampleProcessors(s);
    return s;
  }();
  return set;
}

using Entry = ProcessorDefinition;

Result<const Entry*> findEntry(std::string_view name) {
  STREAMSIM_ASSIGN_OR_RETURN(const Entry* e, defaultSet().definitions().find(name));
  if (!e->factory)
    return Status::FailedPrecondition(fmt::format(
        "the processor '{}' cannot be made with its default parameters", name));
  return e;
}
}  // namespace

ProcessorRegistry::Registrar::Registrar(std::string_view name, ProcessorFactory factory) {
  defaultSet().add(name, std::move(factory));
}

ProcessorRegistry::Registrar::Registrar(std::string_view name, FactoryMaker make) {
  defaultSet().add(name, std::move(make));
}

ProcessorRegistry::Registrar::Registrar(std::string_view name, std::vector<std::string> paramNames,
                                        ProcessorParamFactory factory) {
  defaultSet().add(name, std::move(paramNames), std::move(factory));
}

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
  ProcessorFactories out;
  defaultSet().definitions().forEach([&out](const std::string& name, const Entry& e) {
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

std::vector<std::string> ProcessorRegistry::names() { return defaultSet().definitions().names(); }

}  // namespace streamsim
