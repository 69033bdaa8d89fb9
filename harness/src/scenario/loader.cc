// The scenario loader: YAML (yaml-cpp) -> Scenario, with every error located (file:line:col) and
// explained. Keys and forms are documented in docs/scenarios.md; keep the two in step. The file's
// parts are read by scenario/parse_query.cc (query), the step table (step_table.cc and steps/)
// and parse_oracles.cc (oracles, sweep, services), all with one ParseContext (parse_context.h).
#include <filesystem>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "scenario/parse_context.h"
#include "scenario/parse_oracles.h"
#include "scenario/parse_query.h"
#include "scenario/steps.h"
#include "streamsim/harness/checkpoint_replay.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/platform/platform.h"
#include "yaml_documents.h"

namespace streamsim::harness {

std::string SourceLocation::toString() const {
  if (line <= 0) return file;
  return fmt::format("{}:{}:{}", file, line, column);
}

std::string ScenarioError::toString() const {
  return fmt::format("{}: {}", where.toString(), message);
}

std::string ScenarioLoad::errorText() const {
  std::string out;
  for (const auto& e : errors) {
    out += e.toString();
    out += '\n';
  }
  return out;
}

Result<Row> RowSpec::toRow(const Schema& schema) const {
  std::vector<Value> values(schema.size());
  for (const auto& [name, value] : fields) {
    int i = schema.indexOf(name);
    if (i < 0) {
      return Status::InvalidArgument(
          fmt::format("column '{}' is not in the schema ({})", name, schema.toDDL()));
    }
    if (value.isNull()) continue;
    auto cast = value.castTo(schema.field(i));
    if (!cast.ok()) {
      return Status::InvalidArgument(fmt::format("column '{}': value '{}' is not a {}: {}", name,
                                                 value.toString(),
                                                 typeName(schema.field(i).type),
                                                 cast.status().message()));
    }
    values[i] = std::move(cast).value();
  }
  return Row(std::make_shared<const Schema>(schema), std::move(values));
}

Row RowSpec::toRow() const { return Row::fromNamed(fields); }

namespace {

using detail::nodeTypeName;
using detail::ParseContext;

// A second YAML document after the scenario's (yaml-cpp's Load would drop it silently).
void secondDocument(ParseContext& pc, std::string_view text, YAML::Mark m) {
  if (m.line < 0) {  // an empty document has no mark: point at its `---`
    m = YAML::Mark();
    size_t at = 0;
    for (int line = 0, seen = 0; at < text.size(); ++line) {
      if (text.substr(at, 3) == "---" && ++seen == (text.substr(0, 3) == "---" ? 2 : 1)) {
        m.line = line;
        m.column = 0;
        break;
      }
      size_t nl = text.find('\n', at);
      if (nl == std::string_view::npos) break;
      at = nl + 1;
    }
  }
  pc.error(m, "a scenario file holds one YAML document; a second one starts here (remove the "
           "'---' or put it in a file of its own)");
}

// Every key that a map names twice (yaml-cpp keeps both and `node[key]` finds the first, so
// a second `steps:` would be ignored), at the repeated key.
void duplicateKeys(ParseContext& pc, const YAML::Node& n, int depth = 0) {
  if (depth > 200) return;  // yaml-cpp's own parse bounds the depth well below this
  if (n.IsSequence()) {
    for (const auto& item : n) duplicateKeys(pc, item, depth + 1);
  } else if (n.IsMap()) {
    std::map<std::string, int> first;
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (it->first.IsScalar()) {
        auto [at, fresh] = first.emplace(it->first.Scalar(), it->first.Mark().line + 1);
        if (!fresh)
          pc.error(it->first, fmt::format("duplicate key '{}' (first at line {}); a key appears "
                                          "once in a map", it->first.Scalar(), at->second));
      }
      duplicateKeys(pc, it->second, depth + 1);
    }
  }
}

// `from_checkpoint: {path: DIR, batch: K}` (checkpoint_replay.h's checkpointStartFiles): the files
// read now, typed by the transformWithState operator's grouping columns in the source's schema.
void parseFromCheckpoint(ParseContext& pc, const YAML::Node& n, Scenario& sc) {
  if (!pc.expectMap(n, "from_checkpoint")) return;
  pc.checkKeys(n, "from_checkpoint", {"path", "batch"});
  if (!n["path"] || !n["batch"]) {
    pc.error(n, "from_checkpoint needs path (a checkpoint folder) and batch (a committed batch to start after)");
    return;
  }
  Scenario::CheckpointStartSpec spec;
  std::filesystem::path path(pc.str(n["path"], "from_checkpoint.path"));
  if (path.is_relative()) path = std::filesystem::path(pc.file()).parent_path() / path;
  spec.path = path.lexically_normal().string();
  spec.batch = pc.integer(n["batch"], "from_checkpoint.batch", 0);
  const TransformWithStateOp* tws = nullptr;
  for (const auto& op : sc.query.operators)
    if (const auto* t = std::get_if<TransformWithStateOp>(&op.op)) tws = t;
  if (tws == nullptr || sc.query.sources.size() != 1 || !sc.query.sources[0].schema) {
    pc.error(n, "from_checkpoint continues a transformWithState query: the scenario needs one source with a "
                "schema and a groupBy + transformWithState operator");
    return;
  }
  const Schema& input = *sc.query.sources[0].schema;
  std::vector<Field> key;
  for (const auto& c : tws->groupBy) {
    const int i = input.indexOf(c);
    if (i < 0) {
      pc.error(n, fmt::format("from_checkpoint: grouping column {} is not in the source's schema ({}); the state's "
                              "keys are typed by it", c, input.toDDL()));
      return;
    }
    key.push_back(input.field(static_cast<size_t>(i)));
  }
  platform::RealEnv real;
  auto start = checkpointStartFiles(real.env(), spec.path, spec.batch, Schema(std::move(key)), sc.query.stateStore);
  if (!start.ok()) {
    pc.error(n, fmt::format("from_checkpoint: {}", start.status().message()));
    return;
  }
  spec.files = std::move(start->files);
  spec.stateLoaded = std::move(start->stateLoaded);
  sc.fromCheckpoint = std::move(spec);
}

ScenarioLoad parse(ParseContext& pc, std::string_view text) {
  ScenarioLoad out;
  YAML::Node root;
  try {
    YamlDocuments docs = readYamlDocuments(text);
    if (docs.stuck) {
      size_t at = static_cast<size_t>(docs.stuck->pos);
      pc.error(*docs.stuck, fmt::format("not valid YAML: a document cannot start with '{}'",
                                        at < text.size() ? text.substr(at, 1) : ""));
      out.errors = pc.takeErrors();
      return out;
    }
    root = docs.first;
    if (docs.second) secondDocument(pc, text, *docs.second);
  } catch (const YAML::Exception& e) {
    pc.error(e.mark, fmt::format("not valid YAML: {}", e.msg));
    out.errors = pc.takeErrors();
    return out;
  }
  duplicateKeys(pc, root);
  Scenario sc;
  sc.file = pc.file();
  sc.registries = pc.options().registries;
  auto start = parseTimestamp("2026-01-01T00:00:00Z");
  sc.start = start.ok() ? *start : 0;
  if (!root.IsMap()) {
    // An empty file (or only comments) has no node to point at: its line 1.
    pc.error(root.Mark().line >= 0 ? root.Mark() : YAML::Mark(),
             fmt::format("a scenario file must be a map with keys name, query, steps; got {}",
                         nodeTypeName(root)));
  } else {
    pc.checkKeys(root, "the scenario",
                 {"name", "description", "start", "query", "steps", "oracles", "sweep", "services",
                  "from_checkpoint"});
    if (auto n = root["name"]; n) {
      sc.name = pc.str(n, "name");
    } else {
      pc.error(root, "missing key 'name' (one line saying what the scenario shows)");
    }
    if (auto n = root["description"]; n) sc.description = pc.str(n, "description");
    if (auto n = root["start"]; n) sc.start = pc.timestamp(n, "start");
    if (auto n = root["query"]; n) {
      pc.setQueryNode(n);
      parseQuery(pc, n, sc.query);
      pc.setSinkKind(sc.query.sink.kind);
    } else {
      pc.error(root, "missing key 'query' (source, operators, sink, ...)");
    }
    if (auto n = root["steps"]; n) {
      parseSteps(pc, n, sc);
    } else {
      pc.error(root, "missing key 'steps' (the list of put/run/expect/... steps)");
    }
    if (auto n = root["oracles"]; n) parseOracles(pc, n, sc);
    if (auto n = root["sweep"]; n) sc.sweep = parseSweep(pc, n);
    if (auto n = root["services"]; n) parseServices(pc, n, sc);
    if (auto n = root["from_checkpoint"]; n && !pc.hasErrors()) parseFromCheckpoint(pc, n, sc);
  }
  out.errors = pc.takeErrors();
  if (out.errors.empty()) out.scenario = std::move(sc);
  return out;
}

}  // namespace

ScenarioLoad parseScenario(std::string_view yaml, const std::string& fileName,
                           const LoaderOptions& options) {
  ParseContext pc(fileName, options);
  return parse(pc, yaml);
}

ScenarioLoad loadScenarioFile(const std::string& path, const LoaderOptions& options) {
  // A FIFO, a device or a huge file is refused before it is read (platform::readInputFile).
  auto text = platform::readInputFile(path, platform::kMaxSourceFileBytes);
  if (!text.ok()) {
    ScenarioLoad out;
    out.errors.push_back({SourceLocation{path, 0, 0},
                          text.status().code() == Status::Code::kNotFound
                              ? std::string("cannot open the scenario file")
                              : text.status().message()});
    return out;
  }
  return parseScenario(*text, path, options);
}

Result<Scenario> loadScenario(const std::string& path, const LoaderOptions& options) {
  ScenarioLoad load = loadScenarioFile(path, options);
  if (!load.ok()) {
    std::string text = load.errorText();
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return Status::InvalidArgument(text);
  }
  return std::move(*load.scenario);
}

std::vector<const QuerySpec*> scenarioQueries(const Scenario& scenario) {
  std::vector<const QuerySpec*> out = {&scenario.query};
  for (const Step& st : scenario.steps)
    if (auto* r = std::get_if<RestartStep>(&st.step); r != nullptr && r->query) out.push_back(&*r->query);
  return out;
}

bool runsRealTime(const Scenario& scenario) {
  for (const QuerySpec* q : scenarioQueries(scenario))
    if (q->trigger.kind == TriggerSpec::Kind::kRealTime) return true;
  return false;
}

bool overrideStateStore(Scenario& scenario, const std::string& store) {
  if (runsRealTime(scenario)) return false;
  scenario.query.stateStore = store;
  for (Step& st : scenario.steps)
    if (auto* r = std::get_if<RestartStep>(&st.step); r != nullptr && r->query) r->query->stateStore = store;
  return true;
}

}  // namespace streamsim::harness
