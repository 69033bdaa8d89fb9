#include "yaml_documents.h"

#include <sstream>
#include <string>
#include <vector>

#include <yaml-cpp/eventhandler.h>

namespace streamsim::harness {
namespace {

// Each document's start and the mark of its root node (the first node event in it), which is
// the mark YAML::LoadAll's node of that document has.
class DocumentMarks : public YAML::EventHandler {
 public:
  struct Document {
    YAML::Mark start;
    std::optional<YAML::Mark> root;
  };
  const std::vector<Document>& documents() const { return docs_; }

  void OnDocumentStart(const YAML::Mark& mark) override { docs_.push_back({mark, {}}); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string&) override {
    node(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    node(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    node(mark);
  }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& mark) {
    if (!docs_.empty() && !docs_.back().root) docs_.back().root = mark;
  }
  std::vector<Document> docs_;
};

}  // namespace

YamlDocuments readYamlDocuments(std::string_view text) {
  YamlDocuments out;
  std::string copy(text);
  {
    std::istringstream in(copy);
    YAML::Parser parser(in);
    DocumentMarks marks;
    while (marks.documents().size() < 2 && parser.HandleNextDocument(marks)) {
    }
    const auto& docs = marks.documents();
    if (docs.size() == 2) {
      // A second document that starts where the first did: the parser took nothing (the
      // token LoadAll would loop on).
      if (docs[1].start.pos == docs[0].start.pos) {
        out.stuck = docs[0].start;
        return out;
      }
      out.second = docs[1].root.value_or(YAML::Mark::null_mark());
    }
  }
  out.first = YAML::Load(copy);  // one document: Load makes one call, no loop
  return out;
}

}  // namespace streamsim::harness
