// Stream–static joins (ops/stream_static_join.h). The table is hashed once per query run (as
// Spark broadcasts the static side of a BroadcastHashJoin); each stream row is looked up by its
// join columns. The output schema is worked out once per input schema.
#include "streamsim/ops/stream_static_join.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "streamsim/spark_errors.h"

namespace streamsim {

Result<JoinType> parseJoinType(std::string_view name) {
  std::string folded;
  for (char c : name)
    if (c != '_') folded += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static constexpr std::array<std::pair<std::string_view, JoinType>, 13> kNames = {{
      {"inner", JoinType::kInner},        {"cross", JoinType::kInner},
      {"outer", JoinType::kFullOuter},    {"full", JoinType::kFullOuter},
      {"fullouter", JoinType::kFullOuter}, {"left", JoinType::kLeftOuter},
      {"leftouter", JoinType::kLeftOuter}, {"right", JoinType::kRightOuter},
      {"rightouter", JoinType::kRightOuter}, {"semi", JoinType::kLeftSemi},
      {"leftsemi", JoinType::kLeftSemi},  {"anti", JoinType::kLeftAnti},
      {"leftanti", JoinType::kLeftAnti},
  }};
  for (const auto& [n, t] : kNames)
    if (n == folded) return t;
  // Spark's JoinType.apply message.
  return Status::InvalidArgument(fmt::format(
      "Unsupported join type '{}'. Supported join types include: 'inner', 'outer', 'full', "
      "'fullouter', 'full_outer', 'leftouter', 'left', 'left_outer', 'rightouter', 'right', "
      "'right_outer', 'leftsemi', 'left_semi', 'semi', 'leftanti', 'left_anti', 'anti', 'cross'.",
      name));
}

std::string_view joinTypeName(JoinType type) {
  switch (type) {
    case JoinType::kInner: return "Inner";
    case JoinType::kLeftOuter: return "LeftOuter";
    case JoinType::kLeftSemi: return "LeftSemi";
    case JoinType::kLeftAnti: return "LeftAnti";
    case JoinType::kRightOuter: return "RightOuter";
    case JoinType::kFullOuter: return "FullOuter";
  }
  return "Inner";
}

// Spark's UnsupportedOperationChecker.checkForStreaming, the stream on the left and the static
// table on the right.
Status checkStreamStaticJoinType(JoinType type) {
  std::string msg;
  if (type == JoinType::kRightOuter)
    msg = "RightOuter join with a streaming DataFrame/Dataset on the left and a static "
          "DataFrame/DataSet on the right not supported";
  if (type == JoinType::kFullOuter)
    msg = "FullOuter joins with streaming DataFrames/Datasets on the left and a static "
          "DataFrame/Dataset on the right is not supported";
  if (msg.empty()) return Status::OK();
  return Status::InvalidArgument(msg).withCondition("_LEGACY_ERROR_TEMP_3102", {{"msg", msg}});
}

StreamStaticJoinShape streamStaticJoinShape(const Schema& stream, const Schema& table,
                                            const std::vector<std::string>& on, JoinType type) {
  StreamStaticJoinShape s;
  auto fail = [&](StreamStaticJoinShape::Problem problem, std::string message) {
    s.status = Status::InvalidArgument(std::move(message));
    s.problem = problem;
    return s;
  };
  auto has = [](const std::vector<int>& v, size_t i) {
    return std::find(v.begin(), v.end(), static_cast<int>(i)) != v.end();
  };
  for (const auto& c : on) {
    int i = stream.indexOf(c);
    if (i < 0)
      return fail(StreamStaticJoinShape::Problem::kJoinColumn,
                  fmt::format("join column '{}' is not in the stream's rows ({})", c, stream.toDDL()));
    int r = table.indexOf(c);
    if (r < 0)
      return fail(StreamStaticJoinShape::Problem::kJoinColumn,
                  fmt::format("join column '{}' is not in the static table ({})", c, table.toDDL()));
    const Field& left = stream.field(static_cast<size_t>(i));
    const Field& right = table.field(static_cast<size_t>(r));
    if (left.type != right.type)
      return fail(StreamStaticJoinShape::Problem::kJoinColumn,
                  fmt::format("join column '{}' is {} in the stream and {} in the static table; streamsim "
                              "joins equal types only (Spark would cast one side)",
                              c, sparkSqlType(left.type), sparkSqlType(right.type)));
    s.streamKeys.push_back(i);
    s.tableKeys.push_back(r);
    s.fields.push_back(left);
  }
  for (size_t i = 0; i < stream.size(); ++i) {
    if (has(s.streamKeys, i)) continue;
    s.streamRest.push_back(static_cast<int>(i));
    s.fields.push_back(stream.field(i));
  }
  if (type == JoinType::kLeftSemi || type == JoinType::kLeftAnti) return s;
  for (size_t i = 0; i < table.size(); ++i) {
    if (has(s.tableKeys, i)) continue;
    Field f = table.field(i);
    if (stream.indexOf(f.name) >= 0)
      return fail(StreamStaticJoinShape::Problem::kTableColumn,
                  fmt::format("column '{}' is in both the stream and the static table and is not a join "
                              "column: Spark keeps both and any later use of the name fails with "
                              "[AMBIGUOUS_REFERENCE]; rename one of them",
                              f.name));
    if (type == JoinType::kLeftOuter) f.nullable = true;
    s.tableRest.push_back(static_cast<int>(i));
    s.fields.push_back(std::move(f));
  }
  return s;
}

namespace {

class StreamStaticJoin final : public Operator {
 public:
  StreamStaticJoin(StaticTable table, std::vector<std::string> on, JoinType type)
      : table_(std::move(table)), on_(std::move(on)), type_(type) {}

  std::string name() const override {
    std::string cols;
    for (const auto& c : on_) cols += (cols.empty() ? "" : ", ") + c;
    return fmt::format("join(static, [{}], {})", cols, joinTypeName(type_));
  }
  // Real-time mode allows stream–table joins (seed 004: inner and outer, broadcast tables).
  std::string realTimeUnsupported() const override { return ""; }

  Status start(const OperatorStartContext&) override {
    STREAMSIM_RETURN_IF_ERROR(checkStreamStaticJoinType(type_));
    if (on_.empty()) return Status::InvalidArgument("join: no join columns (on: [...])");
    if (table_.schema == nullptr) return Status::InvalidArgument("join: the static table has no schema");
    table_keys_.clear();
    for (const auto& c : on_) {
      int i = table_.schema->indexOf(c);
      if (i < 0)
        return Status::InvalidArgument(fmt::format(
            "join: column '{}' is not in the static table; its columns: {}", c, table_.schema->toDDL()));
      table_keys_.push_back(i);
    }
    index_.clear();
    for (size_t r = 0; r < table_.rows.size(); ++r) {
      std::vector<Value> key;
      bool hasNull = false;
      for (int i : table_keys_) {
        key.push_back(table_.rows[r][static_cast<size_t>(i)]);
        hasNull = hasNull || key.back().isNull();
      }
      if (!hasNull) index_[std::move(key)].push_back(r);  // a null never equals anything
    }
    shape_schema_ = nullptr;
    return Status::OK();
  }

  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext&) override {
    std::vector<Row> out;
    out.reserve(input.size());
    std::vector<Value> key;
    for (const Row& row : input) {
      if (row.schema() != shape_schema_) STREAMSIM_RETURN_IF_ERROR(shape(row.schema()));
      key.clear();
      bool hasNull = false;
      for (int i : shape_.streamKeys) {
        key.push_back(row[static_cast<size_t>(i)]);
        hasNull = hasNull || key.back().isNull();
      }
      const std::vector<size_t>* matches = nullptr;
      if (!hasNull)
        if (auto it = index_.find(key); it != index_.end()) matches = &it->second;
      switch (type_) {
        case JoinType::kLeftSemi:  // the stream's columns, join columns first
          if (matches != nullptr) out.push_back(joined(row, nullptr));
          break;
        case JoinType::kLeftAnti:
          if (matches == nullptr) out.push_back(joined(row, nullptr));
          break;
        default:
          if (matches != nullptr) {
            for (size_t m : *matches) out.push_back(joined(row, &table_.rows[m]));
          } else if (type_ == JoinType::kLeftOuter) {
            out.push_back(joined(row, nullptr));
          }
      }
    }
    return out;
  }

 private:
  // Works out the join for rows of `schema` (streamStaticJoinShape).
  Status shape(const SchemaPtr& schema) {
    StreamStaticJoinShape s = streamStaticJoinShape(*schema, *table_.schema, on_, type_);
    if (!s.status.ok()) return s.status;
    shape_ = std::move(s);
    out_schema_ = makeSchema(shape_.fields);
    shape_schema_ = schema;
    return Status::OK();
  }

  Row joined(const Row& row, const Row* match) const {
    std::vector<Value> values;
    values.reserve(out_schema_->size());
    for (int i : shape_.streamKeys) values.push_back(row[static_cast<size_t>(i)]);
    for (int i : shape_.streamRest) values.push_back(row[static_cast<size_t>(i)]);
    for (int i : shape_.tableRest) values.push_back(match != nullptr ? (*match)[static_cast<size_t>(i)] : Value());
    return Row(out_schema_, std::move(values));
  }

  StaticTable table_;
  std::vector<std::string> on_;
  JoinType type_;
  std::vector<int> table_keys_;
  std::map<std::vector<Value>, std::vector<size_t>> index_;
  SchemaPtr shape_schema_;  // the input schema shape_ was worked out for
  StreamStaticJoinShape shape_;
  SchemaPtr out_schema_;
};

}  // namespace

std::unique_ptr<Operator> makeStreamStaticJoin(StaticTable table, std::vector<std::string> on,
                                               JoinType type) {
  return std::make_unique<StreamStaticJoin>(std::move(table), std::move(on), type);
}

}  // namespace streamsim
