// The ForeachWriter registry (foreach_writers.h): a NamedRegistry (named_registry.h) filled during
// static initialisation, read-only afterwards.
#include "streamsim/harness/foreach_writers.h"

#include "streamsim/named_registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace streamsim::harness {
namespace {
NamedRegistry<ForeachWriterFactory>& registered() {
  static NamedRegistry<ForeachWriterFactory> r({
      [](std::string_view name, const std::vector<std::string>& known) {
        return fmt::format(
            "no ForeachWriter named '{}' is registered (STREAMSIM_REGISTER_FOREACH_WRITER in your "
            "runner); known: {}",
            name, known.empty() ? std::string("none") : fmt::format("{}", fmt::join(known, ", ")));
      },
      [](std::string_view name, int times) {
        return fmt::format("the ForeachWriter name '{}' was registered {} times; names must be unique", name, times);
      },
  });
  return r;
}
}  // namespace

ForeachWriterRegistry::Registrar::Registrar(std::string_view name, ForeachWriterFactory factory) {
  registered().add(name, std::move(factory));
}

Result<ForeachWriterFactory> ForeachWriterRegistry::factory(std::string_view name) {
  STREAMSIM_ASSIGN_OR_RETURN(const ForeachWriterFactory* f, registered().find(name));
  return *f;
}

std::vector<std::string> ForeachWriterRegistry::names() { return registered().names(); }

}  // namespace streamsim::harness
