// The table of scenario steps (streamsim/harness/scenario/step_table.h) and the two dispatches
// through it (steps.h). A step's parse and actions live in its own file under steps/.
#include "streamsim/harness/scenario/step_table.h"

#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "scenario/steps.h"

namespace streamsim::harness {
namespace detail {

// Each step's parse and actions (steps/<step>.cc).
PutStep parsePut(ParseContext&, const YAML::Node&, const YAML::Node&);
void putActions(StepActions&, const PutStep&, const SourceLocation&);
PutPartialStep parsePutPartial(ParseContext&, const YAML::Node&, const YAML::Node&);
void putPartialActions(StepActions&, const PutPartialStep&, const SourceLocation&);
ResendStep parseResend(ParseContext&, const YAML::Node&, const YAML::Node&);
void resendActions(StepActions&, const ResendStep&, const SourceLocation&);
TouchStep parseTouch(ParseContext&, const YAML::Node&, const YAML::Node&);
void touchActions(StepActions&, const TouchStep&, const SourceLocation&);
DeleteStep parseDelete(ParseContext&, const YAML::Node&, const YAML::Node&);
void deleteActions(StepActions&, const DeleteStep&, const SourceLocation&);
AddRowsStep parseAddRows(ParseContext&, const YAML::Node&, const YAML::Node&);
void addRowsActions(StepActions&, const AddRowsStep&, const SourceLocation&);
AdvanceStep parseAdvance(ParseContext&, const YAML::Node&, const YAML::Node&);
void advanceActions(StepActions&, const AdvanceStep&, const SourceLocation&);
RunStep parseRun(ParseContext&, const YAML::Node&, const YAML::Node&);
void runActions(StepActions&, const RunStep&, const SourceLocation&);
CrashStep parseCrash(ParseContext&, const YAML::Node&, const YAML::Node&);
void crashActions(StepActions&, const CrashStep&, const SourceLocation&);
RestartStep parseRestart(ParseContext&, const YAML::Node&, const YAML::Node&);
void restartActions(StepActions&, const RestartStep&, const SourceLocation&);
StopStep parseStop(ParseContext&, const YAML::Node&, const YAML::Node&);
void stopActions(StepActions&, const StopStep&, const SourceLocation&);
ExpectStep parseExpect(ParseContext&, const YAML::Node&, const YAML::Node&);
void expectActions(StepActions&, const ExpectStep&, const SourceLocation&);
ProduceStep parseProduce(ParseContext&, const YAML::Node&, const YAML::Node&);
void produceActions(StepActions&, const ProduceStep&, const SourceLocation&);

namespace {

// The alternative of StepVariant that holds a T (a compile error when none does).
template <class T, size_t I = 0>
constexpr size_t alternative() {
  static_assert(I < std::variant_size_v<StepVariant>, "a step of the table is not in StepVariant");
  if constexpr (std::is_same_v<std::variant_alternative_t<I, StepVariant>, T>) {
    return I;
  } else {
    return alternative<T, I + 1>();
  }
}

// A row: the step's typed parse and actions behind the table's variant-wide signatures.
template <class T, T (*Parse)(ParseContext&, const YAML::Node&, const YAML::Node&),
          void (*ToActions)(StepActions&, const T&, const SourceLocation&)>
StepKind row(std::string_view name, StepRole role, std::string_view example) {
  return StepKind{
      name, alternative<T>(),
      [](ParseContext& pc, const YAML::Node& key, const YAML::Node& value) -> StepVariant {
        return Parse(pc, key, value);
      },
      [](StepActions& a, const StepVariant& step, const SourceLocation& at) {
        ToActions(a, std::get<T>(step), at);
      },
      example, role};
}

}  // namespace
}  // namespace detail

const std::vector<StepKind>& stepTable() {
  using namespace detail;
  static const std::vector<StepKind> kTable = {
      row<PutStep, parsePut, putActions>("put", StepRole::kData, "{path: /landing/a.json, rows: [{id: a}]}"),
      row<PutPartialStep, parsePutPartial, putPartialActions>(
          "put_partial", StepRole::kData, "{path: /landing/b.json, rows: [{id: b}], fraction: 0.5}"),
      row<ResendStep, parseResend, resendActions>("resend", StepRole::kData, "{from: /landing/a.json, to: /landing/c.json}"),
      row<TouchStep, parseTouch, touchActions>("touch", StepRole::kData, "{path: /landing/a.json, mtime: \"2026-01-01T00:00:00Z\"}"),
      row<DeleteStep, parseDelete, deleteActions>("delete", StepRole::kData, "/landing/a.json"),
      row<AddRowsStep, parseAddRows, addRowsActions>("add_rows", StepRole::kData, "{source: 1, rows: [{id: a}]}"),
      row<AdvanceStep, parseAdvance, advanceActions>("advance", StepRole::kTime, "10m"),
      row<RunStep, parseRun, runActions>("run", StepRole::kControl, "available"),
      row<CrashStep, parseCrash, crashActions>("crash", StepRole::kControl, "{at: commits.after_write, batch: 0}"),
      row<RestartStep, parseRestart, restartActions>("restart", StepRole::kControl, "{}"),
      row<StopStep, parseStop, stopActions>("stop", StepRole::kControl, "{}"),
      row<ExpectStep, parseExpect, expectActions>("expect", StepRole::kCheck, "{sink: []}"),
      row<ProduceStep, parseProduce, produceActions>("produce", StepRole::kData, "{topic: t, records: [{value: x}]}"),
  };
  return kTable;
}

const StepKind* stepKindOf(size_t index) {
  for (const StepKind& k : stepTable())
    if (k.index == index) return &k;
  return nullptr;
}

const StepKind* stepKindNamed(std::string_view name) {
  for (const StepKind& k : stepTable())
    if (k.name == name) return &k;
  return nullptr;
}

std::string_view Step::kindName() const {
  const StepKind* k = stepKindOf(step.index());
  return k != nullptr ? k->name : std::string_view();
}

namespace detail {

void parseSteps(ParseContext& pc, const YAML::Node& n, Scenario& sc) {
  if (n.IsNull()) return;
  if (!pc.expectList(n, "steps")) return;
  std::vector<std::string> kinds;
  for (const StepKind& k : stepTable()) kinds.emplace_back(k.name);
  for (const auto& item : n) {
    if (!item.IsMap() || item.size() != 1) {
      pc.error(item, fmt::format("a step is a map with one key, one of {}; got {}", joinNames(kinds),
                                 item.IsMap() ? fmt::format("{} keys", item.size())
                                              : std::string(nodeTypeName(item))));
      continue;
    }
    auto it = item.begin();
    const YAML::Node key = it->first;
    const YAML::Node v = it->second;
    std::string kind = key.IsScalar() ? key.Scalar() : "";
    const StepKind* row = stepKindNamed(kind);
    if (row == nullptr) {
      pc.error(key, fmt::format("unknown step '{}'; expected one of {}", kind, joinNames(kinds)));
      continue;
    }
    Step step;
    step.where = pc.loc(key);
    step.step = row->parse(pc, key, v);
    sc.steps.push_back(std::move(step));
  }
}

void addStepActions(StepActions& actions, const Step& step) {
  const StepKind* kind = stepKindOf(step.step.index());
  actions.beginStep(kind->name);
  kind->toActions(actions, step.step, step.where);
}

}  // namespace detail
}  // namespace streamsim::harness
