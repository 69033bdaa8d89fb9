// Spark SQL expression parser (expr/parser.h). The grammar levels follow SqlBaseParser.g4:
// booleanExpression (OR < AND < NOT < predicate), valueExpression (comparison < | < ^ < & <
// + - || < * / % DIV < unary), primaryExpression (postfix [i], .field, ::type). Literal
// typing follows SqlBaseLexer.g4 and AstBuilder: 1 INT (BIGINT when it does not fit), 1L
// BIGINT, 1.5 / 1e3 / 1.5D DOUBLE here (DECIMAL for 1.5 in Spark: no decimal type in streamsim).
#include "streamsim/expr/parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "streamsim/spark_errors.h"

namespace streamsim::expr {
namespace {

enum class Tok { kIdent, kQuotedIdent, kString, kNumber, kOp, kEnd };

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;  // identifier / string content / operator / number text
  int pos = 0;
  int end = 0;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); }

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}
  Result<std::vector<Token>> run() {
    std::vector<Token> out;
    size_t i = 0;
    while (true) {
      while (i < s_.size() && std::isspace(static_cast<unsigned char>(s_[i]))) ++i;
      // Comments: -- to end of line, /* ... */.
      if (i + 1 < s_.size() && s_[i] == '-' && s_[i + 1] == '-') {
        while (i < s_.size() && s_[i] != '\n') ++i;
        continue;
      }
      if (i + 1 < s_.size() && s_[i] == '/' && s_[i + 1] == '*') {
        size_t e = s_.find("*/", i + 2);
        i = e == std::string_view::npos ? s_.size() : e + 2;
        continue;
      }
      Token t;
      t.pos = static_cast<int>(i);
      if (i >= s_.size()) {
        t.kind = Tok::kEnd;
        t.end = t.pos;
        out.push_back(t);
        return out;
      }
      char c = s_[i];
      if (c == '\'' || c == '"') {
        // 'it''s', "a\"b": Spark's unescapeSQLString.
        char q = c;
        std::string v;
        size_t j = i + 1;
        bool closed = false;
        while (j < s_.size()) {
          char d = s_[j];
          if (d == '\\' && j + 1 < s_.size()) {
            char e = s_[j + 1];
            switch (e) {
              case 'n': v += '\n'; break;
              case 't': v += '\t'; break;
              case 'r': v += '\r'; break;
              case '0': v += '\0'; break;
              case 'b': v += '\b'; break;
              case 'Z': v += '\x1a'; break;
              case '%': v += "\\%"; break;
              case '_': v += "\\_"; break;
              default: v += e;
            }
            j += 2;
            continue;
          }
          if (d == q) {
            if (j + 1 < s_.size() && s_[j + 1] == q) {
              v += q;
              j += 2;
              continue;
            }
            closed = true;
            ++j;
            break;
          }
          v += d;
          ++j;
        }
        if (!closed) return syntaxError(t.pos, std::string(s_.substr(i, 1)));
        t.kind = Tok::kString;
        t.text = std::move(v);
        i = j;
      } else if (c == '`') {
        std::string v;
        size_t j = i + 1;
        bool closed = false;
        while (j < s_.size()) {
          if (s_[j] == '`') {
            if (j + 1 < s_.size() && s_[j + 1] == '`') {
              v += '`';
              j += 2;
              continue;
            }
            closed = true;
            ++j;
            break;
          }
          v += s_[j++];
        }
        if (!closed) return syntaxError(t.pos, "`");
        t.kind = Tok::kQuotedIdent;
        t.text = std::move(v);
        i = j;
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && i + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i + 1])))) {
        size_t j = i;
        while (j < s_.size() && std::isdigit(static_cast<unsigned char>(s_[j]))) ++j;
        if (j < s_.size() && s_[j] == '.') {
          ++j;
          while (j < s_.size() && std::isdigit(static_cast<unsigned char>(s_[j]))) ++j;
        }
        if (j < s_.size() && (s_[j] == 'e' || s_[j] == 'E')) {
          size_t k = j + 1;
          if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
          if (k < s_.size() && std::isdigit(static_cast<unsigned char>(s_[k]))) {
            while (k < s_.size() && std::isdigit(static_cast<unsigned char>(s_[k]))) ++k;
            j = k;
          }
        }
        // Suffixes: L S Y D F BD.
        if (j + 1 < s_.size() && std::toupper(static_cast<unsigned char>(s_[j])) == 'B' &&
            std::toupper(static_cast<unsigned char>(s_[j + 1])) == 'D') {
          j += 2;
        } else if (j < s_.size() && std::strchr("LSYDFlsydf", s_[j]) != nullptr && s_[j] != '\0') {
          ++j;
        }
        // 12abc is an identifier in Spark's lexer (IDENTIFIER: (LETTER|DIGIT|_)+).
        if (j < s_.size() && identChar(s_[j])) {
          while (j < s_.size() && identChar(s_[j])) ++j;
          t.kind = Tok::kIdent;
        } else {
          t.kind = Tok::kNumber;
        }
        t.text = std::string(s_.substr(i, j - i));
        i = j;
      } else if (identChar(c)) {
        size_t j = i;
        while (j < s_.size() && identChar(s_[j])) ++j;
        t.kind = Tok::kIdent;
        t.text = std::string(s_.substr(i, j - i));
        i = j;
      } else {
        static constexpr std::string_view kOps[] = {"<=>", "::", "<=", ">=", "<>", "!=", "==", "||", "->",
                                                    "(", ")", "[", "]", ",", ".", "+", "-", "*", "/",
                                                    "%", "=", "<", ">", "!", "&", "|", "^", "~", ":"};
        bool found = false;
        for (auto op : kOps) {
          if (s_.substr(i, op.size()) == op) {
            t.kind = Tok::kOp;
            t.text = std::string(op);
            i += op.size();
            found = true;
            break;
          }
        }
        if (!found) return syntaxError(t.pos, std::string(1, c));
      }
      t.end = static_cast<int>(i);
      out.push_back(std::move(t));
    }
  }

  Status syntaxError(int pos, std::string near) {
    error_pos_ = pos;
    return sparkError(Status::Code::kInvalidArgument, "PARSE_SYNTAX_ERROR",
                      {{"error", fmt::format("'{}'", near)}, {"hint", ""}},
                      fmt::format("line 1, pos {}", pos));
  }
  int errorPos() const { return error_pos_; }

 private:
  std::string_view s_;
  int error_pos_ = 0;
};

std::shared_ptr<Node> makeNode(Node::Kind k, int pos) {
  auto n = std::make_shared<Node>();
  n->kind = k;
  n->pos = pos;
  return n;
}

NodePtr literalNode(Value v, Type t, int pos) {
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::kLiteral;
  n->literal = std::move(v);
  n->type = Field{"", t, true, nullptr};
  n->pos = pos;
  return n;
}

// Reserved words that end an expression (a bare alias may not be one of them).
bool isReserved(const std::string& w) {
  static const char* kWords[] = {"and", "or", "not", "is", "in", "like", "ilike", "rlike", "regexp",
                                 "between", "as", "when", "then", "else", "end", "from", "case",
                                 "distinct", "escape", "div", "null", "true", "false"};
  for (auto k : kWords)
    if (w == k) return true;
  return false;
}

class Parser {
 public:
  Parser(std::string_view sql, std::vector<Token> toks) : sql_(sql), t_(std::move(toks)) {}

  Result<Column> named() {
    STREAMSIM_ASSIGN_OR_RETURN(NodePtr e, expression());
    if (isWord("as")) {
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(std::string name, identifier());
      e = alias(e, std::move(name));
    } else if ((cur().kind == Tok::kIdent && !isReserved(lower(cur().text))) || cur().kind == Tok::kQuotedIdent) {
      std::string name = cur().text;
      ++i_;
      e = alias(e, std::move(name));
    }
    if (cur().kind != Tok::kEnd) return error(cur(), "");
    return Column(e);
  }

  Result<Field> dataTypeAtEnd() {
    STREAMSIM_ASSIGN_OR_RETURN(Field f, dataType());
    if (cur().kind != Tok::kEnd) return error(cur(), "");
    return f;
  }

  int errorPos() const { return error_pos_; }

 private:
  const Token& cur() const { return t_[i_]; }
  const Token& peek(size_t k = 1) const { return t_[std::min(i_ + k, t_.size() - 1)]; }
  bool isWord(std::string_view w) const { return cur().kind == Tok::kIdent && lower(cur().text) == w; }
  bool isOp(std::string_view op) const { return cur().kind == Tok::kOp && cur().text == op; }

  Status error(const Token& t, std::string hint) {
    error_pos_ = t.pos;
    std::string near = t.kind == Tok::kEnd ? "end of input"
                       : t.kind == Tok::kString
                           ? fmt::format("''{}''", t.text)
                           : fmt::format("'{}'", std::string(sql_.substr(t.pos, t.end - t.pos)));
    if (t.kind == Tok::kString) near = fmt::format("'{}'", std::string(sql_.substr(t.pos, t.end - t.pos)));
    return sparkError(Status::Code::kInvalidArgument, "PARSE_SYNTAX_ERROR",
                      {{"error", near}, {"hint", hint}}, fmt::format("line 1, pos {}", t.pos));
  }
  Status expect(std::string_view op) {
    if (isOp(op)) {
      ++i_;
      return Status::OK();
    }
    return error(cur(), cur().kind == Tok::kEnd ? fmt::format(": missing '{}'", op) : "");
  }
  Status expectWord(std::string_view w) {
    if (isWord(w)) {
      ++i_;
      return Status::OK();
    }
    std::string up(w);
    for (auto& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return error(cur(), cur().kind == Tok::kEnd ? fmt::format(": missing '{}'", up) : "");
  }

  static NodePtr alias(NodePtr e, std::string name) {
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::kAlias;
    n->name = std::move(name);
    n->pos = e->pos;
    n->args = {std::move(e)};
    return n;
  }

  Result<std::string> identifier() {
    if (cur().kind == Tok::kIdent || cur().kind == Tok::kQuotedIdent) return t_[i_++].text;
    return error(cur(), "");
  }

  Result<NodePtr> expression() { return orExpr(); }

  Result<NodePtr> orExpr() {
    STREAMSIM_ASSIGN_OR_RETURN(NodePtr l, andExpr());
    while (isWord("or")) {
      int pos = cur().pos;
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr r, andExpr());
      l = call("or", {l, r}, pos);
    }
    return l;
  }
  Result<NodePtr> andExpr() {
    STREAMSIM_ASSIGN_OR_RETURN(NodePtr l, notExpr());
    while (isWord("and")) {
      int pos = cur().pos;
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr r, notExpr());
      l = call("and", {l, r}, pos);
    }
    return l;
  }
  Result<NodePtr> notExpr() {
    if (isWord("not") || isOp("!")) {
      int pos = cur().pos;
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr e, notExpr());
      return call("not", {e}, pos);
    }
    return predicated();
  }

  Result<NodePtr> predicated() {
    STREAMSIM_ASSIGN_OR_RETURN(NodePtr v, comparison());
    int pos = cur().pos;
    if (isWord("is")) {
      ++i_;
      bool neg = false;
      if (isWord("not") || isOp("!")) {
        neg = true;
        ++i_;
      }
      if (isWord("null")) {
        ++i_;
        return call(neg ? "isnotnull" : "isnull", {v}, pos);
      }
      if (isWord("true") || isWord("false")) {
        bool b = isWord("true");
        ++i_;
        // IS TRUE is `v <=> true` (Spark's AstBuilder); IS NOT TRUE its negation.
        NodePtr e = call("<=>", {v, literalNode(Value(b), Type::kBoolean, pos)}, pos);
        return neg ? call("not", {e}, pos) : e;
      }
      if (isWord("unknown")) {
        ++i_;
        return call(neg ? "isnotnull" : "isnull", {v}, pos);
      }
      if (isWord("distinct")) {
        ++i_;
        STREAMSIM_RETURN_IF_ERROR(expectWord("from"));
        STREAMSIM_ASSIGN_OR_RETURN(NodePtr r, comparison());
        NodePtr e = call("<=>", {v, r}, pos);
        return neg ? e : call("not", {e}, pos);
      }
      return error(cur(), "");
    }
    bool neg = false;
    if ((isWord("not") || isOp("!")) &&
        (lower(peek().text) == "between" || lower(peek().text) == "in" || lower(peek().text) == "like" ||
         lower(peek().text) == "ilike" || lower(peek().text) == "rlike" || lower(peek().text) == "regexp")) {
      neg = true;
      ++i_;
    }
    auto wrap = [&](NodePtr e) { return neg ? call("not", {e}, pos) : e; };
    if (isWord("between")) {
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr lo, comparison());
      STREAMSIM_RETURN_IF_ERROR(expectWord("and"));
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr hi, comparison());
      return wrap(call("between", {v, lo, hi}, pos));
    }
    if (isWord("in")) {
      ++i_;
      STREAMSIM_RETURN_IF_ERROR(expect("("));
      std::vector<NodePtr> args{v};
      while (true) {
        STREAMSIM_ASSIGN_OR_RETURN(NodePtr e, expression());
        args.push_back(e);
        if (isOp(",")) {
          ++i_;
          continue;
        }
        break;
      }
      STREAMSIM_RETURN_IF_ERROR(expect(")"));
      return wrap(call("in", std::move(args), pos));
    }
    if (isWord("rlike") || isWord("regexp")) {
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr p, comparison());
      return wrap(call("rlike", {v, p}, pos));
    }
    if (isWord("like") || isWord("ilike")) {
      std::string fn = lower(cur().text);
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr p, comparison());
      std::vector<NodePtr> args{v, p};
      if (isWord("escape")) {
        ++i_;
        if (cur().kind != Tok::kString) return error(cur(), "");
        args.push_back(literalNode(Value(cur().text), Type::kString, cur().pos));
        ++i_;
      }
      return wrap(call(fn, std::move(args), pos));
    }
    if (neg) return error(cur(), "");
    return v;
  }

  static bool comparisonOp(const Token& t) {
    if (t.kind != Tok::kOp) return false;
    return t.text == "=" || t.text == "==" || t.text == "<>" || t.text == "!=" || t.text == "<" ||
           t.text == "<=" || t.text == ">" || t.text == ">=" || t.text == "<=>";
  }

  Result<NodePtr> comparison() {
    STREAMSIM_ASSIGN_OR_RETURN(NodePtr l, bitOr());
    while (comparisonOp(cur())) {
      std::string op = cur().text;
      int pos = cur().pos;
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr r, bitOr());
      if (op == "==") op = "=";
      if (op == "<>" || op == "!=") {
        l = call("not", {call("=", {l, r}, pos)}, pos);
      } else {
        l = call(op, {l, r}, pos);
      }
    }
    return l;
  }
  Result<NodePtr> bitOr() {
    STREAMSIM_ASSIGN_OR_RETURN(NodePtr l, bitXor());
    while (isOp("|")) {
      int pos = cur().pos;
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr r, bitXor());
      l = call("|", {l, r}, pos);
    }
    return l;
  }
  Result<NodePtr> bitXor() {
    STREAMSIM_ASSIGN_OR_RETURN(NodePtr l, bitAnd());
    while (isOp("^")) {
      int pos = cur().pos;
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr r, bitAnd());
      l = call("^", {l, r}, pos);
    }
    return l;
  }
  Result<NodePtr> bitAnd() {
    STREAMSIM_ASSIGN_OR_RETURN(NodePtr l, additive());
    while (isOp("&")) {
      int pos = cur().pos;
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr r, additive());
      l = call("&", {l, r}, pos);
    }
    return l;
  }
  Result<NodePtr> additive() {
    STREAMSIM_ASSIGN_OR_RETURN(NodePtr l, multiplicative());
    while (isOp("+") || isOp("-") || isOp("||")) {
      std::string op = cur().text;
      int pos = cur().pos;
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr r, multiplicative());
      l = op == "||" ? call("concat", {l, r}, pos) : call(op, {l, r}, pos);
    }
    return l;
  }
  Result<NodePtr> multiplicative() {
    STREAMSIM_ASSIGN_OR_RETURN(NodePtr l, unary());
    while (isOp("*") || isOp("/") || isOp("%") || isWord("div")) {
      std::string op = lower(cur().text);
      int pos = cur().pos;
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr r, unary());
      l = call(op, {l, r}, pos);
    }
    return l;
  }
  Result<NodePtr> unary() {
    if (isOp("-") && peek().kind == Tok::kNumber && peek().pos == cur().end) {
      // MINUS? INTEGER_VALUE: a negative literal, typed by its negated value.
      int pos = cur().pos;
      ++i_;
      return postfix(number(true, pos));
    }
    if (isOp("-") || isOp("+") || isOp("~")) {
      std::string op = cur().text;
      int pos = cur().pos;
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr e, unary());
      if (op == "+") return call("positive", {e}, pos);
      return call(op == "-" ? "negative" : "~", {e}, pos);
    }
    STREAMSIM_ASSIGN_OR_RETURN(NodePtr p, primary());
    return postfix(std::move(p));
  }

  Result<NodePtr> postfix(Result<NodePtr> base) {
    STREAMSIM_RETURN_IF_ERROR(base.status());
    NodePtr e = *base;
    while (true) {
      if (isOp("[")) {
        int pos = cur().pos;
        ++i_;
        STREAMSIM_ASSIGN_OR_RETURN(NodePtr idx, expression());
        STREAMSIM_RETURN_IF_ERROR(expect("]"));
        e = call("subscript", {e, idx}, pos);
      } else if (isOp(".") && (peek().kind == Tok::kIdent || peek().kind == Tok::kQuotedIdent)) {
        ++i_;
        std::string f = cur().text;
        int pos = cur().pos;
        ++i_;
        if (e->kind == Node::Kind::kColumn) {
          auto n = std::make_shared<Node>(*e);
          n->parts.push_back(std::move(f));
          e = n;
        } else {
          auto n = makeNode(Node::Kind::kField, pos);
          n->name = std::move(f);
          n->args = {e};
          e = n;
        }
      } else if (isOp(".") && peek().kind == Tok::kOp && peek().text == "*" && e->kind == Node::Kind::kColumn) {
        i_ += 2;
        auto n = makeNode(Node::Kind::kStar, e->pos);
        n->parts = e->parts;
        e = n;
      } else if (isOp("::")) {
        ++i_;
        STREAMSIM_ASSIGN_OR_RETURN(Field f, dataType());
        auto n = makeNode(Node::Kind::kCast, e->pos);
        n->type = std::move(f);
        n->args = {e};
        e = n;
      } else {
        return e;
      }
    }
  }

  Result<NodePtr> number(bool negative, int pos) {
    const Token& t = cur();
    std::string text = t.text;
    ++i_;
    std::string up = text;
    for (auto& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    std::string digits = negative ? "-" + up : up;
    auto parseInt64 = [&](std::string_view s) -> std::optional<int64_t> {
      int64_t v = 0;
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
      return v;
    };
    auto outOfRange = [&](std::string_view type) -> Status {
      error_pos_ = pos;
      return sparkError(Status::Code::kInvalidArgument, "INVALID_NUMERIC_LITERAL_RANGE",
                        {{"rawStrippedQualifier", digits.substr(0, digits.size() - 1)},
                         {"minValue", type == "BIGINT" ? "-9223372036854775808" : "-2147483648"},
                         {"maxValue", type == "BIGINT" ? "9223372036854775807" : "2147483647"},
                         {"typeName", std::string(type)}});
    };
    char last = up.back();
    bool isDecimalish = up.find_first_of(".E") != std::string::npos;
    if (up.size() > 2 && up.substr(up.size() - 2) == "BD") {
      return literalNode(Value(std::strtod(digits.substr(0, digits.size() - 2).c_str(), nullptr)), Type::kDouble, pos);
    }
    if (last == 'L') {
      auto v = parseInt64(std::string_view(digits).substr(0, digits.size() - 1));
      if (!v) return outOfRange("BIGINT");
      return literalNode(Value(*v), Type::kLong, pos);
    }
    if (last == 'S' || last == 'Y') {
      auto v = parseInt64(std::string_view(digits).substr(0, digits.size() - 1));
      int64_t lim = last == 'S' ? 32767 : 127;
      if (!v || *v > lim || *v < -lim - 1) {
        error_pos_ = pos;
        return sparkError(Status::Code::kInvalidArgument, "INVALID_NUMERIC_LITERAL_RANGE",
                          {{"rawStrippedQualifier", digits.substr(0, digits.size() - 1)},
                           {"minValue", std::to_string(-lim - 1)}, {"maxValue", std::to_string(lim)},
                           {"typeName", last == 'S' ? "SMALLINT" : "TINYINT"}});
      }
      return literalNode(Value(static_cast<int32_t>(*v)), Type::kInt, pos);
    }
    if (last == 'D' || last == 'F') {
      double d = std::strtod(digits.substr(0, digits.size() - 1).c_str(), nullptr);
      return literalNode(Value(d), Type::kDouble, pos);
    }
    if (isDecimalish) return literalNode(Value(std::strtod(digits.c_str(), nullptr)), Type::kDouble, pos);
    auto v = parseInt64(digits);
    if (!v) {  // beyond BIGINT: a DECIMAL in Spark, a DOUBLE here
      return literalNode(Value(std::strtod(digits.c_str(), nullptr)), Type::kDouble, pos);
    }
    if (*v >= INT32_MIN && *v <= INT32_MAX) return literalNode(Value(static_cast<int32_t>(*v)), Type::kInt, pos);
    return literalNode(Value(*v), Type::kLong, pos);
  }

  Result<NodePtr> primary() {
    const Token& t = cur();
    int pos = t.pos;
    switch (t.kind) {
      case Tok::kNumber: return number(false, pos);
      case Tok::kString: {
        std::string s = t.text;
        ++i_;
        // Adjacent string literals concatenate (Spark's stringLit+).
        while (cur().kind == Tok::kString) s += t_[i_++].text;
        return literalNode(Value(std::move(s)), Type::kString, pos);
      }
      case Tok::kQuotedIdent: {
        auto n = makeNode(Node::Kind::kColumn, pos);
        n->parts = {t.text};
        ++i_;
        return NodePtr(n);
      }
      case Tok::kOp:
        if (t.text == "(") {
          ++i_;
          STREAMSIM_ASSIGN_OR_RETURN(NodePtr e, expression());
          STREAMSIM_RETURN_IF_ERROR(expect(")"));
          return e;
        }
        // `*` stands alone: a whole select item or a function's argument (struct(*)).
        if (t.text == "*" && (i_ == 0 || (t_[i_ - 1].kind == Tok::kOp && (t_[i_ - 1].text == "(" || t_[i_ - 1].text == ",")))) {
          ++i_;
          return NodePtr(makeNode(Node::Kind::kStar, pos));
        }
        return error(t, "");
      case Tok::kEnd: return error(t, "");
      case Tok::kIdent: break;
    }
    std::string w = lower(t.text);
    if (w == "null") {
      ++i_;
      return literalNode(Value(), Type::kNull, pos);
    }
    if (w == "true" || w == "false") {
      ++i_;
      return literalNode(Value(w == "true"), Type::kBoolean, pos);
    }
    if (w == "case") return caseExpr();
    if ((w == "cast" || w == "try_cast") && peek().kind == Tok::kOp && peek().text == "(") {
      i_ += 2;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr e, expression());
      STREAMSIM_RETURN_IF_ERROR(expectWord("as"));
      STREAMSIM_ASSIGN_OR_RETURN(Field f, dataType());
      STREAMSIM_RETURN_IF_ERROR(expect(")"));
      auto n = makeNode(Node::Kind::kCast, pos);
      n->type = std::move(f);
      n->tryCast = w == "try_cast";
      n->args = {e};
      return NodePtr(n);
    }
    if (w == "x" && peek().kind == Tok::kString) {
      // A binary literal X'537061': hex digits (an odd count reads a leading 0, as Hex.unhex).
      ++i_;
      std::string hex = cur().text;
      ++i_;
      if (hex.size() % 2) hex.insert(hex.begin(), '0');
      std::string bytes;
      for (size_t k = 0; k < hex.size(); k += 2) {
        auto nibble = [](char ch) {
          if (ch >= '0' && ch <= '9') return ch - '0';
          if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
          if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
          return -1;
        };
        int hi = nibble(hex[k]), lo = nibble(hex[k + 1]);
        if (hi < 0 || lo < 0) {
          error_pos_ = pos;
          return sparkError(Status::Code::kInvalidArgument, "INVALID_TYPED_LITERAL",
                            {{"valueType", "\"X\""}, {"value", fmt::format("'{}'", t_[i_ - 1].text)}});
        }
        bytes += static_cast<char>(hi * 16 + lo);
      }
      return literalNode(Value::binary(std::move(bytes)), Type::kBinary, pos);
    }
    if ((w == "timestamp" || w == "timestamp_ltz" || w == "timestamp_ntz" || w == "date") && peek().kind == Tok::kString) {
      ++i_;
      std::string s = cur().text;
      ++i_;
      // A typed literal: CAST('...' AS TIMESTAMP / DATE), checked when analysed.
      auto n = makeNode(Node::Kind::kCast, pos);
      n->type = Field{"", w == "date" ? Type::kDate : Type::kTimestamp, true, nullptr};
      n->name = "typed_literal";
      n->args = {literalNode(Value(std::move(s)), Type::kString, pos)};
      return NodePtr(n);
    }
    if (w == "interval") return interval(pos);
    if ((w == "current_timestamp" || w == "current_date" || w == "current_user") &&
        !(peek().kind == Tok::kOp && peek().text == "(")) {
      ++i_;
      return call(w, {}, pos);
    }
    ++i_;
    if (isOp("(")) return functionCall(t.text, pos);
    auto n = makeNode(Node::Kind::kColumn, pos);
    n->parts = {t.text};
    return NodePtr(n);
  }

  Result<NodePtr> functionCall(const std::string& name, int pos) {
    ++i_;  // (
    std::vector<NodePtr> args;
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::kCall;
    n->name = lower(name);
    n->pos = pos;
    if (isWord("distinct")) {
      n->distinct = true;
      ++i_;
    } else if (isWord("all")) {
      ++i_;
    }
    if (!isOp(")")) {
      while (true) {
        if (isOp("*") && (peek().kind == Tok::kOp && peek().text == ")")) {
          args.push_back(makeNode(Node::Kind::kStar, cur().pos));
          ++i_;
        } else {
          STREAMSIM_ASSIGN_OR_RETURN(NodePtr e, expression());
          // STRUCT(a AS x, ...) / named_struct-style aliases inside struct().
          if (n->name == "struct" && isWord("as")) {
            ++i_;
            STREAMSIM_ASSIGN_OR_RETURN(std::string a, identifier());
            e = alias(e, std::move(a));
          }
          args.push_back(e);
        }
        if (isOp(",")) {
          ++i_;
          continue;
        }
        break;
      }
    }
    STREAMSIM_RETURN_IF_ERROR(expect(")"));
    n->args = std::move(args);
    return NodePtr(n);
  }

  Result<NodePtr> caseExpr() {
    int pos = cur().pos;
    ++i_;
    std::optional<NodePtr> value;
    if (!isWord("when")) {
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr v, expression());
      value = v;
    }
    std::vector<NodePtr> args;
    if (!isWord("when")) return error(cur(), cur().kind == Tok::kEnd ? ": missing 'WHEN'" : "");
    while (isWord("when")) {
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr c, expression());
      STREAMSIM_RETURN_IF_ERROR(expectWord("then"));
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr r, expression());
      args.push_back(value ? call("=", {*value, c}, c->pos) : c);
      args.push_back(r);
    }
    if (isWord("else")) {
      ++i_;
      STREAMSIM_ASSIGN_OR_RETURN(NodePtr e, expression());
      args.push_back(e);
    }
    STREAMSIM_RETURN_IF_ERROR(expectWord("end"));
    return call("casewhen", std::move(args), pos);
  }

  // INTERVAL '10' MINUTE, INTERVAL 10 MINUTES, INTERVAL '1 hour 30 minutes', INTERVAL 1 DAY 2 HOURS:
  // a day-time interval as a BIGINT literal of milliseconds under the call "interval" (streamsim
  // has no interval type; timestamp +/- interval is supported, see docs/scenarios.md).
  Result<NodePtr> interval(int pos) {
    ++i_;
    // Words: numbers and units, from quoted strings ('10', '1 hour 30 minutes') or bare tokens.
    std::vector<std::string> words;
    while (cur().kind == Tok::kString || cur().kind == Tok::kNumber ||
           (cur().kind == Tok::kIdent && isIntervalUnit(lower(cur().text))) ||
           (isOp("-") && peek().kind == Tok::kNumber)) {
      if (isOp("-")) {
        ++i_;
        words.push_back("-" + cur().text);
      } else if (cur().kind == Tok::kString) {
        std::string w;
        for (char ch : cur().text + " ") {
          if (ch == ' ') {
            if (!w.empty()) words.push_back(w);
            w.clear();
          } else {
            w += ch;
          }
        }
      } else {
        words.push_back(cur().text);
      }
      ++i_;
    }
    std::string text;
    for (const auto& w : words) text += (text.empty() ? "" : " ") + w;
    auto bad = [&]() -> Status {
      error_pos_ = pos;
      return sparkError(Status::Code::kInvalidArgument, "INVALID_INTERVAL_FORMAT.UNRECOGNIZED_NUMBER",
                        {{"input", text}, {"number", text}},
                        fmt::format("line 1, pos {}; streamsim supports day-time intervals such as "
                                    "INTERVAL '10' MINUTE or INTERVAL 1 HOUR 30 MINUTES",
                                    pos));
    };
    if (words.empty() || words.size() % 2 != 0) return bad();
    int64_t total = 0;
    for (size_t k = 0; k < words.size(); k += 2) {
      char* end = nullptr;
      long long n = std::strtoll(words[k].c_str(), &end, 10);
      if (end == words[k].c_str() || *end != '\0') return bad();
      std::string u = lower(words[k + 1]);
      if (!u.empty() && u.back() == 's') u.pop_back();
      int64_t ms = u == "week" ? 604800000 : u == "day" ? 86400000 : u == "hour" ? 3600000
                 : u == "minute" ? 60000 : u == "second" ? 1000 : u == "millisecond" ? 1 : 0;
      if (ms == 0) return bad();
      total += n * ms;
    }
    return call("interval", {literalNode(Value(total), Type::kLong, pos)}, pos);
  }
  static bool isIntervalUnit(const std::string& w) {
    static const char* kUnits[] = {"day", "days", "hour", "hours", "minute", "minutes", "second",
                                   "seconds", "millisecond", "milliseconds", "week", "weeks"};
    for (auto u : kUnits)
      if (w == u) return true;
    return false;
  }

  // A type name with its parameters: the text up to the matching '>' or ')'.
  Result<Field> dataType() {
    if (cur().kind != Tok::kIdent) return error(cur(), "");
    int start = cur().pos;
    int end = cur().end;
    ++i_;
    if (isOp("<") || isOp("(")) {
      int depth = 0;
      while (cur().kind != Tok::kEnd) {
        if (isOp("<") || isOp("(")) ++depth;
        if (isOp(">") || isOp(")")) --depth;
        if (isOp("<>")) {}  // not inside a type
        end = cur().end;
        ++i_;
        if (depth == 0) break;
      }
      if (depth != 0) return error(cur(), ": missing '>'");
    }
    auto f = parseDataType(sql_.substr(start, end - start));
    if (!f.ok()) {
      error_pos_ = start;
      return f.status();
    }
    return f;
  }

  std::string_view sql_;
  std::vector<Token> t_;
  size_t i_ = 0;
  int error_pos_ = 0;
};

}  // namespace

Result<Column> parseExpression(std::string_view sql, int* errorPos) {
  Lexer lex(sql);
  auto toks = lex.run();
  if (!toks.ok()) {
    if (errorPos) *errorPos = lex.errorPos();
    return toks.status();
  }
  if (toks->size() == 1) {
    if (errorPos) *errorPos = 0;
    return sparkError(Status::Code::kInvalidArgument, "PARSE_EMPTY_STATEMENT", {},
                      "an empty expression");
  }
  Parser p(sql, std::move(toks).value());
  auto r = p.named();
  if (!r.ok() && errorPos) *errorPos = p.errorPos();
  return r;
}

Result<std::vector<std::string>> parseColumnName(std::string_view name) {
  // Spark's UnresolvedAttribute.parseAttributeName: dots split, backquotes quote.
  std::vector<std::string> parts;
  std::string cur;
  bool inQuote = false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (inQuote) {
      if (c == '`') {
        if (i + 1 < name.size() && name[i + 1] == '`') {
          cur += '`';
          ++i;
        } else {
          inQuote = false;
          if (i + 1 < name.size() && name[i + 1] != '.')
            return Status::InvalidArgument(fmt::format("syntax error in attribute name: {}", name));
        }
      } else {
        cur += c;
      }
    } else if (c == '`') {
      if (!cur.empty()) return Status::InvalidArgument(fmt::format("syntax error in attribute name: {}", name));
      inQuote = true;
    } else if (c == '.') {
      if (cur.empty() && (i == 0 || name[i - 1] != '`'))
        return Status::InvalidArgument(fmt::format("syntax error in attribute name: {}", name));
      parts.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (inQuote) return Status::InvalidArgument(fmt::format("syntax error in attribute name: {}", name));
  parts.push_back(std::move(cur));
  return parts;
}

Result<Field> parseDataType(std::string_view type) {
  auto s = Schema::parseDDL(fmt::format("c {}", type));
  if (!s.ok() || s->size() != 1)
    return sparkError(Status::Code::kInvalidArgument, "UNSUPPORTED_DATATYPE",
                      {{"typeName", fmt::format("\"{}\"", type)}},
                      "streamsim's types: boolean, int, bigint, double, string, timestamp, date, "
                      "binary, struct<...>, array<...>, map<...> (no decimal)");
  Field f = s->field(0);
  f.name.clear();
  return f;
}

}  // namespace streamsim::expr
