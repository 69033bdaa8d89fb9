// The landing-file steps (docs/scenarios.md "Steps"): put, put_partial, resend, touch and delete,
// each parsed from its YAML and mapped onto its file actions (actions.h). Rows in the table of
// step_table.cc.
#include <algorithm>

#include <fmt/format.h>

#include "scenario/parse_context.h"
#include "scenario/step_actions.h"

namespace streamsim::harness::detail {
namespace {

void checkFilesSource(ParseContext& pc, const YAML::Node& at, std::string_view step) {
  if (!pc.sources().empty() && pc.sources()[0].kind != SourceSpec::Kind::kFiles)
    pc.error(at, fmt::format("{} needs a files source (source kind: files); use add_rows for memory",
                             step));
}

// The rows of a put as rows of `schema` (as written when there is none); the first row that
// does not fit, as "file:line:col: why".
std::string rowsText(const std::vector<RowSpec>& rows, const Schema* schema, std::vector<Row>* out) {
  for (const auto& r : rows) {
    if (schema) {
      auto row = r.toRow(*schema);
      if (!row.ok()) return r.where.toString() + ": " + row.status().message();
      out->push_back(*row);
    } else {
      out->push_back(r.toRow());
    }
  }
  return {};
}

// put and put_partial: the file's content (its text, or its rows as JSON lines).
template <class T>
void fileActions(StepActions& a, const T& s, const SourceLocation& at) {
  AddFile file;
  if (s.text) {
    file = AddFile{s.path, *s.text};
  } else {
    std::vector<Row> rows;
    std::string bad = rowsText(s.rows, a.sourceSchema(), &rows);
    if (!bad.empty()) return a.setupFail(at, bad);
    file = AddJsonFile(s.path, rows);
  }
  if constexpr (std::is_same_v<T, PutPartialStep>) {
    size_t n = s.visibleBytes ? static_cast<size_t>(*s.visibleBytes)
                              : static_cast<size_t>(file.content.size() * *s.fraction);
    file.visibleBytes = std::min(n, file.content.size());
  }
  a.push(file, at);
  if constexpr (std::is_same_v<T, PutStep>) {
    if (s.mtime) a.push(TouchFile{s.path, *s.mtime}, at);
  }
}

}  // namespace

PutStep parsePut(ParseContext& pc, const YAML::Node&, const YAML::Node& v) {
  PutStep s;
  if (!pc.expectMap(v, "put")) return s;
  pc.checkKeys(v, "put", {"path", "rows", "text", "mtime"});
  if (auto n = v["path"]; n) s.path = pc.simPath(n, "put path"); else s.path = pc.requiredStr(v, "path", "put");
  if (auto r = v["rows"]; r) s.rows = pc.rows(r, "a put row");
  if (auto t = v["text"]; t) s.text = pc.str(t, "text");
  if (v["rows"] && v["text"]) pc.error(v, "put takes 'rows' or 'text', not both");
  if (!v["rows"] && !v["text"]) pc.error(v, "put needs 'rows' (a list of maps) or 'text'");
  if (auto m = v["mtime"]; m) s.mtime = pc.timestamp(m, "mtime");
  checkFilesSource(pc, v, "put");
  pc.checkSourceRows(s.rows, 0);
  return s;
}
void putActions(StepActions& a, const PutStep& s, const SourceLocation& at) { fileActions(a, s, at); }

PutPartialStep parsePutPartial(ParseContext& pc, const YAML::Node&, const YAML::Node& v) {
  PutPartialStep s;
  if (!pc.expectMap(v, "put_partial")) return s;
  pc.checkKeys(v, "put_partial", {"path", "rows", "text", "visible_bytes", "fraction"});
  if (auto n = v["path"]; n) s.path = pc.simPath(n, "put_partial path"); else s.path = pc.requiredStr(v, "path", "put_partial");
  if (auto r = v["rows"]; r) s.rows = pc.rows(r, "a put_partial row");
  if (auto t = v["text"]; t) s.text = pc.str(t, "text");
  if (!v["rows"] && !v["text"]) pc.error(v, "put_partial needs 'rows' or 'text'");
  if (auto b = v["visible_bytes"]; b) s.visibleBytes = pc.integer(b, "visible_bytes", 0);
  if (auto f = v["fraction"]; f) s.fraction = pc.number(f, "fraction", 0, 1);
  if (s.visibleBytes.has_value() == s.fraction.has_value())
    pc.error(v, "put_partial takes exactly one of 'visible_bytes' or 'fraction'");
  checkFilesSource(pc, v, "put_partial");
  pc.checkSourceRows(s.rows, 0);
  return s;
}
void putPartialActions(StepActions& a, const PutPartialStep& s, const SourceLocation& at) {
  fileActions(a, s, at);
}

ResendStep parseResend(ParseContext& pc, const YAML::Node&, const YAML::Node& v) {
  ResendStep s;
  if (pc.expectMap(v, "resend")) {
    pc.checkKeys(v, "resend", {"from", "to", "mtime"});
    s.from = pc.requiredStr(v, "from", "resend");
    s.to = pc.requiredStr(v, "to", "resend");
    if (auto m = v["mtime"]; m) s.mtime = pc.timestamp(m, "mtime");
  }
  return s;
}
void resendActions(StepActions& a, const ResendStep& s, const SourceLocation& at) {
  a.push(ResendFile{s.from, s.to}, at);
  if (s.mtime) a.push(TouchFile{s.to, *s.mtime}, at);
}

TouchStep parseTouch(ParseContext& pc, const YAML::Node&, const YAML::Node& v) {
  TouchStep s;
  if (pc.expectMap(v, "touch")) {
    pc.checkKeys(v, "touch", {"path", "mtime"});
    if (auto n = v["path"]; n) s.path = pc.simPath(n, "touch path"); else s.path = pc.requiredStr(v, "path", "touch");
    if (auto m = v["mtime"]; m) {
      s.mtime = pc.timestamp(m, "mtime");
    } else {
      pc.error(v, "missing key 'mtime' in touch");
    }
  }
  return s;
}
void touchActions(StepActions& a, const TouchStep& s, const SourceLocation& at) {
  a.push(TouchFile{s.path, s.mtime}, at);
}

DeleteStep parseDelete(ParseContext& pc, const YAML::Node&, const YAML::Node& v) {
  DeleteStep s;
  if (v.IsScalar()) {
    s.path = v.Scalar();
  } else if (pc.expectMap(v, "delete")) {
    pc.checkKeys(v, "delete", {"path"});
    if (auto n = v["path"]; n) s.path = pc.simPath(n, "delete path"); else s.path = pc.requiredStr(v, "path", "delete");
  }
  return s;
}
void deleteActions(StepActions& a, const DeleteStep& s, const SourceLocation& at) {
  a.push(DeleteFile{s.path}, at);
}

}  // namespace streamsim::harness::detail
