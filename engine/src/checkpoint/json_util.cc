#include "checkpoint/json_util.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "streamsim/json_nesting.h"

namespace streamsim::detail {

Result<OJson> parseJsonAt(std::string_view text, const std::string& path, int lineNo,
                          std::string_view what) {
  // A key written twice in one object: Spark's writers write each key once, and a reader keeps
  // one of the two (Jackson and nlohmann the last) without a word -- a damaged file, refused.
  std::vector<std::set<std::string>> keys;  // one per object being parsed
  std::optional<std::string> repeated;
  auto onEvent = [&](int /*depth*/, OJson::parse_event_t event, OJson& parsed) {
    if (event == OJson::parse_event_t::object_start) {
      keys.emplace_back();
    } else if (event == OJson::parse_event_t::object_end) {
      if (!keys.empty()) keys.pop_back();
    } else if (event == OJson::parse_event_t::key && !keys.empty() && parsed.is_string()) {
      if (!keys.back().insert(parsed.get<std::string>()).second && !repeated)
        repeated = parsed.get<std::string>();
    }
    return true;
  };
  if (auto past = jsonNestingPastLimit(text))
    return Status::Corruption(fmt::format("{}:{}: expected {} as JSON, found JSON {}", path, lineNo, what,
                                          jsonNestingMessage(*past)));
  OJson j = OJson::parse(text.begin(), text.end(), onEvent, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    std::string shown(text.substr(0, 80));
    return Status::Corruption(fmt::format("{}:{}: expected {} as JSON, found `{}`{}", path, lineNo,
                                          what, shown, text.size() > 80 ? "..." : ""));
  }
  if (repeated)
    return Status::Corruption(fmt::format("{}:{}: key {} appears twice in {}; expected each key once",
                                          path, lineNo, quoteJson(*repeated), what));
  return j;
}

void appendQuotedJson(std::string& out, std::string_view s) {
  out.push_back('"');
  // Runs of bytes kept as they are are appended at once (a push_back per byte was most of the
  // cost: every offsets file quotes its conf entries).
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (static_cast<unsigned char>(c) >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default: out += fmt::format("\\u{:04X}", static_cast<unsigned>(static_cast<unsigned char>(c)));
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

std::string quoteJson(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  appendQuotedJson(out, s);
  return out;
}

Result<std::optional<int64_t>> optionalInt(const OJson& obj, const char* field,
                                           const std::string& path, int lineNo) {
  auto it = obj.find(field);
  if (it == obj.end() || it->is_null()) return std::optional<int64_t>();
  if (!it->is_number_integer())
    return Status::Corruption(fmt::format("{}:{}: field \"{}\" must be an integer, found {}", path,
                                          lineNo, field, it->dump()));
  return std::optional<int64_t>(it->get<int64_t>());
}

Result<int64_t> requireInt(const OJson& obj, const char* field, const std::string& path,
                           int lineNo) {
  STREAMSIM_ASSIGN_OR_RETURN(auto v, optionalInt(obj, field, path, lineNo));
  if (!v)
    return Status::Corruption(
        fmt::format("{}:{}: missing integer field \"{}\" in {}", path, lineNo, field, obj.dump()));
  return *v;
}

Result<std::string> requireString(const OJson& obj, const char* field, const std::string& path,
                                  int lineNo) {
  auto it = obj.find(field);
  if (it == obj.end() || !it->is_string())
    return Status::Corruption(
        fmt::format("{}:{}: missing string field \"{}\" in {}", path, lineNo, field, obj.dump()));
  return it->get<std::string>();
}

std::string_view trimView(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' ||
                        s.front() == '\n'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

}  // namespace streamsim::detail
