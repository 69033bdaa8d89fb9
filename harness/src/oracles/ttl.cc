// The ttl oracle's check (oracles.h: checkTtl): a model of every TTL'd value, list element and map
// entry, fed the committed batches' tws.ttl_* events in order. Per batch: each read is checked
// against the model (no expired value returned, no unexpired one lost), then what expired at the
// batch's timestamp must be what the engine removed in that batch (tws.ttl_expired counts).
#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "oracles/trace_fields.h"
#include "streamsim/harness/oracles.h"
#include "streamsim/trace_events.h"

namespace streamsim::harness {
namespace {

struct TtlEntry {
  TimeMs expiresAt = 0;
  std::string line;  // the trace line that wrote it
};
using VarKey = std::tuple<int64_t, std::string, std::string>;  // (operator, key, state)
using TtlOperatorVariable = std::pair<int64_t, std::string>;

// The expiries a list read or map iteration event returned, ascending.
std::vector<TimeMs> returnedExpiries(const nlohmann::json& e) {
  std::vector<TimeMs> out;
  auto it = e.find("expiresAt");
  if (it != e.end() && it->is_array())
    for (const auto& x : *it)
      if (x.is_number_integer()) out.push_back(x.get<int64_t>());
  std::sort(out.begin(), out.end());
  return out;
}

std::string expiryText(const std::vector<TimeMs>& v) { return fmt::format("[{}]", fmt::join(v, ",")); }

class TtlModel {
 public:
  // One committed batch against the model: its first violation, or none.
  std::optional<Violation> batch(const CommittedBatch& b);

 private:
  // A ValueState event (write, clear, read).
  std::optional<Violation> valueEvent(const CommittedBatch& b, size_t i, const std::string& ev, const VarKey& k);
  // A ListState event (write, clear, read).
  std::optional<Violation> listEvent(const CommittedBatch& b, size_t i, const std::string& ev, const VarKey& k);
  // A MapState event (write, remove, clear, iteration, read of one entry).
  std::optional<Violation> mapEvent(const CommittedBatch& b, size_t i, const std::string& ev, const VarKey& k);
  // What a list read or map iteration returned against the model's unexpired elements.
  std::optional<Violation> collectionRead(const CommittedBatch& b, size_t i, const std::string& what,
                                          const std::vector<const TtlEntry*>& model) const;
  // The batch's end: the model's expired values leave it, and the engine must have removed at
  // least as many per (operator, state).
  std::optional<Violation> expiredAreRemoved(const CommittedBatch& b, bool sawTtl);

  TimeMs now_ = 0;                          // the batch timestamp
  std::map<TtlOperatorVariable, int64_t> removed_;  // the engine's tws.ttl_expired counts this batch
  std::map<VarKey, TtlEntry> values_;       // ValueState: the live value's expiry
  std::map<VarKey, std::vector<TtlEntry>> lists_;  // ListState: each live element (put replaces)
  std::map<VarKey, std::map<std::string, TtlEntry>> maps_;  // MapState: by user key (hex)
};

std::optional<Violation> TtlModel::batch(const CommittedBatch& b) {
  now_ = b.timestamp;
  removed_.clear();
  bool sawTtl = false;
  for (size_t i = 0; i < b.events.size(); ++i) {
    const auto& e = b.events[i];
    const std::string ev = e.value("event", "");
    if (ev.compare(0, 8, "tws.ttl_") != 0) continue;
    sawTtl = true;
    const VarKey k = std::make_tuple(eventInt(e, "operator"), eventKey(e), e.value("state", ""));
    std::optional<Violation> v;
    if (ev == events::kTtlWrite || ev == events::kTtlClear || ev == events::kTtlRead)
      v = valueEvent(b, i, ev, k);
    else if (ev == events::kTtlListWrite || ev == events::kTtlListClear || ev == events::kTtlListRead)
      v = listEvent(b, i, ev, k);
    else if (ev == events::kTtlExpired)
      removed_[{std::get<0>(k), std::get<2>(k)}] += eventInt(e, "count", 0);
    else
      v = mapEvent(b, i, ev, k);
    if (v) return v;
  }
  return expiredAreRemoved(b, sawTtl);
}

std::optional<Violation> TtlModel::valueEvent(const CommittedBatch& b, size_t i, const std::string& ev,
                                              const VarKey& k) {
  const auto& e = b.events[i];
  const std::string& state = std::get<2>(k);
  if (ev == events::kTtlWrite) {
    values_[k] = TtlEntry{eventInt(e, "expiresAt"), b.lines[i]};
    return std::nullopt;
  }
  if (ev == events::kTtlClear) {
    values_.erase(k);
    return std::nullopt;
  }
  const bool returned = e.value("returned", false);
  const int64_t exp = eventInt(e, "expiresAt");
  auto it = values_.find(k);
  if (returned && exp >= 0 && exp <= now_)
    return Violation{"ttl", b.batch, eventKey(e),
                     fmt::format("a read of '{}' returned a value that expired at {} (batch timestamp {})",
                                 state, exp, now_),
                     {b.lines[i]}};
  if (!returned && it != values_.end() && it->second.expiresAt > now_)
    return Violation{"ttl", b.batch, eventKey(e),
                     fmt::format("a read of '{}' found nothing, but a value written with expiry {} (later "
                                 "than the batch timestamp {}) was never cleared",
                                 state, it->second.expiresAt, now_),
                     {it->second.line, b.lines[i]}};
  if (returned && it == values_.end())
    return Violation{"ttl", b.batch, eventKey(e),
                     fmt::format("a read of '{}' returned a value that was cleared or expired and removed "
                                 "earlier", state),
                     {b.lines[i]}};
  return std::nullopt;
}

std::optional<Violation> TtlModel::listEvent(const CommittedBatch& b, size_t i, const std::string& ev,
                                             const VarKey& k) {
  const auto& e = b.events[i];
  if (ev == events::kTtlListWrite) {
    auto& list = lists_[k];
    if (e.value("mode", "") == "put") list.clear();
    for (int64_t n = eventInt(e, "count", 0); n > 0; --n) list.push_back(TtlEntry{eventInt(e, "expiresAt"), b.lines[i]});
    return std::nullopt;
  }
  if (ev == events::kTtlListClear) {
    lists_.erase(k);
    return std::nullopt;
  }
  std::vector<const TtlEntry*> model;
  if (auto it = lists_.find(k); it != lists_.end())
    for (const TtlEntry& x : it->second) model.push_back(&x);
  return collectionRead(b, i, "list", model);
}

std::optional<Violation> TtlModel::mapEvent(const CommittedBatch& b, size_t i, const std::string& ev,
                                            const VarKey& k) {
  const auto& e = b.events[i];
  const std::string& state = std::get<2>(k);
  if (ev == events::kTtlMapWrite) {
    maps_[k][e.value("userKey", "")] = TtlEntry{eventInt(e, "expiresAt"), b.lines[i]};
  } else if (ev == events::kTtlMapRemove) {
    if (auto it = maps_.find(k); it != maps_.end()) it->second.erase(e.value("userKey", ""));
  } else if (ev == events::kTtlMapClear) {
    maps_.erase(k);
  } else if (ev == events::kTtlMapIter) {
    std::vector<const TtlEntry*> model;
    if (auto it = maps_.find(k); it != maps_.end())
      for (const auto& [uk, x] : it->second) model.push_back(&x);
    return collectionRead(b, i, "map", model);
  } else if (ev == events::kTtlMapRead) {
    const std::string userKey = e.value("userKey", "");
    const bool returned = e.value("returned", false);
    const int64_t exp = eventInt(e, "expiresAt");
    const TtlEntry* m = nullptr;
    if (auto it = maps_.find(k); it != maps_.end())
      if (auto jt = it->second.find(userKey); jt != it->second.end()) m = &jt->second;
    if (returned && exp >= 0 && exp <= now_)
      return Violation{"ttl", b.batch, eventKey(e),
                       fmt::format("a read of map '{}' entry {} returned a value that expired at {} (batch "
                                   "timestamp {})", state, userKey, exp, now_),
                       {b.lines[i]}};
    if (!returned && m && m->expiresAt > now_)
      return Violation{"ttl", b.batch, eventKey(e),
                       fmt::format("a read of map '{}' entry {} found nothing, but it was written with "
                                   "expiry {} (later than the batch timestamp {}) and never removed",
                                   state, userKey, m->expiresAt, now_),
                       {m->line, b.lines[i]}};
    if (returned && !m)
      return Violation{"ttl", b.batch, eventKey(e),
                       fmt::format("a read of map '{}' entry {} returned a value that was removed, cleared or "
                                   "expired and removed earlier", state, userKey),
                       {b.lines[i]}};
  }
  return std::nullopt;
}

std::optional<Violation> TtlModel::collectionRead(const CommittedBatch& b, size_t i, const std::string& what,
                                                  const std::vector<const TtlEntry*>& model) const {
  const auto& e = b.events[i];
  const std::string state = e.value("state", "");
  std::vector<TimeMs> got = returnedExpiries(e);
  for (TimeMs t : got)
    if (t >= 0 && t <= now_)
      return Violation{"ttl", b.batch, eventKey(e),
                       fmt::format("a read of {} '{}' returned an element that expired at {} (batch timestamp {})",
                                   what, state, t, now_),
                       {b.lines[i]}};
  std::vector<TimeMs> want;
  std::vector<std::string> lines;
  for (const TtlEntry* m : model)
    if (m->expiresAt > now_) {
      want.push_back(m->expiresAt);
      if (lines.empty()) lines.push_back(m->line);
    }
  std::sort(want.begin(), want.end());
  if (got == want) return std::nullopt;
  lines.push_back(b.lines[i]);
  std::vector<TimeMs> missing, extra;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
  if (!missing.empty())
    return Violation{"ttl", b.batch, eventKey(e),
                     fmt::format("a read of {} '{}' lost unexpired element(s) with expiry {} (batch timestamp "
                                 "{}): returned {}, expected {}",
                                 what, state, expiryText(missing), now_, expiryText(got), expiryText(want)),
                     lines};
  return Violation{"ttl", b.batch, eventKey(e),
                   fmt::format("a read of {} '{}' returned element(s) with expiry {} that were never written, or "
                               "were cleared or removed: returned {}, expected {}",
                               what, state, expiryText(extra), expiryText(got), expiryText(want)),
                   lines};
}

std::optional<Violation> TtlModel::expiredAreRemoved(const CommittedBatch& b, bool sawTtl) {
  std::map<TtlOperatorVariable, int64_t> expected;
  std::map<TtlOperatorVariable, std::string> example;
  auto expire = [&](const VarKey& vk, const TtlEntry& x) {
    TtlOperatorVariable k{std::get<0>(vk), std::get<2>(vk)};
    ++expected[k];
    if (!example.count(k)) example[k] = std::get<1>(vk) + " (" + x.line + ")";
  };
  for (auto it = values_.begin(); it != values_.end();) {
    if (it->second.expiresAt <= now_) {
      expire(it->first, it->second);
      it = values_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = lists_.begin(); it != lists_.end();) {
    std::erase_if(it->second, [&](const TtlEntry& x) {
      if (x.expiresAt > now_) return false;
      expire(it->first, x);
      return true;
    });
    it = it->second.empty() ? lists_.erase(it) : std::next(it);
  }
  for (auto it = maps_.begin(); it != maps_.end();) {
    std::erase_if(it->second, [&](const auto& kv) {
      if (kv.second.expiresAt > now_) return false;
      expire(it->first, kv.second);
      return true;
    });
    it = it->second.empty() ? maps_.erase(it) : std::next(it);
  }
  if (!sawTtl && expected.empty()) return std::nullopt;
  for (const auto& [k, n] : expected) {
    const int64_t got = removed_.count(k) ? removed_[k] : 0;
    if (got < n)
      return Violation{"ttl", b.batch, "",
                       fmt::format("{} value(s) of '{}' expired at or before {} but the batch removed only {} "
                                   "(e.g. key {})",
                                   n, k.second, now_, got, example[k]),
                       {}};
  }
  return std::nullopt;
}

}  // namespace

std::optional<Violation> checkTtl(const std::vector<CommittedBatch>& batches) {
  TtlModel model;
  for (const CommittedBatch& b : batches)
    if (auto v = model.batch(b)) return v;
  return std::nullopt;
}

}  // namespace streamsim::harness
