// The inspector's look at the stateful operators (checkpoint_inspector.h): their metadata and
// state schema records.
#include "checkpoint/checkpoint_inspector.h"
#include "streamsim/state/state_schema.h"

namespace streamsim::detail {

void CheckpointInspector::readOperators() {
  auto ops = readAllOperatorMetadata(env_, report_.root);
  if (!ops.ok()) {
    add(DiagnosisKind::kUnreadable, ops.status().message(), {}, {joinPath(report_.root, "state")});
    return;
  }
  report_.operators = std::move(*ops);
  // Each operator's state schema record (state/<op>/_stateSchema/<n>.json), read as a restart
  // reads it: a damaged one fails the query's start.
  for (const OperatorMetadata& op : report_.operators) {
    auto schema = readStateSchema(env_, report_.root, static_cast<int>(op.operatorId));
    if (!schema.ok())
      add(DiagnosisKind::kUnreadable, schema.status().message(), {},
          {joinPath(joinPath(joinPath(report_.root, "state"), std::to_string(op.operatorId)), "_stateSchema")});
  }
}

}  // namespace streamsim::detail
