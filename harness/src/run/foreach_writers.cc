// ForeachWriterSet (foreach_writers.h).
#include "streamsim/harness/foreach_writers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace streamsim::harness {

ForeachWriterSet::ForeachWriterSet()
    : entries_({
          [](std::string_view name, const std::vector<std::string>& known) {
            return fmt::format(
                "no ForeachWriter named '{}' is registered (a REGISTER_RUN function of your runner adds it: "
                "registries.foreachWriters.add); known: {}",
                name, known.empty() ? std::string("none") : fmt::format("{}", fmt::join(known, ", ")));
          },
          [](std::string_view name, int times) {
            return fmt::format("the ForeachWriter name '{}' was added {} times; names must be unique", name, times);
          },
      }) {}

void ForeachWriterSet::add(std::string_view name, ForeachWriterFactory factory) {
  entries_.add(name, std::move(factory));
}

Result<ForeachWriterFactory> ForeachWriterSet::factory(std::string_view name) const {
  STREAMSIM_ASSIGN_OR_RETURN(const ForeachWriterFactory* f, entries_.find(name));
  return *f;
}

std::vector<std::string> ForeachWriterSet::names() const { return entries_.names(); }

}  // namespace streamsim::harness
