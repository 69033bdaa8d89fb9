// A trace event's fields, as the oracles read them from the JSON trace lines of committed batches.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace streamsim::harness {

// The integer field `field` of event `e`; `missing` when it is absent or not a number.
inline int64_t eventInt(const nlohmann::json& e, const char* field, int64_t missing = -1) {
  auto it = e.find(field);
  return it == e.end() || !it->is_number() ? missing : it->get<int64_t>();
}

// The event's grouping key as JSON text ("" when it has none): equal keys give equal strings.
inline std::string eventKey(const nlohmann::json& e) {
  auto it = e.find("key");
  return it == e.end() ? std::string() : it->dump();
}

}  // namespace streamsim::harness
