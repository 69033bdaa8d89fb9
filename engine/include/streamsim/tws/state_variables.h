// Typed state variables of transformWithState (SEMANTICS.md §6): ValueState<T>, ListState<T>,
// MapState<K, V>. Each is a cheap handle created by StatefulProcessorHandle::get*State in init();
// it always acts on the grouping key the engine is currently processing, and hides values whose
// TTL has expired. Handles belong to one partition task; not thread-safe.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "streamsim/tws/state_codec.h"

namespace streamsim {

namespace detail {

// Untyped state variables working on encoded bytes for the current grouping key. Implemented by
// the transformWithState operator (engine/src/tws/); the typed classes below wrap them.
class ValueStateBackend {
 public:
  virtual ~ValueStateBackend() = default;
  virtual const std::string& name() const = 0;
  // Remembers a broken rule so the task fails even if the processor catches the exception.
  virtual void recordViolation(const StatefulProcessorError& e) { (void)e; }
  virtual std::optional<std::string> get() = 0;  // nullopt: absent or expired
  virtual void update(std::string bytes) = 0;
  virtual void clear() = 0;
};

class ListStateBackend {
 public:
  virtual ~ListStateBackend() = default;
  virtual const std::string& name() const = 0;
  // Remembers a broken rule so the task fails even if the processor catches the exception.
  virtual void recordViolation(const StatefulProcessorError& e) { (void)e; }
  virtual std::vector<std::string> get() = 0;  // unexpired elements in list order
  virtual void put(std::vector<std::string> elements) = 0;
  virtual void append(std::vector<std::string> elements) = 0;
  virtual void clear() = 0;
};

class MapStateBackend {
 public:
  virtual ~MapStateBackend() = default;
  virtual const std::string& name() const = 0;
  // Remembers a broken rule so the task fails even if the processor catches the exception.
  virtual void recordViolation(const StatefulProcessorError& e) { (void)e; }
  virtual std::optional<std::string> getValue(std::string_view userKey) = 0;
  virtual void updateValue(std::string userKey, std::string value) = 0;
  // Unexpired entries in ascending encoded user-key order.
  virtual std::vector<std::pair<std::string, std::string>> entries() = 0;
  virtual void removeKey(std::string_view userKey) = 0;
  virtual void clear() = 0;
};

[[noreturn]] void throwUninitialised(std::string_view kind);
[[noreturn]] void throwRule(std::string rule, const std::string& message);

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
    return guardRule(backend_, [&] { return b().get().has_value(); });
  }
  std::optional<T> getOption() const {
    return guardRule(backend_, [&]() -> std::optional<T> {
      auto bytes = b().get();
      if (!bytes) return std::nullopt;
      return detail::decodeWith(codec_, *bytes, b().name());
    });
  }
  T get() const {
    auto v = getOption();
    return v ? std::move(*v) : T{};
  }
  // Writes the value and (with TTL) restamps its expiry.
  void update(const T& value) {
    guardRule(backend_, [&] {
      if (detail::codecIsNull(codec_, value))
        detail::throwRule("NULL_VALUE", "ValueState '" + b().name() +
                                            "': update() with a null value is not allowed; use "
                                            "clear() to remove the value");
      b().update(detail::encodeWith(codec_, value));
    });
  }
  void clear() {
    guardRule(backend_, [&] { b().clear(); });
  }

 private:
  detail::ValueStateBackend& b() const {
    if (!backend_) detail::throwUninitialised("ValueState");
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
    return guardRule(backend_, [&] { return !b().get().empty(); });
  }
  // The unexpired elements, in list order.
  std::vector<T> get() const {
    return guardRule(backend_, [&] {
      std::vector<T> out;
      for (const std::string& bytes : b().get())
        out.push_back(detail::decodeWith(codec_, bytes, b().name()));
      return out;
    });
  }
  // Replaces the list (restamps every element). Rejects an empty list and null elements.
  void put(const std::vector<T>& values) {
    guardRule(backend_, [&] { b().put(encodeAll(values, "put")); });
  }
  void appendValue(const T& value) {
    guardRule(backend_, [&] { b().append(encodeAll(std::vector<T>{value}, "appendValue")); });
  }
  // Rejects an empty list and null elements; stamps only the new elements.
  void appendList(const std::vector<T>& values) {
    guardRule(backend_, [&] { b().append(encodeAll(values, "appendList")); });
  }
  void clear() {
    guardRule(backend_, [&] { b().clear(); });
  }

 private:
  std::vector<std::string> encodeAll(const std::vector<T>& values, std::string_view op) const {
    if (values.empty())
      detail::throwRule("EMPTY_LIST", "ListState '" + b().name() + "': " + std::string(op) +
                                          "() with an empty list is not allowed");
    std::vector<std::string> out;
    out.reserve(values.size());
    for (const T& v : values) {
      if (detail::codecIsNull(codec_, v))
        detail::throwRule("NULL_LIST_ELEMENT", "ListState '" + b().name() + "': " +
                                                   std::string(op) +
                                                   "() with a null element is not allowed");
      out.push_back(detail::encodeWith(codec_, v));
    }
    return out;
  }
  detail::ListStateBackend& b() const {
    if (!backend_) detail::throwUninitialised("ListState");
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
    return guardRule(backend_, [&] { return !b().entries().empty(); });
  }
  std::optional<V> getValue(const K& key) const {
    return guardRule(backend_, [&]() -> std::optional<V> {
      auto bytes = b().getValue(encodeKey(key, "getValue"));
      if (!bytes) return std::nullopt;
      return detail::decodeWith(value_codec_, *bytes, b().name());
    });
  }
  bool containsKey(const K& key) const {
    return guardRule(backend_,
                     [&] { return b().getValue(encodeKey(key, "containsKey")).has_value(); });
  }
  // Writes one entry and (with TTL) restamps that entry only.
  void updateValue(const K& key, const V& value) {
    guardRule(backend_, [&] {
      if (detail::codecIsNull(value_codec_, value))
        detail::throwRule("NULL_MAP_VALUE", "MapState '" + b().name() +
                                                "': updateValue() with a null value is not allowed");
      b().updateValue(encodeKey(key, "updateValue"), detail::encodeWith(value_codec_, value));
    });
  }
  std::vector<std::pair<K, V>> iterator() const {
    return guardRule(backend_, [&] {
      std::vector<std::pair<K, V>> out;
      for (auto& [k, v] : b().entries())
        out.emplace_back(detail::decodeWith(key_codec_, k, b().name()),
                         detail::decodeWith(value_codec_, v, b().name()));
      return out;
    });
  }
  std::vector<K> keys() const {
    return guardRule(backend_, [&] {
      std::vector<K> out;
      for (auto& [k, v] : b().entries())
        out.push_back(detail::decodeWith(key_codec_, k, b().name()));
      return out;
    });
  }
  std::vector<V> values() const {
    return guardRule(backend_, [&] {
      std::vector<V> out;
      for (auto& [k, v] : b().entries())
        out.push_back(detail::decodeWith(value_codec_, v, b().name()));
      return out;
    });
  }
  void removeKey(const K& key) {
    guardRule(backend_, [&] { b().removeKey(encodeKey(key, "removeKey")); });
  }
  void clear() {
    guardRule(backend_, [&] { b().clear(); });
  }

 private:
  std::string encodeKey(const K& key, std::string_view op) const {
    if (detail::codecIsNull(key_codec_, key))
      detail::throwRule("NULL_MAP_KEY", "MapState '" + b().name() + "': " + std::string(op) +
                                            "() with a null key is not allowed");
    return detail::encodeWith(key_codec_, key);
  }
  detail::MapStateBackend& b() const {
    if (!backend_) detail::throwUninitialised("MapState");
    return *backend_;
  }
  std::shared_ptr<detail::MapStateBackend> backend_;
  StateCodec<K> key_codec_;
  StateCodec<V> value_codec_;
};

}  // namespace streamsim
