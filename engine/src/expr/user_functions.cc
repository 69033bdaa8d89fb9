// User-defined functions (expr/user_functions.h): the table and the analysed call node. A call
// is Spark's PythonUDF: not foldable, not null-intolerant (the function sees nulls), named
// "name(args)" after the function's own name; its arguments are evaluated for the batch's rows
// and handed over together (Spark's BatchEvalPythonExec sends the rows of a task in batches).
#include "streamsim/expr/user_functions.h"

#include "expr/bound.h"

namespace streamsim::expr {
namespace {

std::string lowerName(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class UserFunctionNode final : public Bound {
 public:
  explicit UserFunctionNode(const UserFunction& f) : f_(f) {}
  Status eval(const Batch& b, std::vector<Value>& out) const override {
    std::vector<std::vector<Value>> cols(children.size());
    for (size_t i = 0; i < children.size(); ++i) STREAMSIM_RETURN_IF_ERROR(children[i]->eval(b, cols[i]));
    out.assign(b.size(), Value());
    if (b.size() == 0) return Status::OK();
    STREAMSIM_RETURN_IF_ERROR(f_.eval(cols, b.size(), out));
    if (out.size() != b.size())
      return Status::FailedPrecondition("user-defined function " + f_.displayName + " returned another number of values than rows");
    return Status::OK();
  }

 private:
  UserFunction f_;
};

}  // namespace

void UserFunctions::add(std::string_view name, UserFunction f) { functions_[lowerName(name)] = std::move(f); }

const UserFunction* UserFunctions::find(std::string_view name) const {
  auto it = functions_.find(lowerName(name));
  return it == functions_.end() ? nullptr : &it->second;
}

BoundPtr makeUserFunctionCall(const UserFunction& f, std::vector<BoundPtr> args) {
  auto n = std::make_shared<UserFunctionNode>(f);
  n->type = f.result;
  n->type.name.clear();
  n->type.nullable = true;
  n->foldable = false;
  n->sql = callSql(f.displayName, args);
  std::string name = f.displayName + "(";
  for (size_t i = 0; i < args.size(); ++i) name += (i ? ", " : "") + args[i]->autoName;
  n->autoName = name + ")";
  n->children = std::move(args);
  return n;
}

}  // namespace streamsim::expr
