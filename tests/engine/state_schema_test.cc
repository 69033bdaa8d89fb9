// State schema registry (state_schema.h): record, accept the same, evolve an added nullable
// field or a new variable, reject everything else with a message naming variable and schemas.
#include "streamsim/state/state_schema.h"

#include <gtest/gtest.h>

#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"

namespace streamsim {
namespace {

class StateSchemaTest : public ::testing::Test {
 protected:
  Status check(std::vector<StateVariableSchema> vars, int op = 0) {
    return checkAndRecordStateSchema(env_, "/chk", op, vars);
  }
  std::vector<std::string> files() {
    std::vector<std::string> out;
    auto l = fs_.list("/chk/state/0/_stateSchema");
    if (l.ok())
      for (const auto& f : *l) out.push_back(baseName(f.path));
    return out;
  }
  sim::VirtualClock clock_{0};
  sim::SimFileSystem fs_{&clock_};
  sim::SeededIdGenerator ids_{3};
  Env env_{&clock_, &fs_, &ids_, nullptr, nullptr};
  const StateVariableSchema count_{"count", "device string", "count long", false};
};

TEST_F(StateSchemaTest, FirstRunRecordsAndSameSchemaIsAccepted) {
  ASSERT_TRUE(check({count_}).ok());
  EXPECT_EQ(files(), std::vector<std::string>{"0.json"});
  auto text = fs_.read("/chk/state/0/_stateSchema/0.json");
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find(R"("keySchema":"device string")"), std::string::npos) << *text;
  ASSERT_TRUE(check({count_}).ok());
  EXPECT_EQ(files(), std::vector<std::string>{"0.json"});  // nothing rewritten
  EXPECT_EQ(*readStateSchema(env_, "/chk", 0), std::vector<StateVariableSchema>{count_});
  EXPECT_TRUE(readStateSchema(env_, "/chk", 7)->empty());
}

TEST_F(StateSchemaTest, AddedNullableFieldAndNewVariableEvolve) {
  ASSERT_TRUE(check({count_}).ok());
  StateVariableSchema evolved{"count", "device string", "count long, last string", false};
  ASSERT_TRUE(check({evolved}).ok());
  EXPECT_EQ(files(), (std::vector<std::string>{"0.json", "1.json"}));
  EXPECT_EQ(*readStateSchema(env_, "/chk", 0), std::vector<StateVariableSchema>{evolved});

  StateVariableSchema seen{"seen", "device string", "id string", true};
  ASSERT_TRUE(check({evolved, seen}).ok());
  EXPECT_EQ(files().size(), 3u);
  // A variable not declared in this run stays recorded.
  ASSERT_TRUE(check({seen}).ok());
  EXPECT_EQ(readStateSchema(env_, "/chk", 0)->size(), 2u);
  EXPECT_EQ(files().size(), 3u);
}

TEST_F(StateSchemaTest, IncompatibleChangesAreRejectedNamingVariableAndSchemas) {
  ASSERT_TRUE(check({count_}).ok());
  struct Case {
    StateVariableSchema now;
    std::string expect;
  };
  std::vector<Case> cases = {
      {{"count", "device string", "count int", false}, "value schema was 'count long'"},
      {{"count", "device string", "total long", false}, "now 'total long'"},
      {{"count", "device string", "", false}, "value schema"},
      {{"count", "device string", "count long, x long NOT NULL", false}, "only appending nullable fields"},
      {{"count", "device string, region string", "count long", false}, "key schema was 'device string'"},
      {{"count", "device string", "count long", true}, "TTL was 'disabled'"},
  };
  for (const Case& c : cases) {
    Status st = check({c.now});
    ASSERT_FALSE(st.ok()) << c.now.valueSchema;
    EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition) << st.toString();
    EXPECT_NE(st.message().find("state variable 'count'"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find(c.expect), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("_stateSchema/0.json"), std::string::npos) << st.message();
  }
  EXPECT_EQ(files(), std::vector<std::string>{"0.json"});  // rejections write nothing
}

// Another stateful operator at the same id (dropDuplicates replaced by an aggregation, Spark's
// OperatorStateMetadataSuite "Replace"): STREAMING_STATEFUL_OPERATOR_NOT_MATCH_IN_STATE_METADATA
// with Spark's pair format, checked before the operator's properties as in Spark.
TEST_F(StateSchemaTest, AnotherOperatorAtTheSameIdIsSparksOperatorMismatch) {
  const StateVariableSchema store{"default", "", "", false};
  ASSERT_TRUE(checkAndRecordStateSchema(env_, "/chk", 0, StateOperatorSchema{"dedupe", {"*"}, "", {}},
                                        {store}, "dropDuplicates")
                  .ok());
  Status st = checkAndRecordStateSchema(env_, "/chk", 0,
                                        StateOperatorSchema{"stateStoreSave", {"value"}, "count", {{"outputMode", "Update"}}},
                                        {store}, "aggregation");
  EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition);
  EXPECT_EQ(st.condition(), "STREAMING_STATEFUL_OPERATOR_NOT_MATCH_IN_STATE_METADATA");
  EXPECT_EQ(st.parameter("OpsInMetadataSeq"), "(OperatorId: 0 -> OperatorName: dedupe)");
  EXPECT_EQ(st.parameter("OpsInCurBatchSeq"), "(OperatorId: 0 -> OperatorName: stateStoreSave)");
  EXPECT_NE(st.message().find("Stateful operators in the metadata: [(OperatorId: 0 -> OperatorName: "
                              "dedupe)]; Stateful operators in current batch: [(OperatorId: 0 -> "
                              "OperatorName: stateStoreSave)]."),
            std::string::npos)
      << st.message();
  EXPECT_EQ(files(), std::vector<std::string>{"0.json"});  // rejections write nothing
}

// The grouping columns are the key schema, which Spark compares by types, ignoring names: at
// start streamsim refuses only another number of columns; renamed ones (and `*`, every column,
// counted from the rows) wait for the types of the first rows (checkAndRecordStateKeySchema).
TEST_F(StateSchemaTest, GroupingColumnsAreComparedByCountBeforeAnyRow) {
  const StateVariableSchema store{"default", "", "", false};
  auto dedupe = [&](std::vector<std::string> cols) {
    return checkAndRecordStateSchema(env_, "/chk", 0, StateOperatorSchema{"dedupe", std::move(cols), "", {}},
                                     {store}, "dropDuplicates");
  };
  ASSERT_TRUE(dedupe({"id"}).ok());
  EXPECT_TRUE(dedupe({"key"}).ok()) << "a renamed column";
  EXPECT_TRUE(dedupe({"*"}).ok()) << "every column: counted from the rows";
  Status st = dedupe({"id", "x"});
  EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition);
  EXPECT_EQ(st.condition(), "STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE");
  EXPECT_EQ(st.parameter("storedKeySchema"), "[id]");
  EXPECT_EQ(st.parameter("newKeySchema"), "[id, x]");
  EXPECT_NE(st.message().find("keyed by 1 grouping column(s), the query now by 2"), std::string::npos)
      << st.message();
  EXPECT_EQ(files(), std::vector<std::string>{"0.json"});  // nothing changed, nothing written
}

TEST_F(StateSchemaTest, BadInputAndCorruptFilesAreNamed) {
  Status dup = check({count_, count_});
  EXPECT_EQ(dup.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(dup.message().find("declared twice"), std::string::npos);
  Status badDdl = check({{"v", "k strin", "x long", false}});
  EXPECT_FALSE(badDdl.ok());
  EXPECT_NE(badDdl.message().find("key schema of state variable 'v'"), std::string::npos) << badDdl.message();

  ASSERT_TRUE(fs_.mkdirs("/chk/state/0/_stateSchema").ok());
  ASSERT_TRUE(fs_.write("/chk/state/0/_stateSchema/0.json", "{\"formatVersion\":1,\"stateVar").ok());
  Status torn = check({count_});
  EXPECT_EQ(torn.code(), Status::Code::kCorruption);
  EXPECT_NE(torn.message().find("/chk/state/0/_stateSchema/0.json"), std::string::npos) << torn.message();

  ASSERT_TRUE(fs_.write("/chk/state/0/_stateSchema/0.json", R"({"formatVersion":9,"stateVariables":[]})").ok());
  Status future = check({count_});
  EXPECT_NE(future.message().find("unknown formatVersion 9"), std::string::npos) << future.message();
}

}  // namespace
}  // namespace streamsim
