// Typed state variables of transformWithState (SEMANTICS.md §6): ValueState<T>, ListState<T>,
// MapState<K, V>. Each is a cheap handle created by StatefulProcessorHandle::get*State in init();
// it always acts on the grouping key the engine is currently processing, and hides values whose
// TTL has expired. Handles belong to one partition task; not thread-safe.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "streamsim/time.h"
#include "streamsim/tws/state_codec.h"

namespace streamsim {

namespace detail {

// Untyped state variables working on encoded bytes for the current grouping key. Implemented by
// the transformWithState operator (engine/src/tws/); the typed classes below wrap them.
// A stored value with its TTL expiry (nullopt: no TTL), as kept whether expired or not.
struct StoredValue {
  std::string bytes;
  std::optional<TimeMs> expiresAt;
};

class ValueStateBackend {
 public:
  virtual ~ValueStateBackend() = default;
  virtual const std::string& name() const = 0;
  // Remembers a broken rule so the task fails even if the processor catches the exception.
  virtual void recordViolation(const StatefulProcessorError& e) { (void)e; }
  // Throws when the handle's state forbids the typed operation `op` ("exists", "get", ...) of
  // this variable (Spark's driver-side state in init: PRE_INIT).
  virtual void checkOperation(std::string_view op) { (void)op; }
  virtual std::optional<std::string> get() = 0;  // nullopt: absent or expired
  virtual void update(std::string bytes) = 0;
  virtual void clear() = 0;
  // Spark's test hook getWithoutEnforcingTTL / getTTLValue: the stored value, expired or not.
  virtual std::optional<StoredValue> stored() { return std::nullopt; }
};

class ListStateBackend {
 public:
  virtual ~ListStateBackend() = default;
  virtual const std::string& name() const = 0;
  // Remembers a broken rule so the task fails even if the processor catches the exception.
  virtual void recordViolation(const StatefulProcessorError& e) { (void)e; }
  // Throws when the handle's state forbids the typed operation `op` ("exists", "get", ...) of
  // this variable (Spark's driver-side state in init: PRE_INIT).
  virtual void checkOperation(std::string_view op) { (void)op; }
  virtual std::vector<std::string> get() = 0;  // unexpired elements in list order
  virtual void put(std::vector<std::string> elements) = 0;
  virtual void append(std::vector<std::string> elements) = 0;
  virtual void clear() = 0;
  // Spark's getWithoutEnforcingTTL / getTTLValues: every stored element, expired or not.
  virtual std::vector<StoredValue> stored() { return {}; }
};

class MapStateBackend {
 public:
  virtual ~MapStateBackend() = default;
  virtual const std::string& name() const = 0;
  // Remembers a broken rule so the task fails even if the processor catches the exception.
  virtual void recordViolation(const StatefulProcessorError& e) { (void)e; }
  // Throws when the handle's state forbids the typed operation `op` ("exists", "get", ...) of
  // this variable (Spark's driver-side state in init: PRE_INIT).
  virtual void checkOperation(std::string_view op) { (void)op; }
  virtual std::optional<std::string> getValue(std::string_view userKey) = 0;
  virtual void updateValue(std::string userKey, std::string value) = 0;
  // Unexpired entries in ascending encoded user-key order.
  virtual std::vector<std::pair<std::string, std::string>> entries() = 0;
  virtual void removeKey(std::string_view userKey) = 0;
  virtual void clear() = 0;
  // Spark's getWithoutEnforcingTTL / getTTLValue: every stored entry, expired or not.
  virtual std::vector<std::pair<std::string, StoredValue>> stored() { return {}; }
};

[[noreturn]] void throwUninitialised(std::string_view kind);
// A streamsim-only rule: condition `rule`, no parameters, message "[rule] message".
[[noreturn]] void throwRule(std::string rule, const std::string& message);
// Spark's condition with its parameters (spark_errors.h), message "[CONDITION] ... (hint)".
[[noreturn]] void throwCondition(std::string condition, ErrorParams params, std::string_view hint = {});
// ILLEGAL_STATE_STORE_VALUE.NULL_VALUE / .EMPTY_LIST_VALUE of state variable `stateName`.
[[noreturn]] void throwNullValue(const std::string& stateName, std::string_view what);
[[noreturn]] void throwEmptyList(const std::string& stateName, std::string_view op);

}  // namespace detail


// Shared by the typed state classes: runs `f`, and records a broken rule with the backend (so the
// task fails even when processor code catches the exception) before rethrowing it.
template <class Backend, class F>
auto guardRule(const std::shared_ptr<Backend>& backend, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const StatefulProcessorError& e) {
    if (backend) backend->recordViolation(e);
    throw;
  }
}

// One value per grouping key. get() on an absent value returns T{} (as Scala's primitive state
// does); use exists() or getOption() to tell "absent" apart.
template <class T>
class ValueState {
 public:
  ValueState() = default;
  ValueState(std::shared_ptr<detail::ValueStateBackend> backend, StateCodec<T> codec)
      : backend_(std::move(backend)), codec_(std::move(codec)) {}

  bool exists() const {
    return guardRule(backend_, [&] { return b("exists").get().has_value(); });
  }
  std::optional<T> getOption() const {
    return guardRule(backend_, [&]() -> std::optional<T> {
      auto bytes = b("get").get();
      if (!bytes) return std::nullopt;
      return detail::decodeWith(codec_, *bytes, b().name());
    });
  }
  T get() const {
    auto v = getOption();
    return v ? std::move(*v) : T{};
  }
  // Spark's test hooks (ValueStateImplWithTTL): the stored value whether or not its TTL expired,
  // and with its expiry (nullopt: no TTL). No TTL is enforced; nothing is removed.
  std::optional<T> getWithoutEnforcingTTL() const {
    auto v = getTTLValue();
    if (!v) return std::nullopt;
    return std::move(v->first);
  }
  std::optional<std::pair<T, std::optional<TimeMs>>> getTTLValue() const {
    return guardRule(backend_, [&]() -> std::optional<std::pair<T, std::optional<TimeMs>>> {
      auto s = b("get").stored();
      if (!s) return std::nullopt;
      return std::pair<T, std::optional<TimeMs>>(detail::decodeWith(codec_, s->bytes, b().name()),
                                                 s->expiresAt);
    });
  }
  // Writes the value and (with TTL) restamps its expiry.
  void update(const T& value) {
    guardRule(backend_, [&] {
      detail::ValueStateBackend& backend = b("update");
      if (detail::codecIsNull(codec_, value))
        detail::throwNullValue(backend.name(), "ValueState.update() with a null value; use clear()");
      backend.update(detail::encodeWith(codec_, value));
    });
  }
  void clear() {
    guardRule(backend_, [&] { b("clear").clear(); });
  }
  // Throws when the handle's state forbids operation `op` (used by wrappers that forward calls).
  void checkOperation(std::string_view op) const {
    guardRule(backend_, [&] { b(op); });
  }

 private:
  detail::ValueStateBackend& b() const {
    if (!backend_) detail::throwUninitialised("ValueState");
    return *backend_;
  }
  detail::ValueStateBackend& b(std::string_view op) const {
    b().checkOperation(op);
    return *backend_;
  }
  std::shared_ptr<detail::ValueStateBackend> backend_;
  StateCodec<T> codec_;
};

// A list per grouping key; with TTL every element has its own expiry.
template <class T>
class ListState {
 public:
  ListState() = default;
  ListState(std::shared_ptr<detail::ListStateBackend> backend, StateCodec<T> codec)
      : backend_(std::move(backend)), codec_(std::move(codec)) {}

  bool exists() const {
    return guardRule(backend_, [&] { return !b("exists").get().empty(); });
  }
  // The unexpired elements, in list order.
  std::vector<T> get() const {
    return guardRule(backend_, [&] {
      std::vector<T> out;
      for (const std::string& bytes : b("get").get())
        out.push_back(detail::decodeWith(codec_, bytes, b().name()));
      return out;
    });
  }
  // Spark's test hooks (ListStateImplWithTTL): every stored element, expired or not, and with
  // its expiry. No TTL is enforced.
  std::vector<T> getWithoutEnforcingTTL() const {
    std::vector<T> out;
    for (auto& [v, expiry] : getTTLValues()) out.push_back(std::move(v));
    return out;
  }
  std::vector<std::pair<T, std::optional<TimeMs>>> getTTLValues() const {
    return guardRule(backend_, [&] {
      std::vector<std::pair<T, std::optional<TimeMs>>> out;
      for (detail::StoredValue& s : b("get").stored())
        out.emplace_back(detail::decodeWith(codec_, s.bytes, b().name()), s.expiresAt);
      return out;
    });
  }
  // Replaces the list (restamps every element). Rejects an empty list and null elements.
  void put(const std::vector<T>& values) {
    guardRule(backend_, [&] { b("put").put(encodeAll(values, "put")); });
  }
  void appendValue(const T& value) {
    guardRule(backend_, [&] { b("appendValue").append(encodeAll(std::vector<T>{value}, "appendValue")); });
  }
  // Rejects an empty list and null elements; stamps only the new elements.
  void appendList(const std::vector<T>& values) {
    guardRule(backend_, [&] { b("appendList").append(encodeAll(values, "appendList")); });
  }
  void clear() {
    guardRule(backend_, [&] { b("clear").clear(); });
  }
  // Throws when the handle's state forbids operation `op` (used by wrappers that forward calls).
  void checkOperation(std::string_view op) const {
    guardRule(backend_, [&] { b(op); });
  }

 private:
  std::vector<std::string> encodeAll(const std::vector<T>& values, std::string_view op) const {
    if (values.empty())
      detail::throwEmptyList(b().name(), op);
    std::vector<std::string> out;
    out.reserve(values.size());
    for (const T& v : values) {
      if (detail::codecIsNull(codec_, v))
        detail::throwNullValue(b().name(), "ListState." + std::string(op) + "() with a null element");
      out.push_back(detail::encodeWith(codec_, v));
    }
    return out;
  }
  detail::ListStateBackend& b() const {
    if (!backend_) detail::throwUninitialised("ListState");
    return *backend_;
  }
  detail::ListStateBackend& b(std::string_view op) const {
    b().checkOperation(op);
    return *backend_;
  }
  std::shared_ptr<detail::ListStateBackend> backend_;
  StateCodec<T> codec_;
};

// A map per grouping key; with TTL every entry has its own expiry. Iteration is in ascending
// order of the encoded user key (numeric keys ascend numerically, strings bytewise).
template <class K, class V>
class MapState {
 public:
  MapState() = default;
  MapState(std::shared_ptr<detail::MapStateBackend> backend, StateCodec<K> keyCodec,
           StateCodec<V> valueCodec)
      : backend_(std::move(backend)),
        key_codec_(std::move(keyCodec)),
        value_codec_(std::move(valueCodec)) {}

  bool exists() const {
    return guardRule(backend_, [&] { return !b("exists").entries().empty(); });
  }
  std::optional<V> getValue(const K& key) const {
    return guardRule(backend_, [&]() -> std::optional<V> {
      b("getValue");
      auto bytes = b().getValue(encodeKey(key, "getValue"));
      if (!bytes) return std::nullopt;
      return detail::decodeWith(value_codec_, *bytes, b().name());
    });
  }
  bool containsKey(const K& key) const {
    return guardRule(backend_,
                     [&] { return b("containsKey").getValue(encodeKey(key, "containsKey")).has_value(); });
  }
  // Spark's test hooks (MapStateImplWithTTL): one entry whether or not its TTL expired, with its
  // expiry; and every stored entry with its expiry. No TTL is enforced.
  std::optional<V> getWithoutEnforcingTTL(const K& key) const {
    auto v = getTTLValue(key);
    if (!v) return std::nullopt;
    return std::move(v->first);
  }
  std::optional<std::pair<V, std::optional<TimeMs>>> getTTLValue(const K& key) const {
    return guardRule(backend_, [&]() -> std::optional<std::pair<V, std::optional<TimeMs>>> {
      const std::string k = encodeKey(key, "getValue");
      for (auto& [userKey, s] : b("getValue").stored())
        if (userKey == k)
          return std::pair<V, std::optional<TimeMs>>(detail::decodeWith(value_codec_, s.bytes, b().name()),
                                                     s.expiresAt);
      return std::nullopt;
    });
  }
  std::vector<std::tuple<K, V, std::optional<TimeMs>>> getTTLValues() const {
    return guardRule(backend_, [&] {
      std::vector<std::tuple<K, V, std::optional<TimeMs>>> out;
      for (auto& [userKey, s] : b("iterator").stored())
        out.emplace_back(detail::decodeWith(key_codec_, userKey, b().name()),
                         detail::decodeWith(value_codec_, s.bytes, b().name()), s.expiresAt);
      return out;
    });
  }
  // Writes one entry and (with TTL) restamps that entry only.
  void updateValue(const K& key, const V& value) {
    guardRule(backend_, [&] {
      b("updateValue");
      if (detail::codecIsNull(value_codec_, value))
        detail::throwNullValue(b().name(), "MapState.updateValue() with a null value");
      b().updateValue(encodeKey(key, "updateValue"), detail::encodeWith(value_codec_, value));
    });
  }
  std::vector<std::pair<K, V>> iterator() const {
    return guardRule(backend_, [&] {
      std::vector<std::pair<K, V>> out;
      for (auto& [k, v] : b("iterator").entries())
        out.emplace_back(detail::decodeWith(key_codec_, k, b().name()),
                         detail::decodeWith(value_codec_, v, b().name()));
      return out;
    });
  }
  std::vector<K> keys() const {
    return guardRule(backend_, [&] {
      std::vector<K> out;
      for (auto& [k, v] : b("keys").entries())
        out.push_back(detail::decodeWith(key_codec_, k, b().name()));
      return out;
    });
  }
  std::vector<V> values() const {
    return guardRule(backend_, [&] {
      std::vector<V> out;
      for (auto& [k, v] : b("values").entries())
        out.push_back(detail::decodeWith(value_codec_, v, b().name()));
      return out;
    });
  }
  void removeKey(const K& key) {
    guardRule(backend_, [&] { b("removeKey").removeKey(encodeKey(key, "removeKey")); });
  }
  void clear() {
    guardRule(backend_, [&] { b("clear").clear(); });
  }
  // Throws when the handle's state forbids operation `op` (used by wrappers that forward calls).
  void checkOperation(std::string_view op) const {
    guardRule(backend_, [&] { b(op); });
  }

 private:
  std::string encodeKey(const K& key, std::string_view op) const {
    if (detail::codecIsNull(key_codec_, key))
      detail::throwNullValue(b().name(), "MapState." + std::string(op) + "() with a null key");
    return detail::encodeWith(key_codec_, key);
  }
  detail::MapStateBackend& b() const {
    if (!backend_) detail::throwUninitialised("MapState");
    return *backend_;
  }
  detail::MapStateBackend& b(std::string_view op) const {
    b().checkOperation(op);
    return *backend_;
  }
  std::shared_ptr<detail::MapStateBackend> backend_;
  StateCodec<K> key_codec_;
  StateCodec<V> value_codec_;
};

}  // namespace streamsim
