#include "streamsim/io/json_rows.h"

#include <bit>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "io/datetime_options.h"
#include "io/json_lenient.h"
#include "io/source_options.h"
#include "streamsim/base64.h"
#include "streamsim/json_nesting.h"
#include "streamsim/time.h"

namespace streamsim {

Result<ParseMode> parseParseMode(std::string_view name) {
  std::string n;
  for (char c : name) n.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  if (n == "PERMISSIVE") return ParseMode::kPermissive;
  if (n == "DROPMALFORMED") return ParseMode::kDropMalformed;
  if (n == "FAILFAST") return ParseMode::kFailFast;
  return Status::InvalidArgument(fmt::format(
      "unknown parse mode '{}': expected PERMISSIVE, DROPMALFORMED or FAILFAST", name));
}

std::string_view parseModeName(ParseMode mode) {
  switch (mode) {
    case ParseMode::kPermissive: return "PERMISSIVE";
    case ParseMode::kDropMalformed: return "DROPMALFORMED";
    case ParseMode::kFailFast: return "FAILFAST";
  }
  return "?";
}

namespace {

using json = nlohmann::json;

void appendQuoted(std::string& out, const std::string& s) { out += json(s).dump(); }

bool isNestedType(Type t) { return t == Type::kStruct || t == Type::kArray || t == Type::kMap; }

// A timestamp string as JacksonParser reads it: the timestampFormat pattern when given, else (or
// on a mismatch with the fallback enabled) the lenient parse (time.h parseTimestamp).
Result<TimeMs> readTimestamp(std::string_view s, const JsonReadOptions& o) {
  if (o.timestampFormat) {
    if (auto t = expr::datetime::parseWith(*o.timestampFormat, s, detail::fileTimeZone())) return *t;
    if (!o.enableDateTimeParsingFallback.value_or(false))
      return Status::InvalidArgument(fmt::format("'{}' does not match the timestampFormat", s));
  }
  return parseTimestamp(s);
}

// A date string as JacksonParser reads it: the dateFormat pattern (else yyyy-MM-dd); with the
// fallback (the default without a dateFormat), the lenient date parse, then an integer string
// as days since the epoch (Spark 1.5 wrote dates so).
std::optional<int64_t> readDate(std::string_view s, const JsonReadOptions& o) {
  if (o.dateFormat) {
    if (auto ms = expr::datetime::parseWith(*o.dateFormat, s, detail::fileTimeZone()))
      return expr::datetime::floorDivMs(*ms, 86400000);
  }
  if (!o.enableDateTimeParsingFallback.value_or(o.dateFormat == nullptr)) return std::nullopt;
  if (auto d = parseDate(s)) return d;
  int32_t days = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), days);
  if (ec == std::errc() && p == s.data() + s.size() && !s.empty()) return days;
  return std::nullopt;
}

// A JSON value (inside a struct, array or map column) as a value of `f`'s type, with the casts
// of the top-level reader (the header's table): a struct from an object (keys not in the struct
// ignored, missing ones null), an array from an array, a map from an object (keys cast from
// their strings to the key type).
// Partial results (JacksonParser with spark.sql.json.enablePartialResults, true since Spark 4.0):
// a struct field that does not cast is null and the struct is kept; a partial struct stays
// partial inside an array or map; an array element or map value that does not cast fails the
// whole array or map (convertArray does not catch it; convertMap's keys and values then differ
// in length, which fails ArrayBasedMapData). A kept partial value sets `partialError` to the
// first failure's message (the record is then still malformed).
Result<Value> jsonToValue(const json& j, const Field& f, const JsonReadOptions& o, std::string& partialError) {
  if (j.is_null()) return Value();
  auto bad = [&] {
    // Scalars quoted as they were; a container by its kind (a deep one is not printed).
    const std::string text = j.is_structured() ? std::string(j.is_object() ? "{...}" : "[...]") : j.dump();
    return Status::InvalidArgument(fmt::format("cannot read JSON value {} as {}", text, typeDDL(f)));
  };
  switch (f.type) {
    case Type::kStruct: {
      if (!j.is_object()) return bad();
      std::vector<Value> fields(f.nested->size());
      for (auto it = j.begin(); it != j.end(); ++it) {
        int at = f.nested->indexOf(it.key());
        if (at < 0) continue;
        auto v = jsonToValue(it.value(), f.nested->field(at), o, partialError);
        if (!v.ok()) {
          if (partialError.empty())
            partialError = v.status().withContext(fmt::format("field '{}'", it.key())).message();
          fields[at] = Value();
          continue;
        }
        fields[at] = std::move(v).value();
      }
      return Value::structOf(f.nested, std::move(fields));
    }
    case Type::kArray: {
      if (!j.is_array()) return bad();
      std::vector<Value> elements;
      elements.reserve(j.size());
      for (const json& e : j) {
        auto v = jsonToValue(e, f.nested->field(0), o, partialError);
        if (!v.ok()) return v.status().withContext(fmt::format("element {}", elements.size()));
        elements.push_back(std::move(v).value());
      }
      return Value::arrayOf(std::move(elements));
    }
    case Type::kMap: {
      if (!j.is_object()) return bad();
      std::vector<std::pair<Value, Value>> entries;
      for (auto it = j.begin(); it != j.end(); ++it) {
        auto k = Value(it.key()).castTo(f.nested->field(0));
        if (!k.ok()) return k.status().withContext(fmt::format("map key '{}'", it.key()));
        auto v = jsonToValue(it.value(), f.nested->field(1), o, partialError);
        if (!v.ok()) return v.status().withContext(fmt::format("value of map key '{}'", it.key()));
        entries.emplace_back(std::move(k).value(), std::move(v).value());
      }
      return Value::mapOf(std::move(entries));
    }
    case Type::kString:
      if (j.is_string()) return Value(j.get<std::string>());
      return Value(j.dump());  // as the top-level reader keeps a nested value's JSON text
    case Type::kBoolean:
      if (j.is_boolean()) return Value(j.get<bool>());
      return bad();
    case Type::kInt:
      if (j.is_number_integer()) {
        if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT32_MAX)) return bad();
        const int64_t n = j.get<int64_t>();
        if (n < std::numeric_limits<int32_t>::min() || n > std::numeric_limits<int32_t>::max()) return bad();
        return Value(static_cast<int32_t>(n));
      }
      return bad();
    case Type::kLong:
      if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return bad();
      if (j.is_number_integer()) return Value(j.get<int64_t>());
      return bad();
    case Type::kDouble:
      if (j.is_number()) return Value(j.get<double>());
      if (j.is_string()) {
        const std::string& str = j.get_ref<const std::string&>();
        if (str == "NaN") return Value(std::numeric_limits<double>::quiet_NaN());
        if (str == "Infinity" || str == "+Infinity" || str == "+INF")
          return Value(std::numeric_limits<double>::infinity());
        if (str == "-Infinity" || str == "-INF") return Value(-std::numeric_limits<double>::infinity());
      }
      return bad();
    case Type::kTimestamp:
      if (j.is_string() && !j.get_ref<const std::string&>().empty()) {
        auto ts = readTimestamp(j.get_ref<const std::string&>(), o);
        if (!ts.ok()) return ts.status();
        return Value::timestamp(*ts);
      }
      if (j.is_number_integer() && !j.is_number_unsigned()) {
        const int64_t n = j.get<int64_t>();
        if (n > std::numeric_limits<int64_t>::max() / 1000 || n < std::numeric_limits<int64_t>::min() / 1000)
          return bad();
        return Value::timestamp(n * 1000);
      }
      if (j.is_number_unsigned() && j.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max() / 1000))
        return Value::timestamp(static_cast<int64_t>(j.get<uint64_t>()) * 1000);
      return bad();
    case Type::kDate: {  // Spark's JSON reader: a date from its text (yyyy-MM-dd)
      if (!j.is_string()) return bad();
      auto d = readDate(j.get_ref<const std::string&>(), o);
      if (!d) return bad();
      return Value::date(*d);
    }
    case Type::kBinary: {  // ... binary from base64
      if (!j.is_string()) return bad();
      auto b = base64DecodeMime(j.get_ref<const std::string&>());
      if (!b.ok()) return bad();
      return Value::binary(std::move(b).value());
    }
    case Type::kNull: return Value();
  }
  return bad();
}

// SAX handler building one row straight from the token stream (no DOM). Values of columns not
// in the schema are skipped; a nested value under a string column is re-serialised compactly
// (Spark's default, non-exact string parsing).
class RowSax {
 public:
  using KeyHint = JsonRowParser::KeyHint;
  RowSax(const Schema& schema, const JsonReadOptions& options, int corrupt_index, std::vector<Value>& out,
         std::vector<KeyHint>* keyHints = nullptr)
      : schema_(schema), options_(options), corrupt_index_(corrupt_index), out_(out), key_hints_(keyHints) {}

  const std::string& error() const { return error_; }
  // True when the record parsed but a field did not cast (badField): the row holds the other
  // fields, error() the first failure.
  bool partial() const { return partial_; }

  bool null() {
    if (depth_ == 0) return fail("the line is not a JSON object");
    if (depth_ > 1) return nestedScalar("null");
    return true;  // already null
  }
  bool boolean(bool b) {
    if (depth_ == 0) return fail("the line is not a JSON object");
    if (depth_ > 1) return nestedScalar(b ? "true" : "false");
    if (field_ < 0) return true;
    Type t = schema_.field(field_).type;
    if (t == Type::kBoolean) return set(Value(b));
    if (t == Type::kString) return set(Value(b ? "true" : "false"));
    return badValue(b ? "true" : "false");
  }
  bool number_integer(json::number_integer_t n) {
    if (depth_ == 0) return fail("the line is not a JSON object");
    if (depth_ > 1) return nestedScalar(std::to_string(n));
    if (field_ < 0) return true;
    return integer(n);
  }
  bool number_unsigned(json::number_unsigned_t u) {
    if (depth_ == 0) return fail("the line is not a JSON object");
    if (depth_ > 1) return nestedScalar(std::to_string(u));
    if (field_ < 0) return true;
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      Type t = schema_.field(field_).type;
      if (t == Type::kDouble) return set(Value(static_cast<double>(u)));
      if (t == Type::kString) return set(Value(std::to_string(u)));
      return badValue(std::to_string(u));
    }
    return integer(static_cast<int64_t>(u));
  }
  bool number_float(json::number_float_t d, const json::string_t& raw) {
    if (depth_ == 0) return fail("the line is not a JSON object");
    if (depth_ > 1) return nestedScalar(raw);
    if (field_ < 0) return true;
    Type t = schema_.field(field_).type;
    if (t == Type::kDouble) return set(Value(d));
    if (t == Type::kString) return set(Value(raw));
    return badValue(raw);
  }
  bool string(json::string_t& s) {
    if (depth_ == 0) return fail("the line is not a JSON object");
    if (depth_ > 1) {
      std::string q;
      appendQuoted(q, s);
      return nestedScalar(q);
    }
    if (field_ < 0) return true;
    Type t = schema_.field(field_).type;
    switch (t) {
      case Type::kString: return set(Value(std::move(s)));
      case Type::kTimestamp: {
        if (s.empty()) return badValue("\"\"");
        auto ts = readTimestamp(s, options_);
        if (!ts.ok()) {
          return badField(fmt::format("field '{}': {}", schema_.field(field_).name, ts.status().message()));
        }
        return set(Value::timestamp(*ts));
      }
      case Type::kDate:
        if (auto d = readDate(s, options_)) return set(Value::date(*d));
        break;
      case Type::kBinary:
        if (auto b = base64DecodeMime(s); b.ok()) return set(Value::binary(std::move(b).value()));
        break;
      case Type::kDouble:
        if (s == "NaN") return set(Value(std::numeric_limits<double>::quiet_NaN()));
        if (s == "Infinity" || s == "+Infinity" || s == "+INF")
          return set(Value(std::numeric_limits<double>::infinity()));
        if (s == "-Infinity" || s == "-INF") return set(Value(-std::numeric_limits<double>::infinity()));
        break;
      default: break;
    }
    std::string q;
    appendQuoted(q, s);
    return badValue(q);
  }
  // A plain string (no escapes) of the record itself, from the flat-line reader: a timestamp
  // column parses it in place, without the std::string the general path builds (a timestamp
  // is longer than the short-string buffer: an allocation per line). Anything else, and a
  // timestamp that does not parse (for its error), takes string().
  bool plainTopLevelString(std::string_view v) {
    if (depth_ == 1 && field_ < 0) return true;  // a column not in the schema
    if (depth_ == 1) {
      const Type t = schema_.field(field_).type;
      // A string column takes the text as it is (string() would copy it into a std::string
      // first, then move that into the Value).
      if (t == Type::kString) return put(v);
      if (t == Type::kTimestamp && !v.empty()) {
        auto ts = readTimestamp(v, options_);
        if (ts.ok()) return set(Value::timestamp(*ts));
      }
    }
    json::string_t s(v);
    return string(s);
  }
  bool binary(json::binary_t&) { return fail("binary values are not JSON"); }

  bool start_object(std::size_t) { return startContainer('{'); }
  bool end_object() { return endContainer('}'); }
  bool start_array(std::size_t) {
    if (depth_ == 0) return fail("the line is a JSON array, not a JSON object");
    return startContainer('[');
  }
  bool end_array() { return endContainer(']'); }

  bool key(json::string_t& k) {
    if (depth_ == 1) return topLevelKey(k);
    if (capturing()) {
      separator();
      appendQuoted(raw_, k);
      raw_.push_back(':');
      after_key_ = true;
    }
    return true;
  }

  // A key of the record itself: selects the column its value goes to (-1: skipped).
  bool topLevelKey(std::string_view k) {
    field_ = columnOf(k);
    if (field_ == corrupt_index_) field_ = -1;
    return true;
  }

  // The plain name the next top-level key had on the previous lines (empty: none known).
  std::string_view hintedPlainName() const {
    if (key_hints_ == nullptr || top_level_keys_ >= key_hints_->size()) return {};
    const KeyHint& h = (*key_hints_)[top_level_keys_];
    return h.plain ? std::string_view(schema_.field(h.column).name) : std::string_view();
  }
  // The next top-level key is that name: topLevelKey(name) without the name compare
  // (columnOf would return the hint).
  bool hintedKey() {
    field_ = (*key_hints_)[top_level_keys_++].column;
    if (field_ == corrupt_index_) field_ = -1;
    return true;
  }

  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception&) {
    if (error_.empty()) {
      error_ = fmt::format("invalid JSON at column {} near '{}'", position, last_token);
    }
    return false;
  }

 private:
  // schema_.indexOf(k), asking first the column the key at this position had on earlier lines.
  // The remembered column came from indexOf of the same name, so a name match is indexOf's
  // answer.
  int columnOf(std::string_view k) {
    const size_t n = top_level_keys_++;
    if (key_hints_ == nullptr) return schema_.indexOf(k);
    std::vector<KeyHint>& hints = *key_hints_;
    if (n < hints.size() && hints[n].column >= 0 && schema_.field(hints[n].column).name == k)
      return hints[n].column;
    const int i = schema_.indexOf(k);
    if (n >= hints.size()) hints.resize(n + 1);
    hints[n] = KeyHint{i, i >= 0 && isPlainName(schema_.field(i).name)};
    return i;
  }
  // What FlatLineReader::plainString reads to its end: no quote, backslash, control or
  // non-ASCII byte (and not empty: an empty hint means none).
  static bool isPlainName(std::string_view name) {
    if (name.empty()) return false;
    for (char c : name) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x80 || c == '"' || c == '\\') return false;
    }
    return true;
  }
  bool fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }
  // A top-level field whose value does not cast: null, and the record is malformed with the
  // other fields kept (JacksonParser.convertObject at the root: PartialResultException).
  bool badField(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    partial_ = true;
    return put(Value());
  }
  bool badValue(const std::string& text) {
    return badField(fmt::format("field '{}': cannot read JSON value {} as {}", schema_.field(field_).name,
                            text, typeName(schema_.field(field_).type)));
  }
  bool set(Value v) { return put(std::move(v)); }
  // Stores the value of column field_, built in place from `args`. Keys mostly come in column
  // order, so values are appended to the row (a slot default-constructed first and assigned
  // later cost a variant destroy + move per column); a key past the end fills the gap with
  // nulls, a key seen before (or out of order) assigns its slot. parseRecord pads the end.
  template <typename... Args>
  bool put(Args&&... args) {
    const auto f = static_cast<size_t>(field_);
    if (f < out_.size()) {
      out_[f] = Value(std::forward<Args>(args)...);
      return true;
    }
    if (f > out_.size()) out_.resize(f);
    out_.emplace_back(std::forward<Args>(args)...);
    return true;
  }
  // The number's JSON text (std::to_string(n)) is built only where it is used: a string
  // column or an error message.
  bool integer(int64_t n) {
    switch (schema_.field(field_).type) {
      case Type::kInt:
        if (n < std::numeric_limits<int32_t>::min() || n > std::numeric_limits<int32_t>::max())
          return badValue(std::to_string(n));
        return set(Value(static_cast<int32_t>(n)));
      case Type::kLong: return put(n);  // built in its slot (no temporary Value moved)
      case Type::kDouble: return set(Value(static_cast<double>(n)));
      case Type::kString: return set(Value(std::to_string(n)));
      case Type::kTimestamp:
        // Epoch seconds, as Spark's JSON reader.
        if (n > std::numeric_limits<int64_t>::max() / 1000 ||
            n < std::numeric_limits<int64_t>::min() / 1000)
          return badValue(std::to_string(n));
        return set(Value::timestamp(n * 1000));
      default: return badValue(std::to_string(n));
    }
  }
  // True while inside a nested value of a string column.
  bool capturing() const { return capture_depth_ > 0; }
  void separator() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) raw_.push_back(',');
      first_.back() = false;
    }
  }
  bool nestedScalar(const std::string& text) {
    if (capturing()) {
      separator();
      raw_ += text;
    }
    return true;
  }
  bool startContainer(char open) {
    ++depth_;
    // Spark's JSONOptions.maxNestingDepth: Jackson's StreamReadConstraints.DEFAULT_MAX_DEPTH.
    if (depth_ > kMaxJsonNestingDepth) {
      --depth_;
      return fail(fmt::format("the line is nested deeper than {} levels (Jackson's maxNestingDepth)",
                              kMaxJsonNestingDepth));
    }
    if (depth_ == 1) return true;  // the record itself
    if (depth_ == 2) {
      if (field_ < 0) return true;  // skipped column
      const Type t = schema_.field(field_).type;
      if (t != Type::kString && !isNestedType(t)) {
        // The field is null and its container skipped (parser.skipChildren()).
        badValue(open == '{' ? "{...}" : "[...]");
        field_ = -1;
        return true;
      }
      capture_depth_ = depth_;
      capture_nested_ = isNestedType(t);
      raw_.clear();
      first_.clear();
      after_key_ = false;
      raw_.push_back(open);
      first_.push_back(true);
      return true;
    }
    if (capturing()) {
      // A struct/array/map column's value is read by recursion over its type: bounded depth.
      if (capture_nested_ && depth_ - capture_depth_ > kMaxNestedDepth) {
        --depth_;
        return fail(fmt::format("field '{}': JSON nested deeper than {}", schema_.field(field_).name,
                                kMaxNestedDepth));
      }
      separator();
      raw_.push_back(open);
      first_.push_back(true);
    }
    return true;
  }
  bool endContainer(char close) {
    if (capturing()) {
      raw_.push_back(close);
      first_.pop_back();
      if (depth_ == capture_depth_) {
        capture_depth_ = 0;
        std::string text;
        text.swap(raw_);
        const Field& f = schema_.field(field_);
        if (isNestedType(f.type)) {
          // A struct, array or map column: its JSON text, captured whole, read by its type.
          std::string partial;
          auto v = jsonToValue(parseJsonBounded<json>(text), f, options_, partial);
          if (!v.ok()) {
            badField(fmt::format("field '{}': {}", f.name, v.status().message()));
          } else {
            if (!partial.empty()) badField(fmt::format("field '{}': {}", f.name, partial));
            set(std::move(v).value());
          }
        } else {
          set(Value(std::move(text)));
        }
      }
    }
    --depth_;
    return true;
  }

  const Schema& schema_;
  const JsonReadOptions& options_;
  int corrupt_index_;
  std::vector<Value>& out_;
  std::vector<KeyHint>* key_hints_;
  size_t top_level_keys_ = 0;
  int depth_ = 0;
  int field_ = -1;
  int capture_depth_ = 0;
  bool capture_nested_ = false;  // the captured value is a struct/array/map column's
  static constexpr int kMaxNestedDepth = 256;
  bool after_key_ = false;
  std::vector<bool> first_;
  std::string raw_;
  std::string error_;
  bool partial_ = false;
};

// The common line of Spark's JSON source read without nlohmann (which costs several times more
// per line): one flat object whose values are integers, true, false, null or ASCII strings
// without escapes. It feeds RowSax exactly the events nlohmann's SAX parser would (a
// non-negative integer is number_unsigned, a negative one number_integer, as nlohmann's lexer
// reports them), so the row is the same. On anything else — nesting, escapes, non-ASCII bytes,
// fractions, exponents, integers of more than 18 digits, a BOM, any syntax error, or a value
// RowSax rejects — it returns false and the caller re-parses the line with nlohmann, which then
// decides and words the error.
class FlatLineReader {
 public:
  FlatLineReader(std::string_view line, RowSax& sax)
      : p_(line.data()), end_(line.data() + line.size()), sax_(sax) {}

  bool read() {
    skipSpace();
    if (!consume('{') || !sax_.start_object(static_cast<std::size_t>(-1))) return false;
    skipSpace();
    if (!consume('}')) {
      while (true) {
        skipSpace();
        if (!key()) return false;
        skipSpace();
        if (!consume(':')) return false;
        skipSpace();
        if (!value()) return false;
        skipSpace();
        if (consume(',')) continue;
        if (consume('}')) break;
        return false;
      }
    }
    if (!sax_.end_object()) return false;
    skipSpace();
    return p_ == end_;  // strict: nothing may follow the object
  }

 private:
  // nlohmann's whitespace set. The usual case (no space) is the inlined test; the loop is out
  // of line (with it, the compiler called skipSpace ~9 times a line).
  void skipSpace() {
    if (p_ < end_ && static_cast<unsigned char>(*p_) > ' ') return;
    skipSpaceRun();
  }
  [[gnu::noinline]] void skipSpaceRun() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }
  // A top-level key. The name the key at this position had on the previous lines is matched as
  // bytes first (quote, name, quote): lines of a file repeat their keys, and a plain name
  // matched this way is what plainString would have read. Otherwise the key is scanned.
  bool key() {
    if (std::string_view name = sax_.hintedPlainName(); !name.empty()) {
      const size_t n = name.size();
      if (static_cast<size_t>(end_ - p_) >= n + 2 && p_[0] == '"' && p_[n + 1] == '"' &&
          std::memcmp(p_ + 1, name.data(), n) == 0) {
        p_ += n + 2;
        return sax_.hintedKey();
      }
    }
    std::string_view k;
    if (!plainString(k)) return false;
    return sax_.topLevelKey(k);
  }
  bool consume(char c) {
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool literal(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word)
      return false;
    p_ += word.size();
    return true;
  }
  // A string of printable ASCII without escapes (those need nlohmann's unescaping/validation).
  bool plainString(std::string_view& out) {
    if (!consume('"')) return false;
    const char* start = p_;
    // Eight bytes at a time while none of them is a quote, a backslash, a control character or
    // non-ASCII (the per-byte loop below was most of a line's cost); the loop below then finds
    // and judges the byte that stopped this one.
    while (end_ - p_ >= 8) {
      uint64_t x;
      std::memcpy(&x, p_, 8);
      constexpr uint64_t kOnes = 0x0101010101010101ULL;
      constexpr uint64_t kHigh = 0x8080808080808080ULL;
      auto zeroByte = [&](uint64_t v) { return (v - kOnes) & ~v & kHigh; };
      uint64_t stop = (x & kHigh) | ((x - 0x20 * kOnes) & ~x & kHigh) |
                      zeroByte(x ^ ('"' * kOnes)) | zeroByte(x ^ ('\\' * kOnes));
      if constexpr (std::endian::native == std::endian::little) {
        // The lowest flagged byte is exact (a borrow only runs upward, from a flagged byte), and
        // on a little-endian load it is the first of the eight in the text: the stopping byte,
        // found without the byte loop below. Only a closing quote ends the string here.
        if (stop != 0) {
          p_ += std::countr_zero(stop) / 8;
          if (*p_ != '"') return false;
          out = std::string_view(start, static_cast<size_t>(p_ - start));
          ++p_;
          return true;
        }
      } else if (stop != 0) {
        break;
      }
      p_ += 8;
    }
    while (p_ < end_) {
      unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        out = std::string_view(start, static_cast<size_t>(p_ - start));
        ++p_;
        return true;
      }
      if (c < 0x20 || c >= 0x80 || c == '\\') return false;
      ++p_;
    }
    return false;
  }
  bool value() {
    if (p_ == end_) return false;
    char c = *p_;
    if (c == '"') {
      std::string_view v;
      if (!plainString(v)) return false;
      return sax_.plainTopLevelString(v);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    if (literal("true")) return sax_.boolean(true);
    if (literal("false")) return sax_.boolean(false);
    if (literal("null")) return sax_.null();
    return false;
  }
  bool number() {
    bool negative = consume('-');
    const char* digits = p_;
    uint64_t u = 0;
    while (p_ < end_ && *p_ >= '0' && *p_ <= '9') u = u * 10 + static_cast<uint64_t>(*p_++ - '0');
    size_t n = static_cast<size_t>(p_ - digits);
    // 18 digits cannot overflow int64; a leading zero is a syntax error in JSON.
    if (n == 0 || n > 18 || (n > 1 && *digits == '0')) return false;
    if (p_ < end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return false;  // a float
    if (negative) return sax_.number_integer(-static_cast<int64_t>(u));
    return sax_.number_unsigned(u);
  }

  const char* p_;
  const char* end_;
  RowSax& sax_;
};

bool isBlank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\f' && c != '\v') return false;
  }
  return true;
}

std::string_view clip(std::string_view line) {
  constexpr size_t kMax = 200;
  return line.size() <= kMax ? line : line.substr(0, kMax);
}

}  // namespace

Result<JsonReadOptions> jsonReadOptions(const std::map<std::string, std::string>& options,
                                        JsonReadOptions base) {
  for (const auto& [rawKey, value] : options) {
    const std::string key = detail::lowerAscii(rawKey);
    if (key == "timestampformat") {
      STREAMSIM_ASSIGN_OR_RETURN(base.timestampFormat, detail::datetimePatternOption("json", rawKey, value));
    } else if (key == "dateformat") {
      STREAMSIM_ASSIGN_OR_RETURN(base.dateFormat, detail::datetimePatternOption("json", rawKey, value));
    } else if (key == "enabledatetimeparsingfallback") {
      // JSONOptions: `.toBoolean` (true/false in any case, anything else an error).
      const std::string v = detail::lowerAscii(value);
      if (v != "true" && v != "false")
        return Status::InvalidArgument(fmt::format("json option {}: '{}' is not true or false", rawKey, value));
      base.enableDateTimeParsingFallback = v == "true";
    }
  }
  return base;
}

Result<JsonRowParser> JsonRowParser::make(SchemaPtr schema, JsonReadOptions options) {
  if (schema == nullptr) return Status::InvalidArgument("JSON reader needs a schema");
  int corrupt = schema->indexOf(options.columnNameOfCorruptRecord);
  if (corrupt >= 0 && schema->field(corrupt).type != Type::kString) {
    return Status::InvalidArgument(fmt::format(
        "the corrupt record column '{}' must be of type string (nullable), not {}",
        options.columnNameOfCorruptRecord, typeName(schema->field(corrupt).type)));
  }
  return JsonRowParser(std::move(schema), std::move(options), corrupt);
}

Status JsonRowParser::parseRecord(std::string_view line, std::vector<Value>& out) const {
  return parseRecord(line, out, nullptr);
}

Status JsonRowParser::parseRecord(std::string_view line, std::vector<Value>& out,
                                  std::vector<KeyHint>* keyHints) const {
  // Values are appended as their keys come (RowSax::put), then the row is padded with nulls
  // to the schema's width.
  out.clear();
  out.reserve(schema_->size());
  auto finish = [&](const RowSax& sax) {
    out.resize(schema_->size());
    return sax.partial() ? Status::InvalidArgument(sax.error()) : Status::OK();
  };
  {
    RowSax flat(*schema_, options_, corrupt_index_, out, keyHints);
    if (FlatLineReader(line, flat).read()) return finish(flat);
  }
  out.clear();  // undo what the fast reader set before it gave up
  RowSax sax(*schema_, options_, corrupt_index_, out, keyHints);
  if (json::sax_parse(line.begin(), line.end(), &sax)) return finish(sax);
  // Spark's defaults beyond strict JSON ('single quotes', NaN/Infinity tokens): the line is
  // rewritten into strict JSON and read again; the strict error stands if that fails too.
  if (auto lenient = detail::sparkLenientJson(line)) {
    std::vector<Value> again;
    again.reserve(schema_->size());
    RowSax retry(*schema_, options_, corrupt_index_, again, nullptr);
    if (json::sax_parse(lenient->begin(), lenient->end(), &retry)) {
      out = std::move(again);
      return finish(retry);
    }
  }
  // Not JSON (or not an object): no partial results, every field null.
  out.assign(schema_->size(), Value());
  return Status::InvalidArgument(sax.error().empty() ? std::string("invalid JSON") : sax.error());
}

Status JsonRowParser::parseLines(std::string_view text, std::string_view fileName,
                                 std::vector<Row>& out, JsonParseStats* stats) const {
  JsonParseStats local;
  size_t pos = 0;
  int64_t lineNo = 0;
  std::vector<Value> values;
  std::vector<KeyHint> keyHints;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(pos, end - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (isBlank(line)) continue;
    ++local.lines;
    Status st = parseRecord(line, values, &keyHints);
    if (st.ok()) {
      out.emplace_back(schema_, std::move(values));
      ++local.rows;
      continue;
    }
    ++local.malformed;
    switch (options_.mode) {
      case ParseMode::kFailFast:
        if (stats != nullptr) *stats = local;
        return Status::InvalidArgument(fmt::format(
            "{}:{}: malformed JSON record ({}) and mode is FAILFAST: {}", fileName, lineNo,
            st.message(), clip(line)));
      case ParseMode::kDropMalformed: break;
      case ParseMode::kPermissive: {
        // The fields that cast (none when the line is not a JSON object), the raw line in the
        // corrupt-record column (FailureSafeParser's partial results).
        if (corrupt_index_ >= 0) values[corrupt_index_] = Value(line);
        out.emplace_back(schema_, std::move(values));
        ++local.rows;
        break;
      }
    }
  }
  if (stats != nullptr) *stats = local;
  return Status::OK();
}

Result<std::vector<Row>> parseJsonLines(std::string_view text, const SchemaPtr& schema,
                                        const JsonReadOptions& options, std::string_view fileName) {
  STREAMSIM_ASSIGN_OR_RETURN(JsonRowParser parser, JsonRowParser::make(schema, options));
  std::vector<Row> rows;
  STREAMSIM_RETURN_IF_ERROR(parser.parseLines(text, fileName, rows));
  return rows;
}

void appendJsonLine(const Row& row, std::string& out) {
  out += row.toJson();
  out.push_back('\n');
}

std::string toJsonLines(const std::vector<Row>& rows) {
  std::string out;
  for (const Row& r : rows) appendJsonLine(r, out);
  return out;
}

}  // namespace streamsim
