// The scenario loader's read of a YAML stream: its first document and where a second one
// starts, without YAML::LoadAll. yaml-cpp 0.7 (Debian 12) loops forever in LoadAll, adding a
// null document per turn until memory runs out, on a document that starts with a token no node
// begins with (a ',': jbeder/yaml-cpp#1040, fixed upstream in 2024 by #1319, after the 0.8.0
// release); scenario_loader_fuzz found it. This reads at most two documents and reports such a
// token.
#pragma once

#include <optional>
#include <string_view>

#include <yaml-cpp/yaml.h>

namespace streamsim::harness {

struct YamlDocuments {
  YAML::Node first;                    // the first document (null when the stream is empty)
  std::optional<YAML::Mark> second;    // the root node of a second document, when there is one
  std::optional<YAML::Mark> stuck;     // a token no document can start with: the stream is bad
};

// Throws YAML::Exception for a stream that is not YAML, as YAML::LoadAll does.
YamlDocuments readYamlDocuments(std::string_view text);

}  // namespace streamsim::harness
