// One registry mechanism (issue 33 item 3): values by name — processors (tws/processor_registry.h,
// a ProcessorSet), reference functions and ForeachWriters (harness) — with one rule for
// a name added twice (the first value kept, every lookup of the name refused) and one shape of
// lookup error (the registry's own words, the names it knows). A value: whoever owns one decides
// who sees it; const use is safe from several threads.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/status.h"

namespace streamsim {

template <typename T>
class NamedRegistry {
 public:
  struct Texts {
    // The NotFound message for `name`, given the known names (sorted).
    std::function<std::string(std::string_view name, const std::vector<std::string>& known)> notFound;
    // The FailedPrecondition message for a name added `times` times.
    std::function<std::string(std::string_view name, int times)> addedTwice;
  };

  explicit NamedRegistry(Texts texts) : texts_(std::move(texts)) {}

  // Adds `value` under `name`; false when the name was there (its first value stays, and find()
  // refuses it from now on).
  bool add(std::string_view name, T value) {
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      entries_.emplace(std::string(name), Entry{std::move(value), 1});
      return true;
    }
    ++it->second.times;
    return false;
  }

  Result<const T*> find(std::string_view name) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) return Status::NotFound(texts_.notFound(name, names()));
    if (it->second.times > 1) return Status::FailedPrecondition(texts_.addedTwice(name, it->second.times));
    return &it->second.value;
  }

  bool has(std::string_view name) const { return entries_.find(name) != entries_.end(); }

  std::vector<std::string> names() const {  // sorted
    std::vector<std::string> out;
    for (const auto& [n, e] : entries_) out.push_back(n);
    return out;
  }

  // Each name added once, with its value.
  void forEach(const std::function<void(const std::string&, const T&)>& f) const {
    for (const auto& [n, e] : entries_)
      if (e.times == 1) f(n, e.value);
  }

 private:
  struct Entry {
    T value;
    int times = 0;
  };
  Texts texts_;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace streamsim
