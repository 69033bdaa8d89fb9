// Spark's DDL for schemas, read and written (value.h: Schema::parseDDL, Schema::toDDL, typeDDL):
// "id string, count long", nested ARRAY<...>, MAP<..., ...>, STRUCT<...> types, backquoted names.
#include "streamsim/value.h"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace streamsim {

namespace {

// Spark's DDL for a table schema (SqlBaseParser colType / complexColType / dataType): columns
// "name type [NOT NULL]" separated by commas; types are primitive names or
// ARRAY<type>, MAP<type, type>, STRUCT<name[:] type [NOT NULL], ...>; keywords case-insensitive.
class DdlParser {
 public:
  explicit DdlParser(std::string_view ddl) : ddl_(ddl) {}

  Result<Schema> columns() {
    std::vector<Field> fields;
    skipSpace();
    if (pos_ == ddl_.size()) return Schema();
    while (true) {
      auto f = column(/*inStruct=*/false);
      if (!f.ok()) return f.status();
      for (const auto& other : fields)
        if (other.name == f->name)
          return Status::InvalidArgument(
              fmt::format("schema '{}' names column '{}' twice", ddl_, f->name));
      fields.push_back(std::move(f).value());
      skipSpace();
      if (pos_ == ddl_.size()) break;
      if (ddl_[pos_] != ',') return expected("',' between columns");
      ++pos_;
    }
    return Schema(std::move(fields));
  }

 private:
  Status expected(std::string_view what) {
    skipSpace();  // the position and text of the offending token
    std::string got = pos_ < ddl_.size() ? fmt::format("'{}'", ddl_.substr(pos_, 12)) : "the end";
    return Status::InvalidArgument(fmt::format("bad schema '{}' at character {}: expected {}, got {}",
                                               ddl_, pos_, what, got));
  }
  void skipSpace() {
    while (pos_ < ddl_.size() && std::isspace(static_cast<unsigned char>(ddl_[pos_]))) ++pos_;
  }
  static bool isWordChar(char c) {
    return !std::isspace(static_cast<unsigned char>(c)) && c != ',' && c != ':' && c != '<' &&
           c != '>' && c != '(' && c != ')' && c != '`';
  }
  // A name or keyword; `backquoted` names may hold anything but a backquote ("``" is one).
  std::string word() {
    skipSpace();
    if (pos_ < ddl_.size() && ddl_[pos_] == '`') {
      std::string w;
      ++pos_;
      while (pos_ < ddl_.size()) {
        if (ddl_[pos_] == '`') {
          if (pos_ + 1 < ddl_.size() && ddl_[pos_ + 1] == '`') {
            w.push_back('`');
            pos_ += 2;
            continue;
          }
          ++pos_;
          return w;
        }
        w.push_back(ddl_[pos_++]);
      }
      return w;
    }
    size_t start = pos_;
    while (pos_ < ddl_.size() && isWordChar(ddl_[pos_])) ++pos_;
    return std::string(ddl_.substr(start, pos_ - start));
  }
  static std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
  bool take(char c) {
    skipSpace();
    if (pos_ < ddl_.size() && ddl_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  // name [:] type [NOT NULL]; the colon only inside a struct in Spark, accepted everywhere.
  Result<Field> column(bool inStruct) {
    skipSpace();
    const size_t at = pos_;
    std::string name = word();
    if (name.empty() && !(at < ddl_.size() && ddl_[at] == '`'))
      return expected(inStruct ? "a field name" : "a column name ('name type' pairs separated by "
                                                  "commas, like \"id string, count long\")");
    take(':');
    auto f = type(name);
    if (!f.ok()) return f.status();
    skipSpace();
    const size_t save = pos_;
    if (lower(word()) == "not") {
      const size_t nullAt = pos_;
      if (lower(word()) != "null") {
        pos_ = nullAt;
        return expected(fmt::format("NULL after NOT in column '{}'", name));
      }
      f->nullable = false;
    } else {
      pos_ = save;
    }
    return f;
  }

  Result<Field> type(const std::string& name) {
    skipSpace();
    const size_t at = pos_;
    if (depth_ >= kMaxDepth) return expected(fmt::format("types nested at most {} deep", kMaxDepth));
    struct Deeper {
      int& d;
      explicit Deeper(int& x) : d(++x) {}
      ~Deeper() { --d; }
    } deeper(depth_);
    std::string t = word();
    if (t.empty())
      return expected(fmt::format("a type for '{}' ('name type' pairs separated by commas, like "
                                  "\"id string, count long\")", name));
    const std::string k = lower(t);
    if (k == "array") {
      if (!take('<')) return expected("'<' after ARRAY");
      auto e = type("element");
      if (!e.ok()) return e.status();
      if (!take('>')) return expected("'>' closing ARRAY<");
      return arrayField(name, std::move(e).value());
    }
    if (k == "map") {
      if (!take('<')) return expected("'<' after MAP");
      auto key = type("key");
      if (!key.ok()) return key.status();
      if (!take(',')) return expected("',' between the key and value types of MAP<");
      auto value = type("value");
      if (!value.ok()) return value.status();
      if (!take('>')) return expected("'>' closing MAP<");
      key->nullable = false;
      return mapField(name, std::move(key).value(), std::move(value).value());
    }
    if (k == "struct") {
      if (!take('<')) return expected("'<' after STRUCT");
      std::vector<Field> fields;
      if (!take('>')) {
        while (true) {
          auto f = column(/*inStruct=*/true);
          if (!f.ok()) return f.status();
          for (const auto& other : fields)
            if (lower(other.name) == lower(f->name))
              return Status::InvalidArgument(fmt::format(
                  "schema '{}': struct '{}' names field '{}' twice", ddl_, name, f->name));
          fields.push_back(std::move(f).value());
          if (take('>')) break;
          if (!take(',')) return expected("',' or '>' in STRUCT<");
        }
      }
      return structField(name, makeSchema(std::move(fields)));
    }
    auto p = parseTypeName(t);
    if (!p.ok()) {
      pos_ = at;
      return p.status().withContext(
          fmt::format("schema '{}' at character {}, column '{}'", ddl_, at, name));
    }
    return Field{name, *p, true, nullptr};
  }

  static constexpr int kMaxDepth = 64;
  std::string_view ddl_;
  size_t pos_ = 0;
  int depth_ = 0;
};

// A name as Spark's quoteIfNeeded writes it: backquoted unless letters, digits and '_'.
std::string quoteIfNeeded(const std::string& name) {
  bool plain = !name.empty();
  for (char c : name) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (plain) return name;
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out.push_back('`');
    out.push_back(c);
  }
  out.push_back('`');
  return out;
}

}  // namespace

Result<Schema> Schema::parseDDL(std::string_view ddl) { return DdlParser(ddl).columns(); }

std::string typeDDL(const Field& f) {
  if (!f.nested) return std::string(typeName(f.type));
  const Schema& inner = *f.nested;
  switch (f.type) {
    case Type::kArray: return "array<" + typeDDL(inner.field(0)) + ">";
    case Type::kMap: return "map<" + typeDDL(inner.field(0)) + ", " + typeDDL(inner.field(1)) + ">";
    default: {
      std::string out = "struct<";
      for (size_t i = 0; i < inner.size(); ++i) {
        if (i) out += ", ";
        out += quoteIfNeeded(inner.field(i).name);
        out += ": ";
        out += typeDDL(inner.field(i));
        if (!inner.field(i).nullable) out += " NOT NULL";
      }
      return out + ">";
    }
  }
}

std::string Schema::toDDL() const {
  std::string out;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i) out += ", ";
    out += fields_[i].name;
    out += ' ';
    out += typeDDL(fields_[i]);
    if (!fields_[i].nullable) out += " NOT NULL";
  }
  return out;
}

}  // namespace streamsim
