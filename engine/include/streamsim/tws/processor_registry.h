// Processors by name, for scenarios and the CLI ("processor: count"): a ProcessorSet is a value
// its owner builds by explicit add() calls and hands to the runs that may use it; there is no
// process-wide set. Const lookups are safe from several threads.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/named_registry.h"
#include "streamsim/status.h"
#include "streamsim/time.h"
#include "streamsim/tws/async_processor.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim {

// Parameters a scenario hands to a registered processor (`params:` in YAML, `ttl:`), as text:
// the processor's parameter factory parses them ("1m" through parseDuration, ...).
using ProcessorParams = std::map<std::string, std::string, std::less<>>;
// A positive duration parameter ("1m", "250ms"); `fallback` when absent; InvalidArgument naming
// the parameter for another value. What a parameter factory reads its durations with.
Result<DurationMs> durationParam(const ProcessorParams& params, std::string_view name, DurationMs fallback);

// Checks the parameters once (InvalidArgument naming the bad one) and returns the factory of
// instances built with them.
using ProcessorParamFactory = std::function<Result<ProcessorFactory>(const ProcessorParams&)>;

// Builds a processor's factory: called when the processor is added and again by
// ProcessorSet::fresh(), so that what a factory captures (a cache shared by its instances) starts
// anew.
using ProcessorFactoryMaker = std::function<ProcessorFactory()>;

// A processor as a set holds it: its factory, how to make it anew, the parameters it takes.
struct ProcessorDefinition {
  ProcessorFactory factory;          // the defaults' (null: the defaults fail)
  ProcessorFactoryMaker maker;       // null: added with a plain factory or parameters
  std::vector<std::string> paramNames;
  ProcessorParamFactory paramFactory;  // null: the processor takes no parameters
};

// What a processor promises about its results, declared where its set gets it
// (ProcessorSet::promise), so the oracles that check a promise (harness oracles/promises.h) turn
// on for every scenario whose query lets it hold -- for this set's processor of that name, not for
// another program's processor that happens to share the name.
struct ProcessorPromises {
  // Each grouping key's last output row does not depend on how its input is cut into batches
  // (oracle batch_split).
  bool splitInvariant = false;
  // A key never holds more than this many pending timers (oracle {timer_bound: N}).
  std::optional<int64_t> timersPerKey;
  // The final view is this reference function of the rows the source delivered (oracle
  // {reference: NAME}; a name the run's references hold: harness RunRegistries::references).
  std::string reference;
};

// The processors of one run context (issue 33 item 3): name -> definition, a value the program
// that runs scenarios builds and hands its runs (harness RunRegistries::processors, a run's
// ScenarioRunOptions::processors) -- nothing process-wide. The CLI and the Python module add the
// example processors (registerExampleProcessors) and the bug-class ones; a project's runner adds
// its own (streamsim_add_runner ... REGISTER); a test builds the set it needs. A name added twice
// is refused on lookup (NamedRegistry's rule). A value; const use is safe from several threads.
class ProcessorSet {
 public:
  ProcessorSet();
  void add(std::string_view name, ProcessorFactory factory);
  // A processor whose factory captures something (a cache shared by its instances).
  void add(std::string_view name, ProcessorFactoryMaker make);
  // A processor that takes parameters: their names, and the factory that reads them (called with
  // an empty map for the defaults).
  void add(std::string_view name, std::vector<std::string> paramNames, ProcessorParamFactory factory);

  // The factory of the processor added as `name`; NotFound lists the known names.
  Result<ProcessorFactory> factory(std::string_view name) const;
  // The factory with `params` (none: as factory(name)). InvalidArgument for a parameter the
  // processor does not take (naming those it takes) or a value its factory refuses.
  Result<ProcessorFactory> factory(std::string_view name, const ProcessorParams& params) const;
  // The parameter names `name` takes (empty: none); NotFound as factory().
  Result<std::vector<std::string>> paramNames(std::string_view name) const;
  // A new instance of `name`.
  Result<std::unique_ptr<StatefulProcessor>> create(std::string_view name) const;
  bool has(std::string_view name) const { return defs_.has(name); }
  // Declares what the processor `name` promises (the last declaration wins); promises(name) holds
  // it while the set holds `name` once.
  void promise(std::string_view name, ProcessorPromises promises);
  // What `name` promised; none for a name not in the set, added twice, or that promised nothing.
  std::optional<ProcessorPromises> promises(std::string_view name) const;
  std::vector<std::string> names() const { return defs_.names(); }  // sorted

  // This set with every factory made anew by its maker or its parameter factory (defaults); a
  // processor added with a plain ProcessorFactory keeps that one (it cannot be rebuilt; a `static`
  // inside a processor is not reset either). The process_isolation oracle runs a case with these
  // (ScenarioRunOptions::processors). A name added twice stays refused; the promises stay.
  ProcessorSet fresh() const;

 private:
  Result<const ProcessorDefinition*> find(std::string_view name) const;
  NamedRegistry<ProcessorDefinition> defs_;
  std::map<std::string, ProcessorPromises, std::less<>> promises_;
};

// A processor with parameters, returned by a function of its file and added to a set by the file's
// registration function (a value: making one adds it nowhere).
struct ParamProcessor {
  std::string_view name;
  std::vector<std::string> paramNames;
  ProcessorParamFactory factory;
  void addTo(ProcessorSet& set) const { set.add(name, paramNames, factory); }
};

// The processor T as a set holds it: set.add("count", processorFactoryOf<CountProcessor>()).
// T may be a StatefulProcessor or an AsyncStatefulProcessor (async_processor.h).
template <class T>
ProcessorFactory processorFactoryOf() {
  return [] { return asStatefulProcessor(std::make_unique<T>()); };
}

}  // namespace streamsim
