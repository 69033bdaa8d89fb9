// GoogleTest glue for streamsim tests: matchers on emitted rows and on Status / Result values,
// and printers so failures show rows and statuses readably. This header-only adapter is the only
// place the harness touches gtest (harness/src never does).
//
//   EXPECT_THAT(tester.test("a", rows), EmitsRows({Row{{"key", "a"}, {"count", 1}}}));
//   EXPECT_THAT(tester.setProcessingTime(10'000), EmitsNothing());
//   EXPECT_THAT(tester.test("a", bad), FailsWithCondition(
//       "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
//       {{"operationType", "register_timer"}, {"handleState", "PRE_INIT"}}));
//   EXPECT_THAT(testStream(q, actions...), IsOk());
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/harness/row_diff.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim {

inline void PrintTo(const Row& row, std::ostream* os) { *os << harness::formatRow(row); }
inline void PrintTo(const Value& v, std::ostream* os) { *os << v.toString(); }
inline void PrintTo(const Status& st, std::ostream* os) { *os << st.toString(); }
template <class T>
void PrintTo(const Result<T>& r, std::ostream* os) {
  if (!r.ok()) {
    *os << "error: " << r.status().toString();
  } else {
    *os << ::testing::PrintToString(r.value());
  }
}

}  // namespace streamsim

namespace streamsim::harness {

namespace gtest_detail {

template <class T>
const T* valueOf(const T& v, std::string*) {
  return &v;
}
template <class T>
const T* valueOf(const Result<T>& r, std::string* error) {
  if (!r.ok()) {
    *error = r.status().toString();
    return nullptr;
  }
  return &r.value();
}

class EmitsRowsImpl {
 public:
  EmitsRowsImpl(std::vector<Row> expected, RowOrder order, RowMatch match = {})
      : expected_(std::move(expected)), order_(order), match_(match) {}

  template <class T>
  bool MatchAndExplain(const T& arg, ::testing::MatchResultListener* listener) const {
    std::string error;
    const std::vector<Row>* rows = valueOf(arg, &error);
    if (rows == nullptr) {
      *listener << "the call failed instead of emitting rows: " << error;
      return false;
    }
    RowDiff d = diffRows(expected_, *rows, order_, match_);
    if (!d.equal) *listener << "\n" << d.report;
    return d.equal;
  }
  void DescribeTo(std::ostream* os) const {
    *os << "emits " << expected_.size() << " row(s)"
        << (order_ == RowOrder::kInOrder ? " in this order" : " in any order") << ":\n"
        << formatRows(expected_);
  }
  void DescribeNegationTo(std::ostream* os) const {
    *os << "does not emit exactly these rows:\n" << formatRows(expected_);
  }

 private:
  std::vector<Row> expected_;
  RowOrder order_;
  RowMatch match_;
};

// The status a matcher looks at: a Status itself, or a Result's.
inline const Status& statusOf(const Status& s) { return s; }
template <class T>
const Status& statusOf(const Result<T>& r) {
  return r.status();
}

class StatusImpl {
 public:
  StatusImpl(bool wantOk, std::optional<Status::Code> code, std::string substring)
      : want_ok_(wantOk), code_(code), substring_(std::move(substring)) {}

  template <class T>
  bool MatchAndExplain(const T& arg, ::testing::MatchResultListener* listener) const {
    const Status& st = statusOf(arg);
    if (want_ok_) {
      if (!st.ok()) *listener << "\n" << st.toString();
      return st.ok();
    }
    if (st.ok()) {
      *listener << "it succeeded";
      return false;
    }
    bool match = (!code_ || st.code() == *code_) &&
                 st.toString().find(substring_) != std::string::npos;
    if (!match) *listener << "the error was: " << st.toString();
    return match;
  }
  void DescribeTo(std::ostream* os) const {
    if (want_ok_) {
      *os << "is OK";
      return;
    }
    *os << "fails";
    if (code_) *os << " with " << Status::codeName(*code_);
    if (!substring_.empty()) *os << " with a message containing \"" << substring_ << "\"";
  }
  void DescribeNegationTo(std::ostream* os) const {
    *os << "does not ";
    DescribeTo(os);
  }

 private:
  bool want_ok_;
  std::optional<Status::Code> code_;
  std::string substring_;
};

// Fails with Spark's condition `condition` and (each given) message parameter.
class ConditionImpl {
 public:
  ConditionImpl(std::string condition, ErrorParams params)
      : condition_(std::move(condition)), params_(std::move(params)) {}
  template <class T>
  bool MatchAndExplain(const T& v, ::testing::MatchResultListener* listener) const {
    const Status& st = statusOf(v);
    bool match = !st.ok() && st.condition() == condition_;
    for (const auto& [k, want] : params_) match = match && st.parameter(k) == want;
    if (!match) {
      *listener << "the error was: " << st.toString() << " (condition \"" << st.condition() << "\"";
      for (const auto& [k, got] : st.parameters()) *listener << ", " << k << "=" << got;
      *listener << ")";
    }
    return match;
  }
  void DescribeTo(std::ostream* os) const {
    *os << "fails with condition " << condition_;
    for (const auto& [k, v] : params_) *os << ", " << k << "=" << v;
  }
  void DescribeNegationTo(std::ostream* os) const {
    *os << "does not ";
    DescribeTo(os);
  }

 private:
  std::string condition_;
  ErrorParams params_;
};

}  // namespace gtest_detail

// The call emitted exactly `rows` (as a multiset; equal rows = same columns, equal values).
// Works on std::vector<Row> and Result<std::vector<Row>>; a failed call does not match and
// shows its error. On a mismatch prints expected, actual, missing and unexpected rows.
inline auto EmitsRows(std::vector<Row> rows) {
  return ::testing::MakePolymorphicMatcher(
      gtest_detail::EmitsRowsImpl(std::move(rows), RowOrder::kAnyOrder));
}
inline auto EmitsRowsInOrder(std::vector<Row> rows) {
  return ::testing::MakePolymorphicMatcher(
      gtest_detail::EmitsRowsImpl(std::move(rows), RowOrder::kInOrder));
}
inline auto EmitsNothing() { return EmitsRows({}); }
// As EmitsRows, and each value's type must be the expected one (a long is not an int is not a
// timestamp): write Value(int64_t{2}), Value::timestamp(t), ...
inline auto EmitsRowsStrict(std::vector<Row> rows, RowOrder order = RowOrder::kAnyOrder) {
  return ::testing::MakePolymorphicMatcher(
      gtest_detail::EmitsRowsImpl(std::move(rows), order, RowMatch{.strictTypes = true}));
}
// As EmitsRows, comparing only the columns each expected row lists.
inline auto EmitsRowsWithColumns(std::vector<Row> rows, RowOrder order = RowOrder::kAnyOrder) {
  return ::testing::MakePolymorphicMatcher(
      gtest_detail::EmitsRowsImpl(std::move(rows), order, RowMatch{.partial = true}));
}

// On Status and Result<T>.
inline auto IsOk() {
  return ::testing::MakePolymorphicMatcher(gtest_detail::StatusImpl(true, std::nullopt, ""));
}
// Fails with a message containing `substring` (e.g. a handle rule name).
inline auto FailsWith(std::string substring) {
  return ::testing::MakePolymorphicMatcher(
      gtest_detail::StatusImpl(false, std::nullopt, std::move(substring)));
}
inline auto FailsWith(Status::Code code, std::string substring = "") {
  return ::testing::MakePolymorphicMatcher(
      gtest_detail::StatusImpl(false, code, std::move(substring)));
}

// Fails with Spark's error condition and the given message parameters (others not compared):
//   EXPECT_THAT(st, FailsWithCondition("STATE_STORE_INVALID_CONFIG_AFTER_RESTART",
//                                      {{"configName", "outputMode"}}));
inline auto FailsWithCondition(std::string condition, ErrorParams params = {}) {
  return ::testing::MakePolymorphicMatcher(
      gtest_detail::ConditionImpl(std::move(condition), std::move(params)));
}

// The value of an ok Result, or a failed assertion showing the error. Usable in expressions:
//   EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("a", "count")), 3);
template <class T>
T valueOrFail(Result<T> r) {
  if (!r.ok()) {
    ADD_FAILURE() << "expected a value, got error: " << r.status().toString();
    return T{};
  }
  return std::move(r).value();
}

}  // namespace streamsim::harness
