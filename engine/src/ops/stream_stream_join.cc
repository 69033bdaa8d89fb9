// Stream–stream joins (ops/stream_stream_join.h), after Spark 4.1's
// StreamingSymmetricHashJoinExec.processPartitions and OneSideHashJoiner
// (sql/core/.../streaming/operators/stateful/join/StreamingSymmetricHashJoinExec.scala), its
// state watermarks (StreamingSymmetricHashJoinHelper.getStateWatermarkPredicates,
// catalyst's StreamingJoinHelper.getStateValueWatermark) and the analysis rules of
// UnsupportedOperationChecker.checkForStreaming (Join, checkForStreamStreamJoinWatermark).
#include "streamsim/ops/stream_stream_join.h"

#include <algorithm>

#include <fmt/format.h>

#include "ops/stream_join_state.h"
#include "streamsim/ops/partitioning.h"
#include "streamsim/ops/stateful_support.h"
#include "streamsim/spark_errors.h"
#include "streamsim/state/row_encoding.h"

namespace streamsim {

namespace {

// UnsupportedOperationChecker.throwError.
Status analysisError(std::string msg) {
  return Status::InvalidArgument(msg).withCondition("_LEGACY_ERROR_TEMP_3102", {{"msg", msg}});
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// WatermarkSupport.findEventTimeColumn: the side's first column a withWatermark names.
std::optional<std::string> sideWatermarkColumn(const Schema& side, const std::vector<std::string>& watermarked) {
  for (const Field& f : side.fields())
    if (contains(watermarked, f.name)) return f.name;
  return std::nullopt;
}

// StreamingJoinHelper.getStateValueWatermark's bound for each side (the offset added to the
// watermark), when the range and the watermarks give one.
std::optional<DurationMs> leftBound(const StreamStreamJoinSpec& spec, const std::vector<std::string>& watermarked) {
  // `l >= r + lower`: the left's state keeps l > watermark + lower (- 1 ms for >=), when r is
  // the right side's watermarked column.
  if (!spec.range || !spec.range->lower || !contains(watermarked, spec.range->rightColumn)) return std::nullopt;
  return *spec.range->lower - (spec.range->lowerStrict ? 0 : 1);
}
std::optional<DurationMs> rightBound(const StreamStreamJoinSpec& spec, const std::vector<std::string>& watermarked) {
  // `l <= r + upper`: r >= l - upper, and l is newer than the watermark.
  if (!spec.range || !spec.range->upper || !contains(watermarked, spec.range->leftColumn)) return std::nullopt;
  return -*spec.range->upper - (spec.range->upperStrict ? 0 : 1);
}

}  // namespace

StreamJoinEviction streamJoinEviction(const StreamStreamJoinSpec& spec,
                                      const std::vector<std::string>& watermarked) {
  StreamJoinEviction e;
  for (size_t k = 0; k < spec.on.size(); ++k) {
    if (contains(watermarked, spec.on[k]) ||
        (k < spec.rightKeys().size() && contains(watermarked, spec.rightKeys()[k]))) {  // findJoinKeyOrdinalForWatermark
      e.keyColumn = static_cast<int>(k);
      return e;
    }
  }
  if (spec.left == nullptr || spec.right == nullptr) return e;
  e.leftValueColumn = sideWatermarkColumn(*spec.left, watermarked);
  e.rightValueColumn = sideWatermarkColumn(*spec.right, watermarked);
  // A bound needs both sides watermarked: the side's own column is compared, the other's
  // watermarked column is replaced by the watermark.
  if (e.leftValueColumn && e.rightValueColumn) {
    e.leftOffset = leftBound(spec, watermarked);
    e.rightOffset = rightBound(spec, watermarked);
  }
  return e;
}

Result<std::vector<Field>> streamStreamJoinFields(const StreamStreamJoinSpec& spec) {
  if (spec.left == nullptr || spec.right == nullptr)
    return Status::InvalidArgument("stream-stream join: both sides need a schema");
  const Schema& l = *spec.left;
  const Schema& r = *spec.right;
  const bool leftNullable = spec.type == JoinType::kRightOuter || spec.type == JoinType::kFullOuter;
  const bool rightNullable = spec.type == JoinType::kLeftOuter || spec.type == JoinType::kFullOuter;
  std::vector<Field> fields;
  const bool using_ = spec.rightOn.empty();
  if (!using_ && spec.rightOn.size() != spec.on.size())
    return Status::InvalidArgument(fmt::format("stream-stream join: {} left key columns but {} right ones",
                                               spec.on.size(), spec.rightOn.size()));
  for (size_t k = 0; k < spec.on.size(); ++k) {
    const std::string& c = spec.on[k];
    const std::string& rc = spec.rightKeys()[k];
    int li = l.indexOf(c), ri = r.indexOf(rc);
    if (li < 0) return Status::InvalidArgument(fmt::format("join column '{}' is not in the left stream ({})", c, l.toDDL()));
    if (ri < 0) return Status::InvalidArgument(fmt::format("join column '{}' is not in the right stream ({})", rc, r.toDDL()));
    const Field& lf = l.field(static_cast<size_t>(li));
    const Field& rf = r.field(static_cast<size_t>(ri));
    if (lf.type != rf.type)
      return Status::InvalidArgument(fmt::format(
          "join column '{}' is {} in the left stream and '{}' {} in the right; streamsim joins equal types only "
          "(Spark would cast one side)",
          c, sparkSqlType(lf.type), rc, sparkSqlType(rf.type)));
    if (!using_) continue;
    Field f = spec.type == JoinType::kRightOuter ? rf : lf;
    if (spec.type == JoinType::kFullOuter) f.nullable = lf.nullable || rf.nullable;
    fields.push_back(std::move(f));
  }
  for (const Field& f : l.fields()) {
    if (using_ && contains(spec.on, f.name)) continue;
    Field out = f;
    out.nullable = out.nullable || leftNullable;
    fields.push_back(std::move(out));
  }
  if (spec.type == JoinType::kLeftSemi) return fields;
  for (const Field& f : r.fields()) {
    if (using_ && contains(spec.on, f.name)) continue;
    if (l.indexOf(f.name) >= 0)
      return Status::InvalidArgument(fmt::format(
          "column '{}' is in both streams and is not a join column: Spark keeps both and any later use of "
          "the name fails with [AMBIGUOUS_REFERENCE]; rename one of them",
          f.name));
    Field out = f;
    out.nullable = out.nullable || rightNullable;
    fields.push_back(std::move(out));
  }
  return fields;
}

Status checkStreamStreamJoin(const StreamStreamJoinSpec& spec, const std::vector<std::string>& watermarked,
                             OutputMode mode) {
  if (mode != OutputMode::kAppend) {
    std::string name = mode == OutputMode::kUpdate ? "Update" : "Complete";
    return analysisError(fmt::format(
        "Join between two streaming DataFrames/Datasets is not supported in {} output mode, only in "
        "Append output mode",
        name));
  }
  if (spec.type == JoinType::kLeftAnti)
    return analysisError("LeftAnti joins with a streaming DataFrame/Dataset on the right are not supported");
  if (spec.on.empty()) return Status::InvalidArgument("stream-stream join: no join columns (on: [...])");
  STREAMSIM_RETURN_IF_ERROR(streamStreamJoinFields(spec).status());
  if (spec.range) {
    const StreamJoinRange& rg = *spec.range;
    auto check = [](const Schema& side, const std::string& c, std::string_view which) -> Status {
      int i = side.indexOf(c);
      if (i < 0)
        return Status::InvalidArgument(
            fmt::format("range column '{}' is not in the {} stream ({})", c, which, side.toDDL()));
      if (side.field(static_cast<size_t>(i)).type != Type::kTimestamp)
        return Status::InvalidArgument(fmt::format("range column '{}' of the {} stream is {}, not a timestamp", c,
                                                   which, sparkSqlType(side.field(static_cast<size_t>(i)).type)));
      return Status::OK();
    };
    STREAMSIM_RETURN_IF_ERROR(check(*spec.left, rg.leftColumn, "left"));
    STREAMSIM_RETURN_IF_ERROR(check(*spec.right, rg.rightColumn, "right"));
    if (!rg.lower && !rg.upper) return Status::InvalidArgument("stream-stream join: a range needs lower or upper");
  }
  if (spec.type == JoinType::kInner) return Status::OK();
  // checkForStreamStreamJoinWatermark.
  bool keys = false;
  for (const auto& c : spec.on) keys = keys || contains(watermarked, c);
  for (const auto& c : spec.rightOn) keys = keys || contains(watermarked, c);
  bool range = false;
  switch (spec.type) {
    case JoinType::kLeftOuter:
    case JoinType::kLeftSemi: range = leftBound(spec, watermarked).has_value(); break;
    case JoinType::kRightOuter: range = rightBound(spec, watermarked).has_value(); break;
    default:
      range = leftBound(spec, watermarked).has_value() || rightBound(spec, watermarked).has_value();
  }
  if (keys || range) return Status::OK();
  return analysisError(fmt::format(
      "Stream-stream {} join between two streaming DataFrame/Datasets is not supported without a watermark in "
      "the join keys, or a watermark on the nullable side and an appropriate range condition",
      joinTypeName(spec.type)));
}

namespace {

class StreamStreamJoin final : public Operator {
 public:
  explicit StreamStreamJoin(StreamStreamJoinSpec spec) : spec_(std::move(spec)) {}

  std::string name() const override {
    return fmt::format("join(stream, {}, {})", ops::formatColumnList(spec_.on), joinTypeName(spec_.type));
  }
  bool isStateful() const override { return true; }

  Status start(const OperatorStartContext& ctx) override {
    operator_id_ = ctx.operatorId;
    STREAMSIM_RETURN_IF_ERROR(checkStreamStreamJoin(spec_, ctx.watermarkColumns, ctx.outputMode));
    eviction_ = streamJoinEviction(spec_, ctx.watermarkColumns);
    left_late_ = sideWatermarkColumn(*spec_.left, ctx.watermarkColumns);
    right_late_ = sideWatermarkColumn(*spec_.right, ctx.watermarkColumns);
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<Field> fields, streamStreamJoinFields(spec_));
    out_schema_ = makeSchema(fields);
    left_keys_.clear();
    right_keys_.clear();
    std::vector<Field> keyFields;
    for (size_t k = 0; k < spec_.on.size(); ++k) {
      left_keys_.push_back(spec_.left->indexOf(spec_.on[k]));
      right_keys_.push_back(spec_.right->indexOf(spec_.rightKeys()[k]));
      Field f = spec_.left->field(static_cast<size_t>(left_keys_.back()));
      f.name = fmt::format("field{}", k);  // SymmetricHashJoinStateManager's key schema
      keyFields.push_back(std::move(f));
    }
    left_rest_.clear();
    right_rest_.clear();
    // A using join writes the join columns once, first; a condition join every column of each side.
    const bool using_ = spec_.rightOn.empty();
    for (size_t i = 0; i < spec_.left->size(); ++i)
      if (!using_ || !contains(spec_.on, spec_.left->field(i).name)) left_rest_.push_back(static_cast<int>(i));
    for (size_t i = 0; i < spec_.right->size(); ++i)
      if (!using_ || !contains(spec_.on, spec_.right->field(i).name)) right_rest_.push_back(static_cast<int>(i));
    last_eviction_watermark_.reset();

    // The state layout (SymmetricHashJoinStateManager's four stores per partition).
    Schema key(keyFields);
    std::vector<Field> withIndex = keyFields;
    withIndex.push_back(Field{"index", Type::kLong, false});
    auto valueOf = [](const Schema& side) {
      std::vector<Field> v = side.fields();
      v.push_back(Field{"matched", Type::kBoolean, true});
      return Schema(v).toDDL();
    };
    ops::StateLayout layout;
    layout.operatorName = "symmetricHashJoin";
    layout.keyColumns = spec_.on;
    for (const auto& c : spec_.rightOn) layout.keyColumns.push_back(c);
    layout.details = fmt::format("{} join", joinTypeName(spec_.type));
    for (const char* side : {"left", "right"}) {
      const Schema& s = std::string_view(side) == "left" ? *spec_.left : *spec_.right;
      layout.variables.push_back(
          StateVariableSchema{std::string(side) + "-keyToNumValues", key.toDDL(), "value long", false, ""});
      layout.variables.push_back(StateVariableSchema{std::string(side) + "-keyWithIndexToValue",
                                                     Schema(withIndex).toDDL(), valueOf(s), false, ""});
    }
    return ops::checkOrRecordStateLayout(ctx, layout, "stream-stream join");
  }

  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext& ctx) override {
    // The two sides: the left's sources come first.
    size_t leftRows = 0, total = 0;
    for (size_t i = 0; i < ctx.sourceRowCounts.size(); ++i) {
      total += static_cast<size_t>(ctx.sourceRowCounts[i]);
      if (static_cast<int>(i) < spec_.leftSources) leftRows += static_cast<size_t>(ctx.sourceRowCounts[i]);
    }
    if (total != input.size())
      return Status::FailedPrecondition(fmt::format(
          "{}: got {} rows but its inputs gave {}: an operator between the inputs and a stream-stream join "
          "changed the rows (give each side its own operators: DataFrame::join)",
          name(), input.size(), total));
    const int parts = ctx.shufflePartitions;
    std::vector<std::vector<Keyed>> left(static_cast<size_t>(parts)), right(static_cast<size_t>(parts));
    int64_t dropped = 0;
    for (size_t i = 0; i < input.size(); ++i) {
      const bool isLeft = i < leftRows;
      STREAMSIM_RETURN_IF_ERROR(checkSide(input[i], isLeft));
      // Late rows go first (storeAndJoinWithOtherSide's nonLateRows).
      const std::optional<std::string>& late = isLeft ? left_late_ : right_late_;
      if (late && ctx.hasWatermark) {
        std::optional<TimeMs> t = eventTimeOf(input[i], *late);
        if (t && *t <= ctx.lateWatermarkMs) {
          ++dropped;
          continue;
        }
      }
      Keyed k;
      k.key = ops::encodeKeyAt(input[i], isLeft ? left_keys_ : right_keys_);
      for (int c : isLeft ? left_keys_ : right_keys_) k.nullKey = k.nullKey || input[i][static_cast<size_t>(c)].isNull();
      // Spark's optimizer filters null join keys out of the side that cannot be null-padded
      // (InferFiltersFromConstraints: isnotnull for an equi-join's keys).
      if (k.nullKey && !preserved(isLeft)) continue;
      k.row = std::move(input[i]);
      auto& side = isLeft ? left : right;
      side[static_cast<size_t>(ops::partitionOf(k.key, parts))].push_back(std::move(k));
    }
    const bool watermarkOn = ctx.hasWatermark;
    auto task = [&](int p, StateStore& store, ops::TaskOutput& out, const ops::MidwayFn& midway) -> Status {
      if (p == 0) out.droppedByWatermark = dropped;
      ops::JoinSideState leftState(store, "left", spec_.left);
      ops::JoinSideState rightState(store, "right", spec_.right);
      // SymmetricHashJoinStateManager's metrics: rows buffered, rows appended, rows removed by
      // the cleanup (not the outer side's, which are emitted instead).
      StateStoreMetrics figures;
      const auto& ls = left[static_cast<size_t>(p)];
      const auto& rs = right[static_cast<size_t>(p)];
      for (const Keyed& k : ls) {
        std::vector<ops::JoinSideState::Entry> matches;
        if (!k.nullKey) {
          STREAMSIM_ASSIGN_OR_RETURN(matches, rightState.get(k.key));
        }
        bool matched = false;
        for (const auto& e : matches) {
          if (!inRange(k.row, e.row)) continue;
          // Left semi: only the first match is looked at (the output iterator's nonEmpty).
          if (spec_.type == JoinType::kLeftSemi && matched) break;
          if (!e.matched) rightState.markMatched(k.key, e);
          matched = true;
          if (spec_.type != JoinType::kLeftSemi) out.rows.push_back(joined(&k.row, &e.row));
        }
        if (spec_.type == JoinType::kLeftSemi && matched) {
          out.rows.push_back(joined(&k.row, nullptr));
          continue;  // a matched left semi row is not kept
        }
        STREAMSIM_RETURN_IF_ERROR(leftState.append(k.key, k.row, matched));  // the left side always
        ++figures.numUpdated;
      }
      STREAMSIM_RETURN_IF_ERROR(midway());
      for (const Keyed& k : rs) {
        std::vector<ops::JoinSideState::Entry> matches;
        if (!k.nullKey) {
          STREAMSIM_ASSIGN_OR_RETURN(matches, leftState.get(k.key));
        }
        bool matched = false;
        for (const auto& e : matches) {
          if (spec_.type == JoinType::kLeftSemi && e.matched) continue;  // excludeRowsAlreadyMatched
          if (!inRange(e.row, k.row)) continue;
          if (!e.matched) leftState.markMatched(k.key, e);
          matched = true;
          out.rows.push_back(spec_.type == JoinType::kLeftSemi ? joined(&e.row, nullptr) : joined(&e.row, &k.row));
        }
        const bool evictedNow = watermarkOn && evicts(/*left=*/false, k.key, k.row, ctx.evictionWatermarkMs);
        const bool keepUnmatched =
            (spec_.type == JoinType::kRightOuter || spec_.type == JoinType::kFullOuter) && !matched;
        if (!evictedNow || keepUnmatched) {
          STREAMSIM_RETURN_IF_ERROR(rightState.append(k.key, k.row, matched));
          ++figures.numUpdated;
        }
      }
      auto finish = [&]() {
        figures.numKeys = leftState.countRows() + rightState.countRows();
        out.figures = figures;
        return Status::OK();
      };
      if (!watermarkOn) return finish();
      // Old state goes, the outer side's unmatched rows null-padded (processPartitions'
      // outer iterators, then onOutputCompletion's cleanup of the other side).
      const bool leftOuter = spec_.type == JoinType::kLeftOuter || spec_.type == JoinType::kFullOuter;
      const bool rightOuter = spec_.type == JoinType::kRightOuter || spec_.type == JoinType::kFullOuter;
      auto evictSide = [&](bool isLeft, bool emit) -> Status {
        ops::JoinSideState& state = isLeft ? leftState : rightState;
        std::vector<ops::JoinSideState::Removed> removed;
        if (eviction_.keyColumn) {
          STREAMSIM_ASSIGN_OR_RETURN(removed, state.removeByKey([&](std::string_view key) {
            return keyEvicts(key, ctx.evictionWatermarkMs);
          }));
        } else if (isLeft ? eviction_.leftOffset.has_value() : eviction_.rightOffset.has_value()) {
          STREAMSIM_ASSIGN_OR_RETURN(removed, state.removeByValue([&](const Row& row) {
            return evicts(isLeft, {}, row, ctx.evictionWatermarkMs);
          }));
        }
        if (!emit) {
          figures.numRemoved += static_cast<int64_t>(removed.size());
          return Status::OK();
        }
        for (const auto& r : removed)
          if (!r.matched) out.rows.push_back(isLeft ? joined(&r.row, nullptr) : joined(nullptr, &r.row));
        return Status::OK();
      };
      if (rightOuter && !leftOuter) {
        STREAMSIM_RETURN_IF_ERROR(evictSide(false, true));
        STREAMSIM_RETURN_IF_ERROR(evictSide(true, false));
      } else {
        STREAMSIM_RETURN_IF_ERROR(evictSide(true, leftOuter));
        STREAMSIM_RETURN_IF_ERROR(evictSide(false, rightOuter));
      }
      return finish();
    };
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<Row> out,
                               ops::runPartitionTasks(ctx, operator_id_, "symmetricHashJoin", task));
    if (watermarkOn) last_eviction_watermark_ = ctx.evictionWatermarkMs;
    return out;
  }

  // StreamingSymmetricHashJoinExec.shouldRunAnotherBatch: state is evicted by a watermark and
  // the watermark moved past the one the last batch evicted with.
  bool needsNoDataBatch(TimeMs nextEvictionWatermark, bool watermarkMoved) const override {
    if (!eviction_.evictsLeft() && !eviction_.evictsRight()) return false;
    if (last_eviction_watermark_) return nextEvictionWatermark > *last_eviction_watermark_;
    return watermarkMoved;
  }

 private:
  struct Keyed {
    std::string key;
    Row row;
    bool nullKey = false;
  };

  // Whether a side's rows are kept when they match nothing (then a null key is kept too).
  bool preserved(bool isLeft) const {
    if (spec_.type == JoinType::kFullOuter) return true;
    return isLeft ? spec_.type == JoinType::kLeftOuter : spec_.type == JoinType::kRightOuter;
  }

  Status checkSide(const Row& row, bool isLeft) {
    const SchemaPtr& want = isLeft ? spec_.left : spec_.right;
    if (row.schema() == want) return Status::OK();
    const SchemaPtr& seen = isLeft ? left_seen_ : right_seen_;
    if (row.schema() == seen) return Status::OK();
    if (row.size() != want->size())
      return Status::InvalidArgument(fmt::format("{}: a {} row has columns ({}), expected ({})", name(),
                                                 isLeft ? "left" : "right", row.schema()->toDDL(), want->toDDL()));
    for (size_t i = 0; i < want->size(); ++i)
      if (row.schema()->field(i).name != want->field(i).name)
        return Status::InvalidArgument(fmt::format("{}: a {} row has columns ({}), expected ({})", name(),
                                                   isLeft ? "left" : "right", row.schema()->toDDL(),
                                                   want->toDDL()));
    (isLeft ? left_seen_ : right_seen_) = row.schema();
    return Status::OK();
  }

  // The range part of the join condition (Spark's postJoinFilter); a null time fails it.
  bool inRange(const Row& l, const Row& r) const {
    if (!spec_.range) return true;
    std::optional<TimeMs> lt = eventTimeOf(l, spec_.range->leftColumn);
    std::optional<TimeMs> rt = eventTimeOf(r, spec_.range->rightColumn);
    if (!lt || !rt) return false;
    const StreamJoinRange& rg = *spec_.range;
    if (rg.lower && (rg.lowerStrict ? !(*lt > *rt + *rg.lower) : !(*lt >= *rt + *rg.lower))) return false;
    if (rg.upper && (rg.upperStrict ? !(*lt < *rt + *rg.upper) : !(*lt <= *rt + *rg.upper))) return false;
    return true;
  }

  // JoinStateKeyWatermarkPredicate: the key's watermarked column <= the watermark.
  bool keyEvicts(std::string_view key, TimeMs watermark) const {
    for (int k = 0;; ++k) {
      Result<Value> v = decodeOrderedValue(key);
      if (!v.ok()) return false;
      if (k == *eviction_.keyColumn) return !v->isNull() && v->asLong() <= watermark;
    }
  }

  // Whether a side's row goes with this watermark (the key or the value predicate).
  bool evicts(bool isLeft, std::string_view key, const Row& row, TimeMs watermark) const {
    if (eviction_.keyColumn) return !key.empty() && keyEvicts(key, watermark);
    const std::optional<DurationMs>& offset = isLeft ? eviction_.leftOffset : eviction_.rightOffset;
    if (!offset) return false;
    std::optional<TimeMs> t = eventTimeOf(row, *(isLeft ? eviction_.leftValueColumn : eviction_.rightValueColumn));
    return t && *t <= watermark + *offset;
  }

  Row joined(const Row* l, const Row* r) const {
    std::vector<Value> values;
    values.reserve(out_schema_->size());
    for (size_t k = 0; spec_.rightOn.empty() && k < spec_.on.size(); ++k) {
      Value v;
      if (l != nullptr) v = (*l)[static_cast<size_t>(left_keys_[k])];
      if (v.isNull() && r != nullptr && spec_.type != JoinType::kLeftOuter && spec_.type != JoinType::kInner &&
          spec_.type != JoinType::kLeftSemi)
        v = (*r)[static_cast<size_t>(right_keys_[k])];
      values.push_back(std::move(v));
    }
    for (int i : left_rest_) values.push_back(l != nullptr ? (*l)[static_cast<size_t>(i)] : Value());
    if (spec_.type != JoinType::kLeftSemi)
      for (int i : right_rest_) values.push_back(r != nullptr ? (*r)[static_cast<size_t>(i)] : Value());
    return Row(out_schema_, std::move(values));
  }

  StreamStreamJoinSpec spec_;
  int operator_id_ = 0;
  StreamJoinEviction eviction_;
  std::optional<std::string> left_late_, right_late_;  // each side's watermarked column
  SchemaPtr out_schema_;
  std::vector<int> left_keys_, right_keys_, left_rest_, right_rest_;
  SchemaPtr left_seen_, right_seen_;  // row schemas checked equal to the sides'
  std::optional<TimeMs> last_eviction_watermark_;
};

}  // namespace

std::unique_ptr<Operator> makeStreamStreamJoin(StreamStreamJoinSpec spec) {
  return std::make_unique<StreamStreamJoin>(std::move(spec));
}

}  // namespace streamsim
