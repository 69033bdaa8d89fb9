// Aggregation buffers (aggregate_buffers.h). Each function follows its catalyst class:
//   count(*) / count(x)  Count.scala: long, nulls not counted (count(*) counts rows)
//   sum(x)               Sum.scala: long over integral input, double otherwise; null when no
//                        non-null value; ANSI: long overflow is ARITHMETIC_OVERFLOW
//   avg(x)               Average.scala: double sum and long count; null when the count is 0
//   min(x), max(x)       Min.scala, Max.scala: the input's type, nulls ignored
//   first(x[, ignoreNulls]), last(...)  First.scala, Last.scala: buffers (value, valueSet);
//                        without ignoreNulls the first / last row's value, null or not
//   collect_list(x), collect_set(x)  collect.scala: array<T> of the non-null values (empty, not
//                        null, when there is none); the set keeps each value once, first-seen order
//   approx_count_distinct(x[, rsd])  HyperLogLogPlusPlus.scala: the register words (Spark's
//                        MS[i] longs; held as an array, stored as one slot per word), nulls not
//                        added; the estimate a long
#include "ops/aggregate_buffers.h"

#include <fmt/format.h>

#include "streamsim/ops/hyperloglog.h"
#include "streamsim/spark_errors.h"
#include "streamsim/state/row_encoding.h"

namespace streamsim::ops {
namespace {

constexpr char kFormatV1 = '\x01';

bool twoSlots(AggregateFunction f) {
  return f == AggregateFunction::kAvg || f == AggregateFunction::kFirst || f == AggregateFunction::kLast;
}

Status longOverflow() {
  return sparkError(Status::Code::kTaskFailed, "ARITHMETIC_OVERFLOW",
                    {{"message", "long overflow"},
                     {"alternative", " Use 'try_sum' to tolerate overflow and return NULL instead."},
                     {"config", "\"spark.sql.ansi.enabled\""}});
}

Result<Value> addSum(const Value& sum, const Value& x, bool ansi) {
  if (sum.isNull()) return x.type() == Type::kDouble ? x : Value(x.asLong());
  if (sum.type() == Type::kDouble || x.type() == Type::kDouble) return Value(sum.asDouble() + x.asDouble());
  int64_t r = 0;
  if (__builtin_add_overflow(sum.asLong(), x.asLong(), &r)) {
    if (ansi) return longOverflow();
    r = static_cast<int64_t>(static_cast<uint64_t>(sum.asLong()) + static_cast<uint64_t>(x.asLong()));
  }
  return Value(r);
}

bool contains(const std::vector<Value>& xs, const Value& v) {
  for (const Value& x : xs)
    if (compare(x, v) == 0) return true;
  return false;
}

Value appended(const Value& array, const std::vector<Value>& more, bool distinct) {
  std::vector<Value> items = array.isNull() ? std::vector<Value>{} : array.items();
  for (const Value& v : more)
    if (!distinct || !contains(items, v)) items.push_back(v);
  return Value::arrayOf(std::move(items));
}

// An approx_count_distinct buffer's words (and back).
std::vector<int64_t> hllWords(const Value& a) {
  std::vector<int64_t> out;
  out.reserve(a.items().size());
  for (const Value& w : a.items()) out.push_back(w.asLong());
  return out;
}
Value hllValue(const std::vector<int64_t>& words) {
  std::vector<Value> items;
  items.reserve(words.size());
  for (int64_t w : words) items.emplace_back(w);
  return Value::arrayOf(std::move(items));
}
Result<HyperLogLogPlusPlus> hllOf(const Aggregate& agg) { return HyperLogLogPlusPlus::make(agg.relativeSD); }

}  // namespace

std::string_view aggregateFunctionName(AggregateFunction f) {
  switch (f) {
    case AggregateFunction::kCount: return "count";
    case AggregateFunction::kSum: return "sum";
    case AggregateFunction::kMin: return "min";
    case AggregateFunction::kMax: return "max";
    case AggregateFunction::kAvg: return "avg";
    case AggregateFunction::kFirst: return "first";
    case AggregateFunction::kLast: return "last";
    case AggregateFunction::kCollectList: return "collect_list";
    case AggregateFunction::kCollectSet: return "collect_set";
    case AggregateFunction::kApproxCountDistinct: return "approx_count_distinct";
  }
  return "?";
}

std::vector<AggBuffer> freshBuffers(const std::vector<Aggregate>& aggs) {
  std::vector<AggBuffer> out(aggs.size());
  for (size_t i = 0; i < aggs.size(); ++i) {
    switch (aggs[i].function) {
      case AggregateFunction::kCount: out[i].a = Value(int64_t{0}); break;
      case AggregateFunction::kAvg:
        out[i].a = Value(0.0);
        out[i].b = Value(int64_t{0});
        break;
      case AggregateFunction::kFirst:
      case AggregateFunction::kLast: out[i].b = Value(false); break;
      case AggregateFunction::kCollectList:
      case AggregateFunction::kCollectSet: out[i].a = Value::arrayOf({}); break;
      case AggregateFunction::kApproxCountDistinct: {
        auto h = hllOf(aggs[i]);  // validateWindowAggregation checked the rsd
        out[i].a = hllValue(std::vector<int64_t>(h.ok() ? h->numWords() : 0, 0));
        break;
      }
      default: break;  // null
    }
  }
  return out;
}

std::string encodeBuffers(const std::vector<Aggregate>& aggs, const std::vector<AggBuffer>& buffers) {
  std::string out(1, kFormatV1);
  for (size_t i = 0; i < aggs.size(); ++i) {
    if (aggs[i].function == AggregateFunction::kApproxCountDistinct) {
      for (const Value& word : buffers[i].a.items()) encodeOrderedValue(word, out);  // MS[i]
      continue;
    }
    encodeOrderedValue(buffers[i].a, out);
    if (twoSlots(aggs[i].function)) encodeOrderedValue(buffers[i].b, out);
  }
  return out;
}

Result<std::vector<AggBuffer>> decodeBuffers(const std::vector<Aggregate>& aggs, std::string_view in) {
  if (in.empty() || in[0] != kFormatV1) {
    return Status::Corruption(fmt::format(
        "aggregation state value: expected format byte 0x01, found {} bytes starting 0x{:02x}",
        in.size(), in.empty() ? 0 : static_cast<unsigned char>(in[0])));
  }
  in.remove_prefix(1);
  std::vector<AggBuffer> out(aggs.size());
  for (size_t i = 0; i < aggs.size(); ++i) {
    if (aggs[i].function == AggregateFunction::kApproxCountDistinct) {
      STREAMSIM_ASSIGN_OR_RETURN(HyperLogLogPlusPlus h, hllOf(aggs[i]));
      std::vector<Value> words(h.numWords());
      for (Value& w : words) {
        STREAMSIM_ASSIGN_OR_RETURN(w, decodeOrderedValue(in));
        if (w.type() != Type::kLong) {
          return Status::Corruption(fmt::format(
              "aggregation state value: {}'s register word is {}, not a long", aggs[i].resolvedName(), w.toString()));
        }
      }
      out[i].a = Value::arrayOf(std::move(words));
      continue;
    }
    STREAMSIM_ASSIGN_OR_RETURN(out[i].a, decodeOrderedValue(in));
    if (twoSlots(aggs[i].function)) {
      STREAMSIM_ASSIGN_OR_RETURN(out[i].b, decodeOrderedValue(in));
    }
  }
  if (!in.empty()) {
    return Status::Corruption(fmt::format(
        "aggregation state value: {} bytes left after {} aggregates (the aggregates changed "
        "without a new checkpoint?)",
        in.size(), aggs.size()));
  }
  return out;
}

Status updateBuffers(const std::vector<Aggregate>& aggs, std::vector<AggBuffer>& buffers, const Row& row, bool ansi) {
  for (size_t i = 0; i < aggs.size(); ++i) {
    const Aggregate& agg = aggs[i];
    AggBuffer& s = buffers[i];
    if (agg.function == AggregateFunction::kCount && agg.column.empty()) {
      s.a = Value(s.a.asLong() + 1);
      continue;
    }
    const Value& v = row.get(agg.column);
    if (agg.function == AggregateFunction::kFirst) {
      if (!s.b.asBool() && (!v.isNull() || !agg.ignoreNulls)) s = {v, Value(true)};
      continue;
    }
    if (agg.function == AggregateFunction::kLast) {
      if (!v.isNull() || !agg.ignoreNulls) s = {v, Value(true)};
      continue;
    }
    if (v.isNull()) continue;
    switch (agg.function) {
      case AggregateFunction::kCount: s.a = Value(s.a.asLong() + 1); break;
      case AggregateFunction::kMin:
        if (s.a.isNull() || compare(v, s.a) < 0) s.a = v;
        break;
      case AggregateFunction::kMax:
        if (s.a.isNull() || compare(v, s.a) > 0) s.a = v;
        break;
      case AggregateFunction::kCollectList:
      case AggregateFunction::kCollectSet:
        s.a = appended(s.a, {v}, agg.function == AggregateFunction::kCollectSet);
        break;
      case AggregateFunction::kApproxCountDistinct: {
        STREAMSIM_ASSIGN_OR_RETURN(HyperLogLogPlusPlus h, hllOf(agg));
        std::vector<int64_t> words = hllWords(s.a);
        h.update(words, v);
        s.a = hllValue(words);
        break;
      }
      case AggregateFunction::kSum:
      case AggregateFunction::kAvg: {
        Value x = v;
        if (!x.isNumeric()) {
          auto cast = v.castTo(Type::kDouble);
          if (!cast.ok()) {
            return Status::InvalidArgument(fmt::format(
                "{}({}): the value '{}' in row {{{}}} is not a number", aggregateFunctionName(agg.function),
                agg.column, v.toString(), row.toString()));
          }
          x = *cast;
        }
        if (agg.function == AggregateFunction::kAvg) {
          s.a = Value(s.a.asDouble() + x.asDouble());
          s.b = Value(s.b.asLong() + 1);
        } else {
          STREAMSIM_ASSIGN_OR_RETURN(s.a, addSum(s.a, x, ansi));
        }
        break;
      }
      default: break;
    }
  }
  return Status::OK();
}

Status mergeBuffers(const std::vector<Aggregate>& aggs, std::vector<AggBuffer>& into,
                    const std::vector<AggBuffer>& later, bool ansi) {
  for (size_t i = 0; i < aggs.size(); ++i) {
    AggBuffer& l = into[i];
    const AggBuffer& r = later[i];
    switch (aggs[i].function) {
      case AggregateFunction::kCount: l.a = Value(l.a.asLong() + r.a.asLong()); break;
      case AggregateFunction::kSum:
        if (!r.a.isNull()) {
          STREAMSIM_ASSIGN_OR_RETURN(l.a, addSum(l.a, r.a, ansi));
        }
        break;
      case AggregateFunction::kAvg:
        l.a = Value(l.a.asDouble() + r.a.asDouble());
        l.b = Value(l.b.asLong() + r.b.asLong());
        break;
      case AggregateFunction::kMin:
        if (!r.a.isNull() && (l.a.isNull() || compare(r.a, l.a) < 0)) l.a = r.a;
        break;
      case AggregateFunction::kMax:
        if (!r.a.isNull() && (l.a.isNull() || compare(r.a, l.a) > 0)) l.a = r.a;
        break;
      case AggregateFunction::kFirst:  // First.scala mergeExpressions: the left's when set
        if (!l.b.asBool()) l = r;
        break;
      case AggregateFunction::kLast:  // Last.scala: the right's when set
        if (r.b.asBool()) l = r;
        break;
      case AggregateFunction::kCollectList:
      case AggregateFunction::kCollectSet:
        l.a = appended(l.a, r.a.isNull() ? std::vector<Value>{} : r.a.items(),
                       aggs[i].function == AggregateFunction::kCollectSet);
        break;
      case AggregateFunction::kApproxCountDistinct: {
        STREAMSIM_ASSIGN_OR_RETURN(HyperLogLogPlusPlus h, hllOf(aggs[i]));
        std::vector<int64_t> words = hllWords(l.a);
        h.merge(words, hllWords(r.a));
        l.a = hllValue(words);
        break;
      }
    }
  }
  return Status::OK();
}

Value finalValue(const Aggregate& agg, const AggBuffer& b) {
  if (agg.function == AggregateFunction::kApproxCountDistinct) {
    auto h = hllOf(agg);
    if (!h.ok() || b.a.isNull() || b.a.items().size() != h->numWords()) return Value();
    return Value(h->query(hllWords(b.a)));
  }
  if (agg.function != AggregateFunction::kAvg) return b.a;
  int64_t n = b.b.asLong();
  if (n == 0) return Value();
  return Value(b.a.asDouble() / static_cast<double>(n));
}

}  // namespace streamsim::ops
