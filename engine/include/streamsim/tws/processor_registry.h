// Processors by name, for scenarios and the CLI ("processor: count"). The default set is built by
// explicit registration calls: the engine's example processors (processors/*.h, always present),
// then a binary's STREAMSIM_REGISTER_PROCESSOR lines during static initialisation; afterwards it is
// only read, so lookups are safe from several threads. A run may be handed its own processors
// instead (ProcessorFactories).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/named_registry.h"
#include "streamsim/status.h"
#include "streamsim/tws/async_processor.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim {

// Parameters a scenario hands to a registered processor (`params:` in YAML, `ttl:`), as text:
// the processor's parameter factory parses them ("1m" through parseDuration, ...).
using ProcessorParams = std::map<std::string, std::string, std::less<>>;
// Checks the parameters once (InvalidArgument naming the bad one) and returns the factory of
// instances built with them.
using ProcessorParamFactory = std::function<Result<ProcessorFactory>(const ProcessorParams&)>;

// The processors of one run context (issue 33 item 3): name -> factory, an explicit object a run is
// handed (the scenario runner's ScenarioRunOptions::processors) instead of a scope installed on
// the thread. A program builds one with add() (its own processors only: a run handed it sees no
// other), or takes ProcessorRegistry::fresh(). A value; const use is safe from several threads.
class ProcessorFactories {
 public:
  ProcessorFactories();
  // A name added twice is refused by factory() (NamedRegistry's rule).
  void add(std::string_view name, ProcessorFactory factory);
  // NotFound naming the processors it has.
  Result<ProcessorFactory> factory(std::string_view name) const;
  bool has(std::string_view name) const { return factories_.has(name); }
  std::vector<std::string> names() const { return factories_.names(); }  // sorted

 private:
  NamedRegistry<ProcessorFactory> factories_;
};

// Builds a processor's factory: called once for the default set and again by
// ProcessorRegistry::fresh(), so that what a factory captures (a cache shared by its instances)
// starts anew.
using ProcessorFactoryMaker = std::function<ProcessorFactory()>;

// A processor as a set holds it: its factory, how to make it anew, the parameters it takes.
struct ProcessorDefinition {
  ProcessorFactory factory;          // the defaults' (null: the defaults fail)
  ProcessorFactoryMaker maker;       // null: registered with a plain factory or parameters
  std::vector<std::string> paramNames;
  ProcessorParamFactory paramFactory;  // null: the processor takes no parameters
};

// A set of processors being registered: the default set (ProcessorRegistry) is built by explicit
// calls — the engine's example processors (processors/*.cc, registerExampleProcessors), then the
// binary's STREAMSIM_REGISTER_PROCESSOR lines. A name added twice is refused on lookup.
class ProcessorSet {
 public:
  ProcessorSet();
  void add(std::string_view name, ProcessorFactory factory);
  // A processor whose factory captures something (a cache shared by its instances).
  void add(std::string_view name, ProcessorFactoryMaker make);
  // A processor that takes parameters: their names, and the factory that reads them (called with
  // an empty map for the defaults).
  void add(std::string_view name, std::vector<std::string> paramNames, ProcessorParamFactory factory);
  const NamedRegistry<ProcessorDefinition>& definitions() const { return defs_; }

 private:
  NamedRegistry<ProcessorDefinition> defs_;
};

// A processor with parameters, returned by a function of its file and added to a set by the file's
// registration function (a value: making one registers nothing; a function, not a namespace-scope
// object, so that a set built during another file's static initialisation finds it made).
struct ParamProcessor {
  std::string_view name;
  std::vector<std::string> paramNames;
  ProcessorParamFactory factory;
  void addTo(ProcessorSet& set) const { set.add(name, paramNames, factory); }
};

// The processor T as a set holds it (STREAMSIM_REGISTER_PROCESSOR's form).
template <class T>
ProcessorFactory processorFactoryOf() {
  return [] { return asStatefulProcessor(std::make_unique<T>()); };
}

namespace detail {
// The engine's example processors (engine/src/processors/), added explicitly to the default set.
void registerExampleProcessors(ProcessorSet& set);
}  // namespace detail

class ProcessorRegistry {
 public:
  // A new instance of the processor registered as `name`; NotFound lists the known names.
  static Result<std::unique_ptr<StatefulProcessor>> create(std::string_view name);
  static Result<ProcessorFactory> factory(std::string_view name);
  // The factory with `params` (none: as factory(name)). InvalidArgument for a parameter the
  // processor does not take (naming those it takes) or a value its factory refuses.
  static Result<ProcessorFactory> factory(std::string_view name, const ProcessorParams& params);
  // The parameter names `name` takes (empty: none); NotFound as factory().
  static Result<std::vector<std::string>> paramNames(std::string_view name);
  // Sorted.
  static std::vector<std::string> names();

  using FactoryMaker = ProcessorFactoryMaker;

  // Every registered processor with its factory made anew by its FactoryMaker or its parameter
  // factory (defaults); a processor registered with a plain ProcessorFactory keeps that one (it
  // cannot be rebuilt; a `static` inside a processor is not reset either). The process_isolation
  // oracle runs a case with these (ScenarioRunOptions::processors). A name registered twice or
  // without default parameters is left out (factory() reports it).
  static ProcessorFactories fresh();

  // Used by STREAMSIM_REGISTER_PROCESSOR: adds to the default set (ProcessorSet::add's forms);
  // registering a name twice makes create() fail for it.
  struct Registrar {
    Registrar(std::string_view name, ProcessorFactory factory);
    // A processor whose factory captures something (a cache shared by its instances): `make`
    // builds the factory (see FactoryMaker).
    Registrar(std::string_view name, FactoryMaker make);
    // A processor that takes parameters: their names, and the factory that reads them
    // (called with an empty map for the defaults).
    Registrar(std::string_view name, std::vector<std::string> paramNames,
              ProcessorParamFactory factory);
  };
};

}  // namespace streamsim

// At namespace scope in a .cc file of your binary:
//   STREAMSIM_REGISTER_PROCESSOR("count", CountProcessor);
// Type may be a StatefulProcessor or an AsyncStatefulProcessor (async_processor.h).
// A processor that takes parameters registers with a Registrar of its own:
//   static const ProcessorRegistry::Registrar kCache("cache", {"ttl"}, makeCacheFactory);
// where makeCacheFactory(const ProcessorParams&) -> Result<ProcessorFactory>.
#define STREAMSIM_REGISTER_PROCESSOR(name, Type)                                  \
  static const ::streamsim::ProcessorRegistry::Registrar STREAMSIM_CONCAT(        \
      streamsim_processor_registrar_, __LINE__)(name, [] {                        \
    return ::streamsim::asStatefulProcessor(std::make_unique<Type>());                \
  })
