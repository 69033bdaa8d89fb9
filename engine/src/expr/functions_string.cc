// String functions (catalyst/expressions/stringExpressions.scala, regexpExpressions.scala):
// concat, concat_ws, upper, lower, length, trim / ltrim / rtrim, lpad / rpad, substring / substr,
// split, regexp_extract, regexp_replace, like / ilike / rlike, startswith / endswith / contains,
// instr, replace. Lengths and positions count UTF-8 characters. Differences from Spark: regular
// expressions are ECMAScript's (std::regex), not java.util.regex; upper/lower change ASCII letters
// only (docs/scenarios.md).
#include <regex>

#include <fmt/format.h>

#include "expr/bound.h"
#include "streamsim/base64.h"

namespace streamsim::expr {
namespace {

Status stringArg(FunctionCall& c, size_t i) { return implicitCast(c, i, Type::kString, "\"STRING\""); }

// Byte offsets of the UTF-8 characters of s (plus s.size() at the end).
std::vector<size_t> charStarts(std::string_view s) {
  std::vector<size_t> out;
  for (size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) out.push_back(i);
  out.push_back(s.size());
  return out;
}
int64_t charCount(std::string_view s) { return static_cast<int64_t>(charStarts(s).size()) - 1; }

FunctionBuilder stringFn(std::string name, size_t nStringArgs, Field result,
                         std::function<Result<Value>(const Value*, const EvalContext&)> fn) {
  return [=](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, nStringArgs, nStringArgs));
    for (size_t i = 0; i < nStringArgs; ++i) STREAMSIM_RETURN_IF_ERROR(stringArg(c, i));
    return makeScalar(name, c.args, result, fn);
  };
}

Result<BoundPtr> buildConcat(FunctionCall& c) {
  for (size_t i = 0; i < c.args.size(); ++i) STREAMSIM_RETURN_IF_ERROR(stringArg(c, i));
  size_t n = c.args.size();
  return makeScalar("concat", c.args, typeField(Type::kString), [n](const Value* a, const EvalContext&) -> Result<Value> {
    std::string out;
    for (size_t i = 0; i < n; ++i) out += a[i].asString();
    return Value(std::move(out));
  });
}

// concat_ws(sep, ...): nulls skipped, arrays of strings flattened.
Result<BoundPtr> buildConcatWs(FunctionCall& c) {
  if (c.args.empty()) return wrongNumArgs(c, "> 0");
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (i > 0 && c.args[i]->type.type == Type::kArray) continue;
    STREAMSIM_RETURN_IF_ERROR(stringArg(c, i));
  }
  size_t n = c.args.size();
  return makeScalar("concat_ws", c.args, typeField(Type::kString), [n](const Value* a, const EvalContext&) -> Result<Value> {
    if (a[0].isNull()) return Value();
    std::string out;
    bool first = true;
    auto add = [&](const Value& v) {
      if (v.isNull()) return;
      if (!first) out += a[0].asString();
      out += v.type() == Type::kString ? v.asString() : v.toString();
      first = false;
    };
    for (size_t i = 1; i < n; ++i) {
      if (a[i].type() == Type::kArray) {
        for (const Value& e : a[i].items()) add(e);
      } else {
        add(a[i]);
      }
    }
    return Value(std::move(out));
  }, false);
}

Value caseMap(const Value& v, bool up) {
  std::string s = v.asString();
  for (auto& ch : s) ch = static_cast<char>(up ? std::toupper(static_cast<unsigned char>(ch)) : std::tolower(static_cast<unsigned char>(ch)));
  return Value(std::move(s));
}

FunctionBuilder trimFn(std::string name, bool left, bool right) {
  return [=](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 2));
    for (size_t i = 0; i < c.args.size(); ++i) STREAMSIM_RETURN_IF_ERROR(stringArg(c, i));
    bool custom = c.args.size() == 2;
    return makeScalar(name, c.args, typeField(Type::kString), [=](const Value* a, const EvalContext&) -> Result<Value> {
      // trim(str) trims spaces (' '); trim(str, chars) any of chars (Spark's StringTrim).
      std::string chars = custom ? a[1].asString() : " ";
      const std::string& s = a[0].asString();
      size_t b = 0, e = s.size();
      if (left) while (b < e && chars.find(s[b]) != std::string::npos) ++b;
      if (right) while (e > b && chars.find(s[e - 1]) != std::string::npos) --e;
      return Value(s.substr(b, e - b));
    });
  };
}

FunctionBuilder padFn(bool left) {
  return [left](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 3));
    STREAMSIM_RETURN_IF_ERROR(stringArg(c, 0));
    STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 1, Type::kInt, "\"INT\""));
    if (c.args.size() == 3) STREAMSIM_RETURN_IF_ERROR(stringArg(c, 2));
    else c.args.push_back(makeLiteral(Value(" "), typeField(Type::kString)));
    return makeScalar(left ? "lpad" : "rpad", c.args, typeField(Type::kString), [left](const Value* a, const EvalContext&) -> Result<Value> {
      const std::string& s = a[0].asString();
      int64_t len = a[1].asLong();
      const std::string& pad = a[2].asString();
      if (len <= 0) return Value("");
      auto starts = charStarts(s);
      int64_t n = static_cast<int64_t>(starts.size()) - 1;
      if (n >= len) return Value(s.substr(0, starts[len]));
      if (pad.empty()) return Value(s);
      auto ps = charStarts(pad);
      int64_t pn = static_cast<int64_t>(ps.size()) - 1;
      std::string fill;
      for (int64_t i = 0; i < len - n; ++i) {
        size_t k = static_cast<size_t>(i % pn);
        fill += pad.substr(ps[k], ps[k + 1] - ps[k]);
      }
      return Value(left ? fill + s : s + fill);
    });
  };
}

// substring(str, pos[, len]): 1-based, 0 as 1, negative from the end (UTF8String.substringSQL).
Result<BoundPtr> buildSubstring(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 3));
  STREAMSIM_RETURN_IF_ERROR(stringArg(c, 0));
  STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 1, Type::kInt, "\"INT\""));
  if (c.args.size() == 3) STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 2, Type::kInt, "\"INT\""));
  else c.args.push_back(makeLiteral(Value(int32_t{INT32_MAX}), typeField(Type::kInt)));
  return makeScalar("substring", c.args, typeField(Type::kString), [](const Value* a, const EvalContext&) -> Result<Value> {
    const std::string& s = a[0].asString();
    auto starts = charStarts(s);
    int64_t n = static_cast<int64_t>(starts.size()) - 1;
    int64_t pos = a[1].asLong(), len = a[2].asLong();
    int64_t start = pos > 0 ? pos - 1 : pos < 0 ? n + pos : 0;
    int64_t end = len == INT32_MAX ? INT64_MAX : start + len;
    if (end <= start || len <= 0) return Value("");
    start = std::max<int64_t>(start, 0);
    end = std::min<int64_t>(end, n);
    if (start >= end) return Value("");
    return Value(s.substr(starts[start], starts[end] - starts[start]));
  });
}

// A regex argument: compiled once when it is a literal.
struct RegexArg {
  std::shared_ptr<const std::regex> fixed;
};

Result<std::shared_ptr<const std::regex>> compileRegex(const std::string& p, std::string_view fn) {
  try {
    return std::make_shared<const std::regex>(p, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return sparkError(Status::Code::kInvalidArgument, "INVALID_PARAMETER_VALUE.PATTERN",
                      {{"parameter", "`regexp`"}, {"functionName", sparkSqlId(fn)}, {"value", fmt::format("'{}'", p)}});
  }
}

Result<RegexArg> regexArg(FunctionCall& c, size_t i) {
  RegexArg r;
  if (c.args[i]->foldable) {
    STREAMSIM_ASSIGN_OR_RETURN(Value v, evalConstant(*c.args[i], *c.conf));
    if (!v.isNull()) {
      STREAMSIM_ASSIGN_OR_RETURN(r.fixed, compileRegex(v.asString(), c.name));
    }
  }
  return r;
}

Result<std::shared_ptr<const std::regex>> regexFor(const RegexArg& r, const Value& p, std::string_view fn) {
  if (r.fixed) return r.fixed;
  return compileRegex(p.asString(), fn);
}

Result<BoundPtr> buildSplit(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 3));
  STREAMSIM_RETURN_IF_ERROR(stringArg(c, 0));
  STREAMSIM_RETURN_IF_ERROR(stringArg(c, 1));
  if (c.args.size() == 3) STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 2, Type::kInt, "\"INT\""));
  else c.args.push_back(makeLiteral(Value(int32_t{-1}), typeField(Type::kInt)));
  STREAMSIM_ASSIGN_OR_RETURN(RegexArg re, regexArg(c, 1));
  return makeScalar("split", c.args, arrayOf(typeField(Type::kString)), [re](const Value* a, const EvalContext&) -> Result<Value> {
    STREAMSIM_ASSIGN_OR_RETURN(auto rx, regexFor(re, a[1], "split"));
    const std::string& s = a[0].asString();
    int64_t limit = a[2].asLong();
    std::vector<Value> parts;
    if (s.empty()) return Value::arrayOf({Value("")});
    size_t from = 0;
    auto it = std::sregex_iterator(s.begin(), s.end(), *rx);
    for (; it != std::sregex_iterator(); ++it) {
      if (limit > 0 && static_cast<int64_t>(parts.size()) == limit - 1) break;
      size_t at = static_cast<size_t>(it->position());
      size_t len = static_cast<size_t>(it->length());
      if (len == 0 && (at == 0 || at >= s.size())) continue;  // Java skips a leading empty match
      parts.emplace_back(s.substr(from, at - from));
      from = at + len;
    }
    parts.emplace_back(s.substr(from));
    // Java's split with limit <= 0 drops trailing empty strings only when limit == 0; Spark passes -1.
    return Value::arrayOf(std::move(parts));
  });
}

Result<BoundPtr> buildRegexpExtract(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 3));
  STREAMSIM_RETURN_IF_ERROR(stringArg(c, 0));
  STREAMSIM_RETURN_IF_ERROR(stringArg(c, 1));
  if (c.args.size() == 3) STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 2, Type::kInt, "\"INT\""));
  else c.args.push_back(makeLiteral(Value(int32_t{1}), typeField(Type::kInt)));
  STREAMSIM_ASSIGN_OR_RETURN(RegexArg re, regexArg(c, 1));
  return makeScalar("regexp_extract", c.args, typeField(Type::kString), [re](const Value* a, const EvalContext&) -> Result<Value> {
    STREAMSIM_ASSIGN_OR_RETURN(auto rx, regexFor(re, a[1], "regexp_extract"));
    int64_t idx = a[2].asLong();
    if (idx < 0 || idx > static_cast<int64_t>(rx->mark_count()))
      return sparkError(Status::Code::kTaskFailed, "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX",
                        {{"parameter", "`idx`"}, {"functionName", "`regexp_extract`"},
                         {"groupCount", std::to_string(rx->mark_count())}, {"groupIndex", std::to_string(idx)}});
    std::smatch m;
    const std::string& s = a[0].asString();
    if (!std::regex_search(s, m, *rx)) return Value("");
    if (!m[idx].matched) return Value("");
    return Value(m[idx].str());
  });
}

// Java's replacement string: $n groups, \x escapes; turned into ECMAScript's format.
std::string javaReplacement(const std::string& r) {
  std::string out;
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i] == '\\' && i + 1 < r.size()) {
      if (r[i + 1] == '$') out += "$$";
      else out += r[i + 1];
      ++i;
    } else {
      out += r[i];
    }
  }
  return out;
}

Result<BoundPtr> buildRegexpReplace(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 3, 3));
  for (size_t i = 0; i < 3; ++i) STREAMSIM_RETURN_IF_ERROR(stringArg(c, i));
  STREAMSIM_ASSIGN_OR_RETURN(RegexArg re, regexArg(c, 1));
  return makeScalar("regexp_replace", c.args, typeField(Type::kString), [re](const Value* a, const EvalContext&) -> Result<Value> {
    STREAMSIM_ASSIGN_OR_RETURN(auto rx, regexFor(re, a[1], "regexp_replace"));
    return Value(std::regex_replace(a[0].asString(), *rx, javaReplacement(a[2].asString())));
  });
}

// SQL LIKE with % and _ and an escape character (StringUtils.escapeLikeRegex semantics).
bool likeMatch(std::string_view s, std::string_view p, char esc, bool ci) {
  auto eq = [ci](char a, char b) {
    return ci ? std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)) : a == b;
  };
  size_t si = 0, pi = 0, starP = std::string_view::npos, starS = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == esc && pi + 1 < p.size()) {
      if (eq(s[si], p[pi + 1])) {
        ++si;
        pi += 2;
        continue;
      }
    } else if (pi < p.size() && p[pi] == '%') {
      starP = pi++;
      starS = si;
      continue;
    } else if (pi < p.size() && (p[pi] == '_' || eq(s[si], p[pi]))) {
      if (p[pi] == '_') {  // one UTF-8 character
        ++si;
        while (si < s.size() && (static_cast<unsigned char>(s[si]) & 0xC0) == 0x80) ++si;
      } else {
        ++si;
      }
      ++pi;
      continue;
    }
    if (starP == std::string_view::npos) return false;
    pi = starP + 1;
    si = ++starS;
  }
  while (pi < p.size() && p[pi] == '%') ++pi;
  return pi == p.size();
}

FunctionBuilder likeFn(bool ci) {
  return [ci](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 3));
    STREAMSIM_RETURN_IF_ERROR(stringArg(c, 0));
    STREAMSIM_RETURN_IF_ERROR(stringArg(c, 1));
    char esc = '\\';
    if (c.args.size() == 3) {
      STREAMSIM_ASSIGN_OR_RETURN(Value e, constantArg(c, 2, "escape"));
      if (e.isNull() || e.asString().size() != 1)
        return sparkError(Status::Code::kInvalidArgument, "INVALID_ESCAPE_CHAR", {{"sqlExpr", fmt::format("\"{}\"", c.args[2]->sql)}});
      esc = e.asString()[0];
      c.args.pop_back();
    }
    auto n = makeScalar(ci ? "ilike" : "like", c.args, typeField(Type::kBoolean), [esc, ci](const Value* a, const EvalContext&) -> Result<Value> {
      return Value(likeMatch(a[0].asString(), a[1].asString(), esc, ci));
    });
    auto* m = const_cast<Bound*>(n.get());
    m->sql = fmt::format("{} {} {}", c.args[0]->sql, ci ? "ILIKE" : "LIKE", c.args[1]->sql);
    m->autoName = m->sql;
    return n;
  };
}

Result<BoundPtr> buildRlike(FunctionCall& c) {
  STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 2));
  STREAMSIM_RETURN_IF_ERROR(stringArg(c, 0));
  STREAMSIM_RETURN_IF_ERROR(stringArg(c, 1));
  STREAMSIM_ASSIGN_OR_RETURN(RegexArg re, regexArg(c, 1));
  auto n = makeScalar("rlike", c.args, typeField(Type::kBoolean), [re](const Value* a, const EvalContext&) -> Result<Value> {
    STREAMSIM_ASSIGN_OR_RETURN(auto rx, regexFor(re, a[1], "rlike"));
    // Java's Matcher.find: a match anywhere.
    return Value(std::regex_search(a[0].asString(), *rx));
  });
  auto* m = const_cast<Bound*>(n.get());
  m->sql = fmt::format("RLIKE({}, {})", c.args[0]->sql, c.args[1]->sql);
  m->autoName = m->sql;
  return n;
}

}  // namespace

void addStringFunctions(FunctionTable& t) {
  t.emplace_back("concat", buildConcat);
  t.emplace_back("concat_ws", buildConcatWs);
  t.emplace_back("upper", stringFn("upper", 1, typeField(Type::kString), [](const Value* a, const EvalContext&) -> Result<Value> { return caseMap(a[0], true); }));
  t.emplace_back("ucase", stringFn("ucase", 1, typeField(Type::kString), [](const Value* a, const EvalContext&) -> Result<Value> { return caseMap(a[0], true); }));
  t.emplace_back("lower", stringFn("lower", 1, typeField(Type::kString), [](const Value* a, const EvalContext&) -> Result<Value> { return caseMap(a[0], false); }));
  t.emplace_back("lcase", stringFn("lcase", 1, typeField(Type::kString), [](const Value* a, const EvalContext&) -> Result<Value> { return caseMap(a[0], false); }));
  for (const char* n : {"length", "char_length", "character_length", "len"})
    t.emplace_back(n, stringFn(n, 1, typeField(Type::kInt), [](const Value* a, const EvalContext&) -> Result<Value> {
      return Value(static_cast<int32_t>(charCount(a[0].asString())));
    }));
  // base64(bin): Base64 with spark.sql.chunkBase64String.enabled's default (true): Java's MIME
  // encoder, lines of 76 characters; a string argument is its UTF-8 bytes (implicit cast).
  // unbase64(str): UnBase64, Java's MIME decoder (characters outside the alphabet skipped; a bad
  // ending fails the batch with Java's IllegalArgumentException message).
  t.emplace_back("base64", [](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
    STREAMSIM_RETURN_IF_ERROR(implicitCast(c, 0, Type::kBinary, "\"BINARY\""));
    return makeScalar("base64", c.args, typeField(Type::kString), [](const Value* a, const EvalContext&) -> Result<Value> {
      return Value(base64Encode(a[0].asString(), true));
    });
  });
  t.emplace_back("unbase64", [](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 1, 1));
    STREAMSIM_RETURN_IF_ERROR(stringArg(c, 0));
    return makeScalar("unbase64", c.args, typeField(Type::kBinary), [](const Value* a, const EvalContext&) -> Result<Value> {
      auto bytes = base64DecodeMime(a[0].asString());
      if (!bytes.ok()) return Status::TaskFailed(bytes.status().message());
      return Value::binary(std::move(bytes).value());
    });
  });
  t.emplace_back("trim", trimFn("trim", true, true));
  t.emplace_back("btrim", trimFn("btrim", true, true));
  t.emplace_back("ltrim", trimFn("ltrim", true, false));
  t.emplace_back("rtrim", trimFn("rtrim", false, true));
  t.emplace_back("lpad", padFn(true));
  t.emplace_back("rpad", padFn(false));
  t.emplace_back("substring", buildSubstring);
  t.emplace_back("substr", buildSubstring);
  t.emplace_back("split", buildSplit);
  t.emplace_back("regexp_extract", buildRegexpExtract);
  t.emplace_back("regexp_replace", buildRegexpReplace);
  t.emplace_back("like", likeFn(false));
  t.emplace_back("ilike", likeFn(true));
  t.emplace_back("rlike", buildRlike);
  t.emplace_back("regexp", buildRlike);
  t.emplace_back("regexp_like", buildRlike);
  t.emplace_back("startswith", stringFn("startswith", 2, typeField(Type::kBoolean), [](const Value* a, const EvalContext&) -> Result<Value> {
    return Value(a[0].asString().starts_with(a[1].asString()));
  }));
  t.emplace_back("endswith", stringFn("endswith", 2, typeField(Type::kBoolean), [](const Value* a, const EvalContext&) -> Result<Value> {
    return Value(a[0].asString().ends_with(a[1].asString()));
  }));
  t.emplace_back("contains", stringFn("contains", 2, typeField(Type::kBoolean), [](const Value* a, const EvalContext&) -> Result<Value> {
    return Value(a[0].asString().find(a[1].asString()) != std::string::npos);
  }));
  t.emplace_back("instr", stringFn("instr", 2, typeField(Type::kInt), [](const Value* a, const EvalContext&) -> Result<Value> {
    size_t at = a[0].asString().find(a[1].asString());
    if (at == std::string::npos) return Value(int32_t{0});
    return Value(static_cast<int32_t>(charCount(std::string_view(a[0].asString()).substr(0, at)) + 1));
  }));
  t.emplace_back("replace", [](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 2, 3));
    for (size_t i = 0; i < c.args.size(); ++i) STREAMSIM_RETURN_IF_ERROR(stringArg(c, i));
    if (c.args.size() == 2) c.args.push_back(makeLiteral(Value(""), typeField(Type::kString)));
    return makeScalar("replace", c.args, typeField(Type::kString), [](const Value* a, const EvalContext&) -> Result<Value> {
      std::string s = a[0].asString();
      const std::string& from = a[1].asString();
      if (from.empty()) return Value(s);
      std::string out;
      size_t i = 0;
      while (true) {
        size_t at = s.find(from, i);
        if (at == std::string::npos) break;
        out += s.substr(i, at - i) + a[2].asString();
        i = at + from.size();
      }
      return Value(out + s.substr(i));
    });
  });
}

}  // namespace streamsim::expr
