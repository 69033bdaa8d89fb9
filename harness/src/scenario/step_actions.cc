// The step actions' builder and shared state (step_actions.h).
#include "scenario/step_actions.h"

namespace streamsim::harness::detail {

Status ScenarioRunState::fail(std::string msg) {
  failure = msg;
  return Status::FailedPrecondition(std::move(msg));
}

StateStoreKind storeKindOf(const QuerySpec& q) {
  const bool rocksdb = q.stateStore == "rocksdb" ||
                       (!q.stateStoreSet && q.trigger.kind == TriggerSpec::Kind::kRealTime);
  return rocksdb ? StateStoreKind::kRocksDB : StateStoreKind::kMemory;
}

const Schema* StepActions::sourceSchema() const {
  return !sc_.query.sources.empty() && sc_.query.sources[0].schema ? sc_.query.sources[0].schema.get()
                                                                   : nullptr;
}

void StepActions::push(Action a, const SourceLocation& at) {
  actions_.push_back(std::move(a));
  where_.push_back(at);
  step_names_.push_back(step_);
}

void StepActions::setupFail(const SourceLocation& where, std::string msg) {
  if (setup_.ok()) setup_ = Status::InvalidArgument(where.toString() + ": " + msg);
}

}  // namespace streamsim::harness::detail
