// The parameters a run's oracles were named with (issue 33 item 2): one map, oracle name ->
// parameter -> value, that a scenario's `oracles:` list fills (each oracle parses its own form:
// harness/src/oracles/units/) and a C++ program sets (WorkloadConfig::oracleArgs). The oracles read
// their own entries; Scenario, WorkloadConfig and OracleInput hold no oracle's field. Values; safe
// from several threads.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "streamsim/harness/oracles/reference.h"

namespace streamsim::harness {

// A number (a bound, a duration in ms), a text (a reference's name) or a function of this
// program (a C++ reference function; a replay line cannot carry it).
using OracleValue = std::variant<int64_t, std::string, ReferenceFunction>;

class OracleArgs {
 public:
  void set(std::string_view oracle, std::string_view param, OracleValue value);
  // Whether the oracle was given any parameter.
  bool has(std::string_view oracle) const;
  // The parameter's number / text / function (nullopt, "" or null when unset or of another type).
  std::optional<int64_t> integer(std::string_view oracle, std::string_view param) const;
  std::string text(std::string_view oracle, std::string_view param) const;
  const ReferenceFunction* function(std::string_view oracle, std::string_view param) const;
  // The first oracle whose parameter is a function ("" when none): what a replay line cannot name.
  std::string functionOracle() const;
  // Equal oracles, parameters and values; a function equals only another unset one.
  friend bool operator==(const OracleArgs& a, const OracleArgs& b);

 private:
  const OracleValue* find(std::string_view oracle, std::string_view param) const;
  std::map<std::string, std::map<std::string, OracleValue, std::less<>>, std::less<>> byOracle_;
};

}  // namespace streamsim::harness
