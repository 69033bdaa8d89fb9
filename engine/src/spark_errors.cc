// Spark's error conditions (spark_errors.h). The templates are Spark's error-conditions.json
// messages (a sub-condition's message follows its parent's, as Spark renders them).
#include "streamsim/spark_errors.h"

#include <utility>

#include <fmt/format.h>

namespace streamsim {
namespace {

constexpr std::pair<std::string_view, std::string_view> kTemplates[] = {
    // RatePerMicroBatchStream.planInputPartitions' checks (SQLSTATE 22000).
    {"MALFORMED_STATE_IN_RATE_PER_MICRO_BATCH_SOURCE.INVALID_OFFSET",
     "Malformed state in RatePerMicroBatch source. The offset value is invalid: startOffset should "
     "less than or equal to the endOffset, but startOffset(<startOffset>) > endOffset(<endOffset>)."},
    {"MALFORMED_STATE_IN_RATE_PER_MICRO_BATCH_SOURCE.INVALID_TIMESTAMP",
     "Malformed state in RatePerMicroBatch source. The timestamp value is invalid: startTimestamp "
     "should less than or equal to the endTimestamp, but startTimestamp(<startTimestamp>) > "
     "endTimestamp(<endTimestamp>). This could happen when the streaming query is restarted with a "
     "newer startingTimestamp and reprocess the first batch (i.e. batch 0). Please consider using a "
     "new checkpoint location."},
    {"EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE",
     "The event time <eventName> has the invalid type <eventType>, but expected \"TIMESTAMP\"."},
    {"STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
     "Failed to perform stateful processor operation=<operationType> with invalid handle "
     "state=<handleState>."},
    {"STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE",
     "Failed to perform stateful processor operation=<operationType> with invalid "
     "timeMode=<timeMode>"},
    {"STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED",
     "State variable with name <stateVarName> has already been defined in the StatefulProcessor."},
    {"STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL",
     "Cannot use TTL for state=<stateName> in timeMode=<timeMode>, use TimeMode.ProcessingTime() "
     "instead."},
    {"STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE",
     "TTL duration must be greater than zero for State store operation=<operationType> on "
     "state=<stateName>."},
    {"STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY",
     "Cannot re-initialize state on the same grouping key during initial state handling for "
     "stateful processor. Invalid grouping key=<groupingKey>."},
    {"STATE_STORE_CANNOT_CREATE_COLUMN_FAMILY_WITH_RESERVED_CHARS",
     "Failed to create column family with unsupported starting character and "
     "name=<colFamilyName>."},
    {"STATE_STORE_CANNOT_USE_COLUMN_FAMILY_WITH_INVALID_NAME",
     "Failed to perform column family operation=<operationName> with invalid "
     "name=<colFamilyName>. Column family name cannot be empty or include leading/trailing spaces "
     "or use the reserved keyword=default"},
    {"STATE_STORE_HANDLE_NOT_INITIALIZED",
     "The handle has not been initialized for this StatefulProcessor. Please only use the "
     "StatefulProcessor within the transformWithState operator."},
    {"STATE_STORE_INVALID_CONFIG_AFTER_RESTART",
     "Cannot change <configName> from <oldConfig> to <newConfig> between restarts. Please set "
     "<configName> to <oldConfig>, or restart with a new checkpoint directory."},
    {"STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE",
     "Cannot change <stateVarName> to <newType> between query restarts. Please set <stateVarName> "
     "to <oldType>, or restart with a new checkpoint directory."},
    {"STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE",
     "Provided key schema does not match existing state key schema. Please check number and type "
     "of fields. Existing key_schema=<storedKeySchema> and new key_schema=<newKeySchema>."},
    {"STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE",
     "Provided value schema does not match existing state value schema. Please check number and "
     "type of fields. Existing value_schema=<storedValueSchema> and new "
     "value_schema=<newValueSchema>."},
    {"STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION",
     "Schema evolution is not possible new value_schema=<newValueSchema> and old "
     "value_schema=<oldValueSchema> Please check "
     "https://avro.apache.org/docs/1.11.1/specification/_print/#schema-resolution for valid schema "
     "evolution."},
    {"ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE",
     "Illegal value provided to the State Store Cannot write empty list values to State Store for "
     "StateName <stateName>."},
    {"ILLEGAL_STATE_STORE_VALUE.NULL_VALUE",
     "Illegal value provided to the State Store Cannot write null values to State Store for "
     "StateName <stateName>."},
    {"TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
     "An error occurred in the user-defined function <function> of the StatefulProcessor. "
     "Reason: <reason>."},
    {"EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED",
     "Previous node emitted a row with eventTime=<emittedRowEventTime> which is older than "
     "current_watermark_value=<currentWatermark>. This can lead to correctness issues in the "
     "stateful operators downstream in the execution pipeline. Please correct the operator logic "
     "to emit rows after current global watermark value."},
    {"INTERNAL_ERROR_TWS", "<message>"},
    // Expressions (engine/src/expr).
    {"UNRESOLVED_COLUMN.WITH_SUGGESTION",
     "A column, variable, or function parameter with name <objectName> cannot be resolved. Did you "
     "mean one of the following? [<proposal>]."},
    {"UNRESOLVED_COLUMN.WITHOUT_SUGGESTION",
     "A column, variable, or function parameter with name <objectName> cannot be resolved."},
    {"AMBIGUOUS_REFERENCE", "Reference <name> is ambiguous, could be: <referenceNames>."},
    {"STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
     "Invalid streaming output mode: <outputMode>. This output mode is not supported for "
     "<operation> on streaming DataFrames/DataSets."},
    {"NUM_COLUMNS_MISMATCH",
     "<operator> can only be performed on inputs with the same number of columns, but the first "
     "input has <firstNumColumns> columns and the <invalidOrdinalNum> input has "
     "<invalidNumColumns> columns."},
    {"INCOMPATIBLE_COLUMN_TYPE",
     "<operator> can only be performed on tables with compatible column types. The "
     "<columnOrdinalNumber> column of the <tableOrdinalNumber> table is <dataType1> type which is "
     "not compatible with <dataType2> at the same column of the first table.<hint>."},
    {"UNRESOLVED_ROUTINE", "Cannot resolve routine <routineName> on search path <searchPath>."},
    {"PARSE_SYNTAX_ERROR", "Syntax error at or near <error><hint>."},
    {"PARSE_EMPTY_STATEMENT", "Syntax error, unexpected empty statement."},
    {"FIELD_NOT_FOUND", "No such struct field <fieldName> in <fields>."},
    {"CAST_INVALID_INPUT",
     "The value <expression> of the type <sourceType> cannot be cast to <targetType> because it is "
     "malformed. Correct the value as per the syntax, or change its target type. Use `try_cast` to "
     "tolerate malformed input and return NULL instead."},
    {"CAST_OVERFLOW",
     "The value <value> of the type <sourceType> cannot be cast to <targetType> due to an overflow. "
     "Use `try_cast` to tolerate overflow and return NULL instead."},
    {"DIVIDE_BY_ZERO",
     "Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead. If "
     "necessary set <config> to \"false\" to bypass this error."},
    {"ARITHMETIC_OVERFLOW",
     "<message>.<alternative> If necessary set <config> to \"false\" to bypass this error."},
    {"INVALID_ARRAY_INDEX",
     "The index <indexValue> is out of bounds. The array has <arraySize> elements. Use the SQL "
     "function `get()` to tolerate accessing element at invalid index and return NULL instead."},
    {"INVALID_ARRAY_INDEX_IN_ELEMENT_AT",
     "The index <indexValue> is out of bounds. The array has <arraySize> elements. Use "
     "`try_element_at` to tolerate accessing element at invalid index and return NULL instead."},
    {"INVALID_INDEX_OF_ZERO",
     "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1)."},
    {"CANNOT_PARSE_TIMESTAMP", "<message>. Use <func> to tolerate invalid input string and return NULL instead."},
    {"MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION",
     "Malformed records are detected in record parsing: <badRecord>. Parse Mode: <failFastMode>. To "
     "process malformed records as null result, try setting the option 'mode' as 'PERMISSIVE'. "},
    {"PARSE_MODE_UNSUPPORTED",
     "The function <funcName> doesn't support the <mode> mode. Acceptable modes are PERMISSIVE and "
     "FAILFAST."},
    {"DUPLICATED_MAP_KEY",
     "Duplicate map key <key> was found, please check the input data. If you want to remove the "
     "duplicated keys, you can set <mapKeyDedupPolicy> to \"LAST_WIN\" so that the key inserted at "
     "last takes precedence."},
    {"INVALID_TYPED_LITERAL", "The value of the typed literal <valueType> is invalid: <value>."},
    {"INVALID_CONF_VALUE.TIME_ZONE",
     "The value '<confValue>' in the config \"<confName>\" is invalid. Cannot resolve the given "
     "timezone."},
    {"WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
     "The <functionName> requires <expectedNum> parameters but the actual number is <actualNum>. "
     "Please, refer to '<docroot>/sql-ref-functions.html' for a fix."},
    {"UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS",
     "The generator is not supported: nested in expressions <expression>."},
    {"UNSUPPORTED_GENERATOR.MULTI_GENERATOR",
     "The generator is not supported: only one generator allowed per SELECT clause but found <num>: "
     "<generators>."},
    {"DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES",
     "Cannot resolve <sqlExpr> due to data type mismatch: the left and right operands of the binary "
     "operator have incompatible types (<left> and <right>)."},
    {"DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE",
     "Cannot resolve <sqlExpr> due to data type mismatch: the binary operator requires the input type "
     "<inputType>, not <actualDataType>."},
    {"DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION",
     "Cannot resolve <sqlExpr> due to data type mismatch: cannot cast <srcType> to <targetType>."},
    {"DATATYPE_MISMATCH.DATA_DIFF_TYPES",
     "Cannot resolve <sqlExpr> due to data type mismatch: Input to <functionName> should all be the "
     "same type, but it's <dataType>."},
    {"DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
     "Cannot resolve <sqlExpr> due to data type mismatch: Filter expression <filter> of type <type> is "
     "not a boolean."},
    {"DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
     "Cannot resolve <sqlExpr> due to data type mismatch: the input <inputName> should be a foldable "
     "<inputType> expression; however, got <inputExpr>."},
    {"DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
     "Cannot resolve <sqlExpr> due to data type mismatch: The <paramIndex> parameter requires the "
     "<requiredType> type, however <inputSql> has the type <inputType>."},
    {"DATATYPE_MISMATCH.INVALID_JSON_SCHEMA",
     "Cannot resolve <sqlExpr> due to data type mismatch: Input schema <schema> must be a struct, an "
     "array, a map or a variant."},
    // Real-time mode and query evolution (SPARK-57228, SPARK-54909, SPARK-56719). The conditions
    // SQL_CONFIGURATION_NOT_SUPPORTED and CHECKPOINT_FORMAT_V1_NOT_SUPPORTED (SPARK-58659) have no
    // template in the error-conditions.json this project could read: they print their parameters.
    {"INVALID_STREAMING_REAL_TIME_MODE_TRIGGER_INTERVAL",
     "The real-time trigger interval is set to <interval> ms. This is less than the "
     "<minBatchDuration> ms minimum specified by spark.sql.streaming.realTimeMode.minBatchDuration."},
    {"STREAMING_REAL_TIME_MODE.IDENTICAL_SOURCES_IN_UNION_NOT_SUPPORTED",
     "Streaming real-time mode has the following limitation: Real-time mode does not support union "
     "on two or more identical streaming data sources in a single query. This includes scenarios "
     "such as referencing the same source DataFrame more than once, or using two data sources with "
     "identical configurations for some sources. For Kafka, avoid reusing the same DataFrame and "
     "create different ones. Sources provided in the query: <sources>"},
    {"STREAMING_REAL_TIME_MODE.INPUT_STREAM_NOT_SUPPORTED",
     "Streaming real-time mode has the following limitation: The input stream <className> is not "
     "supported in Real-time Mode."},
    {"STREAMING_REAL_TIME_MODE.OPERATOR_OR_SINK_NOT_IN_ALLOWLIST",
     "Streaming real-time mode has the following limitation: The <errorType>(s): <message> not in "
     "the <errorType> allowlist for Real-Time Mode. To bypass this check, set "
     "spark.sql.streaming.realTimeMode.allowlistCheck to false. By changing this, you agree to run "
     "the query at your own risk."},
    {"STREAMING_REAL_TIME_MODE.OUTPUT_MODE_NOT_SUPPORTED",
     "Streaming real-time mode has the following limitation: The output mode <outputMode> is not "
     "supported. To work around this limitation, set the output mode to Update. In the future, "
     "<outputMode> may be supported."},
    {"STREAMING_REAL_TIME_MODE.SINK_NOT_SUPPORTED",
     "Streaming real-time mode has the following limitation: The <className> sink is currently not "
     "supported. See the Real-Time Mode User Guide for a list of supported sinks."},
    {"STREAMING_QUERY_EVOLUTION_ERROR.DUPLICATE_SOURCE_NAMES",
     "Streaming query evolution error: Duplicate streaming source names detected: <names>. Each "
     "streaming source must have a unique name."},
    {"STREAMING_QUERY_EVOLUTION_ERROR.INVALID_SINK_NAME",
     "Streaming query evolution error: Invalid streaming sink name: '<sinkName>'. Sink names must "
     "only contain ASCII letters ('a'-'z', 'A'-'Z'), digits ('0'-'9'), and underscores ('_')."},
    {"STREAMING_QUERY_EVOLUTION_ERROR.INVALID_SOURCE_NAME",
     "Streaming query evolution error: Invalid streaming source name '<sourceName>'. Source names "
     "must only contain ASCII letters (a-z, A-Z), digits (0-9), and underscores (_)."},
    {"STREAMING_QUERY_EVOLUTION_ERROR.SOURCE_NAMING_NOT_SUPPORTED",
     "Streaming query evolution error: Streaming source naming is not supported. Source name "
     "'<name>' was provided but the feature is disabled. Please enable the feature by setting "
     "spark.sql.streaming.queryEvolution.enableSourceEvolution to true."},
    {"STREAMING_QUERY_EVOLUTION_ERROR.UNNAMED_STREAMING_SINKS_WITH_ENFORCEMENT",
     "Streaming query evolution error: Streaming sink must be named when "
     "spark.sql.streaming.queryEvolution.enableSinkEvolution is enabled. Use the name() method on "
     "DataStreamWriter to assign a name to the streaming sink."},
    {"STREAMING_QUERY_EVOLUTION_ERROR.UNNAMED_STREAMING_SOURCES_WITH_ENFORCEMENT",
     "Streaming query evolution error: All streaming sources must be named when "
     "spark.sql.streaming.queryEvolution.enableSourceEvolution is enabled. Unnamed sources found: "
     "<sourceInfo>. Use the name() method to assign names to all streaming sources."},
    {"STREAMING_STATEFUL_OPERATOR_NOT_MATCH_IN_STATE_METADATA",
     "Streaming stateful operator name does not match with the operator in state metadata. This "
     "is likely to happen when a user adds/removes/changes stateful operators of existing "
     "streaming query. Stateful operators in the metadata: [<OpsInMetadataSeq>]; Stateful "
     "operators in current batch: [<OpsInCurBatchSeq>]."},
};

std::string fill(std::string_view tmpl, const ErrorParams& params) {
  std::string out;
  size_t i = 0;
  while (i < tmpl.size()) {
    size_t open = tmpl.find('<', i);
    if (open == std::string_view::npos) break;
    size_t close = tmpl.find('>', open);
    if (close == std::string_view::npos) break;
    out.append(tmpl.substr(i, open - i));
    std::string_view name = tmpl.substr(open + 1, close - open - 1);
    const std::string* value = nullptr;
    for (const auto& [k, v] : params)
      if (k == name) value = &v;
    if (value != nullptr)
      out += *value;
    else
      out.append(tmpl.substr(open, close - open + 1));
    i = close + 1;
  }
  out.append(tmpl.substr(i));
  return out;
}

}  // namespace

std::string sparkErrorMessage(std::string_view condition, const ErrorParams& params,
                              std::string_view hint) {
  std::string body;
  for (const auto& [name, tmpl] : kTemplates)
    if (name == condition) body = fill(tmpl, params);
  if (body.empty()) {
    for (const auto& [k, v] : params) body += fmt::format("{}{}={}", body.empty() ? "" : ", ", k, v);
  }
  std::string out = fmt::format("[{}] {}", condition, body);
  if (!hint.empty()) out += fmt::format(" ({})", hint);
  return out;
}

Status sparkError(Status::Code code, std::string condition, ErrorParams params,
                  std::string_view hint) {
  std::string message = sparkErrorMessage(condition, params, hint);
  Status base;
  switch (code) {
    case Status::Code::kInvalidArgument: base = Status::InvalidArgument(std::move(message)); break;
    case Status::Code::kTaskFailed: base = Status::TaskFailed(std::move(message)); break;
    case Status::Code::kCorruption: base = Status::Corruption(std::move(message)); break;
    default: base = Status::FailedPrecondition(std::move(message)); break;
  }
  return base.withCondition(std::move(condition), std::move(params));
}

std::string sparkSqlId(std::string_view name) {
  std::string out = "`";
  for (char c : name) out += c == '`' ? std::string("``") : std::string(1, c);
  return out + "`";
}

std::string sparkSqlType(Type t) {
  switch (t) {
    case Type::kNull: return "\"VOID\"";
    case Type::kBoolean: return "\"BOOLEAN\"";
    case Type::kInt: return "\"INT\"";
    case Type::kLong: return "\"BIGINT\"";
    case Type::kDouble: return "\"DOUBLE\"";
    case Type::kString: return "\"STRING\"";
    case Type::kTimestamp: return "\"TIMESTAMP\"";
    case Type::kDate: return "\"DATE\"";
    case Type::kBinary: return "\"BINARY\"";
    case Type::kStruct: return "\"STRUCT\"";
    case Type::kArray: return "\"ARRAY\"";
    case Type::kMap: return "\"MAP\"";
  }
  return "\"?\"";
}

namespace {
// DataType.toString: LongType, ArrayType(LongType,true), MapType(StringType,IntegerType,true),
// StructType(StructField(a,IntegerType,true),...).
std::string sparkTypeString(const Field& f) {
  switch (f.type) {
    case Type::kNull: return "NullType";
    case Type::kBoolean: return "BooleanType";
    case Type::kInt: return "IntegerType";
    case Type::kLong: return "LongType";
    case Type::kDouble: return "DoubleType";
    case Type::kString: return "StringType";
    case Type::kTimestamp: return "TimestampType";
    case Type::kDate: return "DateType";
    case Type::kBinary: return "BinaryType";
    case Type::kStruct: return f.nested ? sparkStructTypeString(*f.nested) : "StructType()";
    case Type::kArray:
      if (!f.nested) return "ArrayType(StringType,true)";
      return fmt::format("ArrayType({},{})", sparkTypeString(f.nested->field(0)), f.nested->field(0).nullable);
    case Type::kMap:
      if (!f.nested) return "MapType(StringType,StringType,true)";
      return fmt::format("MapType({},{},{})", sparkTypeString(f.nested->field(0)),
                         sparkTypeString(f.nested->field(1)), f.nested->field(1).nullable);
  }
  return "?";
}
}  // namespace

std::string sparkStructTypeString(const Schema& schema) {
  std::string out = "StructType(";
  for (size_t i = 0; i < schema.fields().size(); ++i) {
    const Field& f = schema.fields()[i];
    out += fmt::format("{}StructField({},{},{})", i ? "," : "", f.name, sparkTypeString(f), f.nullable);
  }
  return out + ")";
}

std::string_view handleStateName(HandleState s) {
  switch (s) {
    case HandleState::kCreated: return "CREATED";
    case HandleState::kPreInit: return "PRE_INIT";
    case HandleState::kInitialized: return "INITIALIZED";
    case HandleState::kDataProcessed: return "DATA_PROCESSED";
    case HandleState::kTimerProcessed: return "TIMER_PROCESSED";
    case HandleState::kClosed: return "CLOSED";
  }
  return "CLOSED";
}

}  // namespace streamsim
