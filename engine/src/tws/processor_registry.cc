// ProcessorSet (processor_registry.h): a program's processors by name, a NamedRegistry
// (named_registry.h) of definitions, owned by whoever built it.
#include "streamsim/tws/processor_registry.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace streamsim {

Result<DurationMs> durationParam(const ProcessorParams& params, std::string_view name, DurationMs fallback) {
  auto it = params.find(name);
  if (it == params.end()) return fallback;
  auto d = parseDuration(it->second);
  if (!d.ok() || *d <= 0)
    return Status::InvalidArgument(fmt::format(
        "parameter '{}' must be a positive duration such as 1m, 10s, 250ms; got '{}'", name, it->second));
  return *d;
}

ProcessorSet::ProcessorSet()
    : defs_({
          [](std::string_view name, const std::vector<std::string>& known) {
            return fmt::format("no stateful processor named '{}' is registered; known: {}", name, fmt::join(known, ", "));
          },
          [](std::string_view name, int times) {
            return fmt::format("the processor name '{}' was added {} times to the processor set; names must be unique",
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
  // The defaults: a factory of an empty map (an addition whose defaults fail is a bug of the
  // program, reported when the processor is first used).
  auto defaults = d.paramFactory(ProcessorParams{});
  if (defaults.ok()) d.factory = std::move(*defaults);
  defs_.add(name, std::move(d));
}

Result<const ProcessorDefinition*> ProcessorSet::find(std::string_view name) const {
  STREAMSIM_ASSIGN_OR_RETURN(const ProcessorDefinition* e, defs_.find(name));
  if (!e->factory)
    return Status::FailedPrecondition(fmt::format(
        "the processor '{}' cannot be made with its default parameters", name));
  return e;
}

Result<ProcessorFactory> ProcessorSet::factory(std::string_view name) const {
  STREAMSIM_ASSIGN_OR_RETURN(const ProcessorDefinition* e, find(name));
  return e->factory;
}

Result<ProcessorFactory> ProcessorSet::factory(std::string_view name, const ProcessorParams& params) const {
  if (params.empty()) return factory(name);
  STREAMSIM_ASSIGN_OR_RETURN(const ProcessorDefinition* e, find(name));
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

Result<std::vector<std::string>> ProcessorSet::paramNames(std::string_view name) const {
  STREAMSIM_ASSIGN_OR_RETURN(const ProcessorDefinition* e, find(name));
  return e->paramNames;
}

Result<std::unique_ptr<StatefulProcessor>> ProcessorSet::create(std::string_view name) const {
  STREAMSIM_ASSIGN_OR_RETURN(ProcessorFactory f, factory(name));
  return f();
}

void ProcessorSet::promise(std::string_view name, ProcessorPromises promises) {
  promises_.insert_or_assign(std::string(name), std::move(promises));
}

std::optional<ProcessorPromises> ProcessorSet::promises(std::string_view name) const {
  if (!find(name).ok()) return std::nullopt;
  auto it = promises_.find(name);
  if (it == promises_.end()) return std::nullopt;
  return it->second;
}

ProcessorSet ProcessorSet::fresh() const {
  ProcessorSet out;
  out.promises_ = promises_;
  for (const std::string& name : defs_.names()) {
    auto found = defs_.find(name);
    if (!found.ok()) {  // added twice: stays refused
      out.defs_.add(name, ProcessorDefinition{});
      out.defs_.add(name, ProcessorDefinition{});
      continue;
    }
    ProcessorDefinition d = **found;
    if (d.maker) {
      d.factory = d.maker();
    } else if (d.paramFactory) {
      auto made = d.paramFactory(ProcessorParams{});
      if (made.ok()) d.factory = std::move(*made);
    }
    out.defs_.add(name, std::move(d));
  }
  return out;
}

}  // namespace streamsim
