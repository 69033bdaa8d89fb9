// The checkpoint's `metadata` file: `{"id":"<uuid>"}` holding the query id, written once when
// the checkpoint is created (Spark RT/StreamMetadata.scala). Pretty-printed JSON is read too.
// Free functions over the borrowed Env; not thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "streamsim/env.h"

namespace streamsim {

struct StreamMetadata {
  std::string id;  // the query id (a UUID)
};

std::string serializeStreamMetadata(const StreamMetadata& m);
Result<StreamMetadata> parseStreamMetadata(std::string_view text, const std::string& pathForErrors);

// `<root>/metadata`; nullopt if it does not exist.
Result<std::optional<StreamMetadata>> readStreamMetadata(const Env& env, const std::string& root);
// Writes `<root>/metadata` atomically; FailedPrecondition if it already exists.
Status writeStreamMetadata(const Env& env, const std::string& root, const StreamMetadata& m);

}  // namespace streamsim
