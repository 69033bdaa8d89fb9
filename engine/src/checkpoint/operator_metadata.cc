// Operator state metadata v1/v2 (SEMANTICS.md §2, docs/checkpoint-format.md "state/<op>/_metadata").
#include "streamsim/checkpoint/operator_metadata.h"

#include <algorithm>

#include <fmt/format.h>

#include "checkpoint/json_util.h"
#include "streamsim/checkpoint/metadata_log.h"
#include "streamsim/json_nesting.h"

namespace streamsim {

namespace {

std::string propertiesJson(const OperatorMetadata& m) {
  if (!m.operatorPropertiesJson.empty()) return m.operatorPropertiesJson;
  if (!m.timeMode && !m.outputMode && m.stateVariables.empty()) return "";
  std::string out = "{";
  bool first = true;
  auto sep = [&] {
    if (!first) out.push_back(',');
    first = false;
  };
  if (m.timeMode) {
    sep();
    out += "\"timeMode\":" + detail::quoteJson(*m.timeMode);
  }
  if (m.outputMode) {
    sep();
    out += "\"outputMode\":" + detail::quoteJson(*m.outputMode);
  }
  sep();
  out += "\"stateVariables\":[";
  for (size_t i = 0; i < m.stateVariables.size(); ++i) {
    const auto& v = m.stateVariables[i];
    if (i) out.push_back(',');
    out += fmt::format("{{\"stateName\":{},\"stateVariableType\":{},\"ttlEnabled\":{}}}",
                       detail::quoteJson(v.stateName), detail::quoteJson(v.stateVariableType),
                       v.ttlEnabled ? "true" : "false");
  }
  out += "]}";
  return out;
}

// Fills timeMode/outputMode/stateVariables from operatorPropertiesJson when it holds them;
// Corruption when it is not a JSON object (Spark writes one: a restart could not read it).
Status parseProperties(OperatorMetadata& m, const std::string& path, int64_t lineNo) {
  if (m.operatorPropertiesJson.empty()) return Status::OK();
  auto j = parseJsonBounded<detail::OJson>(m.operatorPropertiesJson);
  if (j.is_discarded() || !j.is_object())
    return Status::Corruption(fmt::format("{}:{}: operatorPropertiesJson is not a JSON object: {}", path, lineNo,
                                          m.operatorPropertiesJson.substr(0, 120)));
  if (auto it = j.find("timeMode"); it != j.end() && it->is_string()) m.timeMode = it->get<std::string>();
  if (auto it = j.find("outputMode"); it != j.end() && it->is_string())
    m.outputMode = it->get<std::string>();
  auto vars = j.find("stateVariables");
  if (vars == j.end() || !vars->is_array()) return Status::OK();
  for (const auto& v : *vars) {
    if (!v.is_object()) continue;
    StateVariableMetadata sv;
    if (auto it = v.find("stateName"); it != v.end() && it->is_string()) sv.stateName = it->get<std::string>();
    if (auto it = v.find("stateVariableType"); it != v.end() && it->is_string())
      sv.stateVariableType = it->get<std::string>();
    if (auto it = v.find("ttlEnabled"); it != v.end() && it->is_boolean()) sv.ttlEnabled = it->get<bool>();
    m.stateVariables.push_back(std::move(sv));
  }
  return Status::OK();
}

}  // namespace

std::string serializeOperatorMetadata(const OperatorMetadata& m) {
  std::string out = fmt::format("v{}\n", m.version);
  out += fmt::format("{{\"operatorInfo\":{{\"operatorId\":{},\"operatorName\":{}}},\"stateStoreInfo\":[",
                     m.operatorId, detail::quoteJson(m.operatorName));
  for (size_t i = 0; i < m.stateStores.size(); ++i) {
    const auto& s = m.stateStores[i];
    if (i) out.push_back(',');
    out += fmt::format("{{\"storeName\":{},\"numColsPrefixKey\":{},\"numPartitions\":{}",
                       detail::quoteJson(s.storeName), s.numColsPrefixKey, s.numPartitions);
    if (m.version >= 2) out += ",\"stateSchemaFilePath\":" + detail::quoteJson(s.stateSchemaFilePath);
    out.push_back('}');
  }
  out.push_back(']');
  if (m.version >= 2) out += ",\"operatorPropertiesJson\":" + detail::quoteJson(propertiesJson(m));
  out.push_back('}');
  return out;
}

Result<OperatorMetadata> parseOperatorMetadata(std::string_view text, const std::string& path) {
  STREAMSIM_ASSIGN_OR_RETURN(auto file, splitLogFile(text, 2, path));
  if (file.lines.empty())
    return Status::Corruption(fmt::format(
        "{}:2: incomplete operator metadata: expected the JSON object after \"v{}\"", path,
        file.version));
  const LogLine& line = file.lines[0];
  std::string_view body = detail::trimView(line.text);
  STREAMSIM_ASSIGN_OR_RETURN(auto j, detail::parseJsonAt(body, path, line.lineNo,
                                                         "the operator metadata object"));
  OperatorMetadata m;
  m.version = file.version;
  m.rawJson = std::string(body);
  m.path = path;
  auto info = j.is_object() ? j.find("operatorInfo") : j.end();
  if (info == j.end() || !info->is_object())
    return Status::Corruption(fmt::format("{}:{}: missing object \"operatorInfo\" in {}", path,
                                          line.lineNo, std::string(body.substr(0, 120))));
  STREAMSIM_ASSIGN_OR_RETURN(m.operatorId, detail::requireInt(*info, "operatorId", path, line.lineNo));
  STREAMSIM_ASSIGN_OR_RETURN(m.operatorName,
                             detail::requireString(*info, "operatorName", path, line.lineNo));
  auto stores = j.find("stateStoreInfo");
  if (stores != j.end() && stores->is_array()) {
    for (const auto& s : *stores) {
      if (!s.is_object()) continue;
      StateStoreMetadataInfo si;
      if (auto it = s.find("storeName"); it != s.end() && it->is_string()) si.storeName = it->get<std::string>();
      STREAMSIM_ASSIGN_OR_RETURN(auto prefix, detail::optionalInt(s, "numColsPrefixKey", path, line.lineNo));
      si.numColsPrefixKey = static_cast<int>(prefix.value_or(0));
      STREAMSIM_ASSIGN_OR_RETURN(auto parts, detail::optionalInt(s, "numPartitions", path, line.lineNo));
      si.numPartitions = static_cast<int>(parts.value_or(0));
      if (auto it = s.find("stateSchemaFilePath"); it != s.end() && it->is_string())
        si.stateSchemaFilePath = it->get<std::string>();
      m.stateStores.push_back(std::move(si));
    }
  }
  if (auto it = j.find("operatorPropertiesJson"); it != j.end() && it->is_string())
    m.operatorPropertiesJson = it->get<std::string>();
  STREAMSIM_RETURN_IF_ERROR(parseProperties(m, path, line.lineNo));
  return m;
}

std::string operatorMetadataV1Path(const std::string& root, int64_t operatorId) {
  return joinPath(root, fmt::format("state/{}/_metadata/metadata", operatorId));
}

std::string operatorMetadataV2Path(const std::string& root, int64_t operatorId, int64_t batchId) {
  return joinPath(root, fmt::format("state/{}/_metadata/v2/{}", operatorId, batchId));
}

Result<std::optional<OperatorMetadata>> readOperatorMetadata(const Env& env, const std::string& root,
                                                             int64_t operatorId) {
  MetadataLogFiles v2(env, joinPath(root, fmt::format("state/{}/_metadata/v2", operatorId)));
  STREAMSIM_ASSIGN_OR_RETURN(auto ids, v2.listBatchIds());
  std::string path;
  std::optional<int64_t> batchId;
  if (!ids.empty()) {
    batchId = ids.back();
    path = v2.batchPath(ids.back());
  } else {
    path = operatorMetadataV1Path(root, operatorId);
    if (!env.fs->exists(path)) return std::optional<OperatorMetadata>();
  }
  STREAMSIM_ASSIGN_OR_RETURN(std::string text, env.fs->read(path));
  STREAMSIM_ASSIGN_OR_RETURN(auto m, parseOperatorMetadata(text, path));
  m.batchId = batchId;
  return std::optional<OperatorMetadata>(std::move(m));
}

Result<std::vector<OperatorMetadata>> readAllOperatorMetadata(const Env& env,
                                                              const std::string& root) {
  std::vector<OperatorMetadata> out;
  std::string stateDir = joinPath(root, "state");
  if (!env.fs->exists(stateDir)) return out;
  STREAMSIM_ASSIGN_OR_RETURN(auto entries, env.fs->list(stateDir));
  std::vector<int64_t> ops;
  for (const auto& e : entries)
    if (e.isDir)
      if (auto id = batchIdFromFileName(baseName(e.path), false)) ops.push_back(*id);
  std::sort(ops.begin(), ops.end());
  for (int64_t op : ops) {
    STREAMSIM_ASSIGN_OR_RETURN(auto m, readOperatorMetadata(env, root, op));
    if (m) out.push_back(std::move(*m));
  }
  return out;
}

}  // namespace streamsim
