// The ForeachWriter registry (foreach_writers.h): filled during static initialisation, read-only
// afterwards.
#include "streamsim/harness/foreach_writers.h"

#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace streamsim::harness {
namespace {
struct Entry {
  ForeachWriterFactory factory;
  int registrations = 0;
};
std::map<std::string, Entry, std::less<>>& entries() {
  static std::map<std::string, Entry, std::less<>> m;
  return m;
}
}  // namespace

ForeachWriterRegistry::Registrar::Registrar(std::string_view name, ForeachWriterFactory factory) {
  Entry& e = entries()[std::string(name)];
  if (e.registrations++ == 0) e.factory = std::move(factory);
}

Result<ForeachWriterFactory> ForeachWriterRegistry::factory(std::string_view name) {
  auto it = entries().find(name);
  if (it == entries().end()) {
    std::vector<std::string> known = names();
    return Status::NotFound(fmt::format(
        "no ForeachWriter named '{}' is registered (STREAMSIM_REGISTER_FOREACH_WRITER in your "
        "runner); known: {}",
        name, known.empty() ? std::string("none") : fmt::format("{}", fmt::join(known, ", "))));
  }
  if (it->second.registrations > 1)
    return Status::FailedPrecondition(fmt::format(
        "the ForeachWriter name '{}' was registered {} times; names must be unique", name,
        it->second.registrations));
  return it->second.factory;
}

std::vector<std::string> ForeachWriterRegistry::names() {
  std::vector<std::string> out;
  for (const auto& [n, e] : entries()) out.push_back(n);
  return out;
}

}  // namespace streamsim::harness
