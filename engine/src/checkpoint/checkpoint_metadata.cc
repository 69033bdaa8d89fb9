// The checkpoint `metadata` file (docs/checkpoint-format.md "metadata").
#include "streamsim/checkpoint/checkpoint_metadata.h"

#include <fmt/format.h>

#include "checkpoint/json_util.h"

namespace streamsim {

std::string serializeStreamMetadata(const StreamMetadata& m) {
  return "{\"id\":" + detail::quoteJson(m.id) + "}";
}

Result<StreamMetadata> parseStreamMetadata(std::string_view text, const std::string& path) {
  std::string_view t = detail::trimView(text);
  if (t.empty())
    return Status::Corruption(fmt::format(
        "{}:1: the file is empty; expected {{\"id\":\"<uuid>\"}} (a torn write?)", path));
  STREAMSIM_ASSIGN_OR_RETURN(auto j, detail::parseJsonAt(t, path, 1, "{\"id\":\"<uuid>\"}"));
  if (!j.is_object())
    return Status::Corruption(
        fmt::format("{}:1: expected {{\"id\":\"<uuid>\"}}, found {}", path, j.dump()));
  STREAMSIM_ASSIGN_OR_RETURN(std::string id, detail::requireString(j, "id", path, 1));
  return StreamMetadata{std::move(id)};
}

Result<std::optional<StreamMetadata>> readStreamMetadata(const Env& env, const std::string& root) {
  std::string path = joinPath(root, "metadata");
  if (!env.fs->exists(path)) return std::optional<StreamMetadata>();
  STREAMSIM_ASSIGN_OR_RETURN(std::string text, env.fs->read(path));
  STREAMSIM_ASSIGN_OR_RETURN(auto m, parseStreamMetadata(text, path));
  return std::optional<StreamMetadata>(std::move(m));
}

Status writeStreamMetadata(const Env& env, const std::string& root, const StreamMetadata& m) {
  FaultContext ctx;
  ctx.path = joinPath(root, "metadata");
  return writeFileAtomically(env, ctx.path, serializeStreamMetadata(m), ctx);
}

}  // namespace streamsim
