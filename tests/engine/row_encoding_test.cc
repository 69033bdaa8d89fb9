// Order-preserving encoding (row_encoding.h): bytewise order of encodings == Value order for
// values of one type, decode inverts encode, for single values and for rows.
#include "streamsim/state/row_encoding.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

namespace streamsim {
namespace {

int sign(int x) { return (x > 0) - (x < 0); }

int bytewise(const std::string& a, const std::string& b) { return sign(a.compare(b)); }

std::string enc(const Value& v) {
  std::string out;
  encodeOrderedValue(v, out);
  return out;
}

// A random value of type `t`, null one time in eight.
rc::Gen<Value> genValue(Type t) {
  rc::Gen<Value> nonNull = [t]() -> rc::Gen<Value> {
    switch (t) {
      case Type::kBoolean: return rc::gen::map(rc::gen::arbitrary<bool>(), [](bool b) { return Value(b); });
      case Type::kInt: return rc::gen::map(rc::gen::arbitrary<int32_t>(), [](int32_t i) { return Value(i); });
      case Type::kLong: return rc::gen::map(rc::gen::arbitrary<int64_t>(), [](int64_t i) { return Value(i); });
      case Type::kTimestamp:
        return rc::gen::map(rc::gen::arbitrary<int64_t>(), [](int64_t i) { return Value::timestamp(i); });
      case Type::kDouble:
        return rc::gen::map(
            rc::gen::oneOf(rc::gen::arbitrary<double>(),
                           rc::gen::element(0.0, -0.0, 1.0, -1.0, std::numeric_limits<double>::infinity(),
                                            -std::numeric_limits<double>::infinity(),
                                            std::numeric_limits<double>::denorm_min(),
                                            std::numeric_limits<double>::lowest())),
            [](double d) { return Value(d); });
      default:
        // Strings with NULs, 0x01 and 0xFF bytes, which the escaping must order correctly.
        return rc::gen::map(
            rc::gen::container<std::string>(rc::gen::oneOf(
                rc::gen::element('\0', '\x01', '\xFF', 'a', 'b'), rc::gen::arbitrary<char>())),
            [](std::string s) { return Value(std::move(s)); });
    }
  }();
  return rc::gen::weightedOneOf<Value>({{1, rc::gen::just(Value())}, {7, nonNull}});
}

const std::vector<Type> kTypes = {Type::kBoolean, Type::kInt, Type::kLong, Type::kTimestamp, Type::kDouble, Type::kString};

RC_GTEST_PROP(RowEncoding, ByteOrderEqualsValueOrderForOneType, ()) {
  Type t = *rc::gen::elementOf(kTypes);
  Value a = *genValue(t);
  Value b = *genValue(t);
  if (!a.isNull() && !b.isNull() && t == Type::kDouble) {
    RC_PRE(!std::isnan(a.asDouble()) && !std::isnan(b.asDouble()));
  }
  RC_ASSERT(sign(compare(a, b)) == bytewise(enc(a), enc(b)));
}

RC_GTEST_PROP(RowEncoding, DecodeInvertsEncode, ()) {
  Type t = *rc::gen::elementOf(kTypes);
  Value v = *genValue(t);
  std::string bytes = enc(v);
  std::string_view in = bytes;
  Result<Value> back = decodeOrderedValue(in);
  RC_ASSERT(back.ok());
  RC_ASSERT(in.empty());
  RC_ASSERT(back->type() == v.type());
  RC_ASSERT(compare(*back, v) == 0);
}

RC_GTEST_PROP(RowEncoding, RowsOrderAndRoundTrip, ()) {
  auto types = *rc::gen::container<std::vector<Type>>(*rc::gen::inRange<size_t>(1, 4),
                                                       rc::gen::elementOf(kTypes));
  std::vector<Field> fields;
  for (size_t i = 0; i < types.size(); ++i) fields.push_back(Field{"c" + std::to_string(i), types[i], true});
  SchemaPtr schema = makeSchema(fields);
  auto genRow = [&] {
    std::vector<Value> vals;
    for (Type t : types) {
      Value v = *genValue(t);
      if (t == Type::kDouble && !v.isNull()) RC_PRE(!std::isnan(v.asDouble()));
      vals.push_back(v);
    }
    return Row(schema, vals);
  };
  Row a = genRow();
  Row b = genRow();
  int rowOrder = a < b ? -1 : (b < a ? 1 : 0);
  RC_ASSERT(rowOrder == bytewise(encodeOrderedRow(a), encodeOrderedRow(b)));
  Result<Row> back = decodeOrderedRow(encodeOrderedRow(a), schema);
  RC_ASSERT(back.ok());
  for (size_t i = 0; i < a.size(); ++i) RC_ASSERT(compare((*back)[i], a[i]) == 0);
}

TEST(RowEncoding, NullSortsFirstAndNaNLast) {
  EXPECT_LT(enc(Value()), enc(Value(int64_t{std::numeric_limits<int64_t>::min()})));
  EXPECT_LT(enc(Value()), enc(Value("")));
  EXPECT_LT(enc(Value(std::numeric_limits<double>::infinity())),
            enc(Value(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_EQ(enc(Value(0.0)), enc(Value(-0.0)));
}

TEST(RowEncoding, StringsWithZeroBytesOrderByteWise) {
  EXPECT_LT(enc(Value("a")), enc(Value(std::string("a\0", 2))));
  EXPECT_LT(enc(Value(std::string("a\0", 2))), enc(Value(std::string("a\x01", 2))));
  EXPECT_LT(enc(Value("ab")), enc(Value("b")));
}

TEST(RowEncoding, DecodeRejectsTruncatedAndUnknownInput) {
  std::string bytes = enc(Value(int64_t{42}));
  std::string_view cut = std::string_view(bytes).substr(0, 5);
  Result<Value> r = decodeOrderedValue(cut);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kCorruption);
  EXPECT_NE(r.status().message().find("truncated long"), std::string::npos);

  std::string_view bad = "\x7f";
  EXPECT_EQ(decodeOrderedValue(bad).status().code(), Status::Code::kCorruption);
}

// decodeOrderedValueInto reads what decodeOrderedValue reads, whatever `out` held before (a
// string it reuses, another type, a longer string), strings with zero bytes and a truncated
// string (no terminator) included; it advances `in` past the value only.
TEST(RowEncoding, DecodeIntoAnyPreviousValueReadsTheSameValue) {
  const std::vector<Value> values = {Value("k0000042"), Value(std::string("a\0b", 3)), Value(""),
                                     Value(int64_t{-7}), Value(), Value(true),
                                     Value(std::string(40, 'x')), Value(2.5)};
  const std::vector<Value> previous = {Value("a much longer previous string than the key"),
                                       Value("short"), Value(int32_t{3}), Value()};
  for (const Value& v : values) {
    for (const Value& before : previous) {
      std::string bytes = enc(v) + enc(Value(int64_t{1}));
      std::string_view in = bytes;
      Value out = before;
      ASSERT_TRUE(decodeOrderedValueInto(in, out).ok()) << v.toString();
      EXPECT_EQ(out.type(), v.type()) << v.toString();
      EXPECT_TRUE(out == v) << v.toString() << " after " << before.toString();
      EXPECT_EQ(in, enc(Value(int64_t{1})));
    }
  }
  std::string cut = enc(Value("abc"));
  cut.pop_back();  // the terminator's second byte
  std::string_view in = cut;
  Value out("x");
  EXPECT_EQ(decodeOrderedValueInto(in, out).code(), Status::Code::kCorruption);
}

TEST(RowEncoding, RowWithFewerValuesGetsNullsForAppendedNullableFields) {
  SchemaPtr oldSchema = makeSchema({{"a", Type::kString, true, nullptr}});
  SchemaPtr newSchema = makeSchema({{"a", Type::kString, true, nullptr}, {"b", Type::kLong, true, nullptr}});
  std::string bytes = encodeOrderedRow(Row(oldSchema, {Value("x")}));
  Result<Row> r = decodeOrderedRow(bytes, newSchema);
  ASSERT_TRUE(r.ok()) << r.status().toString();
  EXPECT_EQ((*r)[0].asString(), "x");
  EXPECT_TRUE((*r)[1].isNull());

  SchemaPtr notNull = makeSchema({{"a", Type::kString, true, nullptr}, {"b", Type::kLong, false, nullptr}});
  EXPECT_EQ(decodeOrderedRow(bytes, notNull).status().code(), Status::Code::kCorruption);
}

TEST(RowEncoding, RowDecodeChecksTypesAgainstSchema) {
  SchemaPtr s = makeSchema({{"a", Type::kLong, true, nullptr}});
  std::string bytes = encodeOrderedRow(Row(makeSchema({{"a", Type::kString, true, nullptr}}), {Value("x")}));
  Result<Row> r = decodeOrderedRow(bytes, s);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("field 'a' holds a string"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace streamsim
