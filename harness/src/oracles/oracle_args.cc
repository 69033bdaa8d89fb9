// The oracles' parameters (oracles/oracle_args.h).
#include "streamsim/harness/oracles/oracle_args.h"

namespace streamsim::harness {

void OracleArgs::set(std::string_view oracle, std::string_view param, OracleValue value) {
  auto it = byOracle_.find(oracle);
  if (it == byOracle_.end()) it = byOracle_.emplace(std::string(oracle), std::map<std::string, OracleValue, std::less<>>{}).first;
  it->second.insert_or_assign(std::string(param), std::move(value));
}

bool OracleArgs::has(std::string_view oracle) const { return byOracle_.find(oracle) != byOracle_.end(); }

const OracleValue* OracleArgs::find(std::string_view oracle, std::string_view param) const {
  auto o = byOracle_.find(oracle);
  if (o == byOracle_.end()) return nullptr;
  auto p = o->second.find(param);
  return p == o->second.end() ? nullptr : &p->second;
}

std::optional<int64_t> OracleArgs::integer(std::string_view oracle, std::string_view param) const {
  const OracleValue* v = find(oracle, param);
  if (v == nullptr || !std::holds_alternative<int64_t>(*v)) return std::nullopt;
  return std::get<int64_t>(*v);
}

std::string OracleArgs::text(std::string_view oracle, std::string_view param) const {
  const OracleValue* v = find(oracle, param);
  if (v == nullptr || !std::holds_alternative<std::string>(*v)) return "";
  return std::get<std::string>(*v);
}

const ReferenceFunction* OracleArgs::function(std::string_view oracle, std::string_view param) const {
  const OracleValue* v = find(oracle, param);
  if (v == nullptr || !std::holds_alternative<ReferenceFunction>(*v)) return nullptr;
  const ReferenceFunction& f = std::get<ReferenceFunction>(*v);
  return f ? &f : nullptr;
}

std::string OracleArgs::functionOracle() const {
  for (const auto& [oracle, params] : byOracle_)
    for (const auto& [param, value] : params)
      if (auto* f = std::get_if<ReferenceFunction>(&value); f != nullptr && *f) return oracle;
  return "";
}

bool operator==(const OracleArgs& a, const OracleArgs& b) {
  auto same = [](const OracleValue& x, const OracleValue& y) {
    if (x.index() != y.index()) return false;
    if (auto* f = std::get_if<ReferenceFunction>(&x)) return !*f && !std::get<ReferenceFunction>(y);
    if (auto* i = std::get_if<int64_t>(&x)) return *i == std::get<int64_t>(y);
    return std::get<std::string>(x) == std::get<std::string>(y);
  };
  if (a.byOracle_.size() != b.byOracle_.size()) return false;
  for (auto i = a.byOracle_.begin(), j = b.byOracle_.begin(); i != a.byOracle_.end(); ++i, ++j) {
    if (i->first != j->first || i->second.size() != j->second.size()) return false;
    for (auto p = i->second.begin(), q = j->second.begin(); p != i->second.end(); ++p, ++q)
      if (p->first != q->first || !same(p->second, q->second)) return false;
  }
  return true;
}

}  // namespace streamsim::harness
