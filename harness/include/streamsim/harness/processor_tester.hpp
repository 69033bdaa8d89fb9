// Template bodies of ProcessorTester's typed state access (declared in processor_tester.h).
#pragma once

#include <string_view>

#include "streamsim/harness/processor_tester.h"

namespace streamsim::harness {

namespace detail {
// Decodes one whole stored value with `codec`; Corruption naming the variable on failure.
template <class C>
auto decodeStored(const C& codec, std::string_view bytes, const std::string& name)
    -> decltype(codec.decode(bytes)) {
  std::string_view in = bytes;
  auto r = codec.decode(in);
  if (!r.ok()) return r.status().withContext("state variable '" + name + "'");
  if (!in.empty())
    return Status::Corruption("state variable '" + name + "': " + std::to_string(in.size()) +
                              " trailing bytes; is the codec the processor's?");
  return r;
}

inline Status kindMismatch(const std::string& name, std::string_view wanted) {
  return Status::InvalidArgument("state variable '" + name + "' is not a " + std::string(wanted));
}
}  // namespace detail

template <class P>
template <class T>
Result<std::optional<T>> ProcessorTester<P>::peekValueState(const GroupKey& key,
                                                            const std::string& name,
                                                            StateCodec<T> codec) {
  STREAMSIM_ASSIGN_OR_RETURN(RawStateValue raw, this->peekRaw(key, name));
  if (raw.kind != RawStateValue::Kind::kValue) return detail::kindMismatch(name, "ValueState");
  if (!raw.value) return std::optional<T>{};
  STREAMSIM_ASSIGN_OR_RETURN(T v, detail::decodeStored(codec, *raw.value, name));
  return std::optional<T>(std::move(v));
}

template <class P>
template <class T>
Result<std::vector<T>> ProcessorTester<P>::peekListState(const GroupKey& key,
                                                         const std::string& name,
                                                         StateCodec<T> codec) {
  STREAMSIM_ASSIGN_OR_RETURN(RawStateValue raw, this->peekRaw(key, name));
  if (raw.kind != RawStateValue::Kind::kList) return detail::kindMismatch(name, "ListState");
  std::vector<T> out;
  for (const std::string& bytes : raw.list) {
    STREAMSIM_ASSIGN_OR_RETURN(T v, detail::decodeStored(codec, bytes, name));
    out.push_back(std::move(v));
  }
  return out;
}

template <class P>
template <class K, class V>
Result<std::vector<std::pair<K, V>>> ProcessorTester<P>::peekMapState(const GroupKey& key,
                                                                      const std::string& name,
                                                                      StateCodec<K> keyCodec,
                                                                      StateCodec<V> valueCodec) {
  STREAMSIM_ASSIGN_OR_RETURN(RawStateValue raw, this->peekRaw(key, name));
  if (raw.kind != RawStateValue::Kind::kMap) return detail::kindMismatch(name, "MapState");
  std::vector<std::pair<K, V>> out;
  for (const auto& [kb, vb] : raw.entries) {
    STREAMSIM_ASSIGN_OR_RETURN(K k, detail::decodeStored(keyCodec, kb, name));
    STREAMSIM_ASSIGN_OR_RETURN(V v, detail::decodeStored(valueCodec, vb, name));
    out.emplace_back(std::move(k), std::move(v));
  }
  return out;
}

template <class P>
template <class T>
Result<std::optional<std::pair<T, std::optional<TimeMs>>>> ProcessorTester<P>::peekValueStateTTL(
    const GroupKey& key, const std::string& name, StateCodec<T> codec) {
  STREAMSIM_ASSIGN_OR_RETURN(RawStateValue raw, this->peekRawWithoutTTL(key, name));
  if (raw.kind != RawStateValue::Kind::kValue) return detail::kindMismatch(name, "ValueState");
  using Out = std::optional<std::pair<T, std::optional<TimeMs>>>;
  if (!raw.value) return Out{};
  STREAMSIM_ASSIGN_OR_RETURN(T v, detail::decodeStored(codec, *raw.value, name));
  return Out(std::pair<T, std::optional<TimeMs>>(std::move(v), raw.valueExpiresAt));
}

template <class P>
template <class T>
Result<std::vector<std::pair<T, std::optional<TimeMs>>>> ProcessorTester<P>::peekListStateTTL(
    const GroupKey& key, const std::string& name, StateCodec<T> codec) {
  STREAMSIM_ASSIGN_OR_RETURN(RawStateValue raw, this->peekRawWithoutTTL(key, name));
  if (raw.kind != RawStateValue::Kind::kList) return detail::kindMismatch(name, "ListState");
  std::vector<std::pair<T, std::optional<TimeMs>>> out;
  for (size_t i = 0; i < raw.list.size(); ++i) {
    STREAMSIM_ASSIGN_OR_RETURN(T v, detail::decodeStored(codec, raw.list[i], name));
    out.emplace_back(std::move(v), raw.listExpiresAt[i]);
  }
  return out;
}

template <class P>
template <class K, class V>
Result<std::vector<std::tuple<K, V, std::optional<TimeMs>>>> ProcessorTester<P>::peekMapStateTTL(
    const GroupKey& key, const std::string& name, StateCodec<K> keyCodec, StateCodec<V> valueCodec) {
  STREAMSIM_ASSIGN_OR_RETURN(RawStateValue raw, this->peekRawWithoutTTL(key, name));
  if (raw.kind != RawStateValue::Kind::kMap) return detail::kindMismatch(name, "MapState");
  std::vector<std::tuple<K, V, std::optional<TimeMs>>> out;
  for (size_t i = 0; i < raw.entries.size(); ++i) {
    STREAMSIM_ASSIGN_OR_RETURN(K k, detail::decodeStored(keyCodec, raw.entries[i].first, name));
    STREAMSIM_ASSIGN_OR_RETURN(V v, detail::decodeStored(valueCodec, raw.entries[i].second, name));
    out.emplace_back(std::move(k), std::move(v), raw.entriesExpiresAt[i]);
  }
  return out;
}

template <class P>
template <class T>
Status ProcessorTester<P>::setValueState(const GroupKey& key, const std::string& name,
                                         const T& value, StateCodec<T> codec) {
  RawStateValue raw;
  raw.kind = RawStateValue::Kind::kValue;
  raw.value.emplace();
  codec.encode(value, *raw.value);
  return this->setRaw(key, name, raw);
}

template <class P>
template <class T>
Status ProcessorTester<P>::setListState(const GroupKey& key, const std::string& name,
                                        const std::vector<T>& values, StateCodec<T> codec) {
  RawStateValue raw;
  raw.kind = RawStateValue::Kind::kList;
  for (const T& v : values) {
    std::string bytes;
    codec.encode(v, bytes);
    raw.list.push_back(std::move(bytes));
  }
  return this->setRaw(key, name, raw);
}

template <class P>
template <class K, class V>
Status ProcessorTester<P>::setMapState(const GroupKey& key, const std::string& name,
                                       const std::vector<std::pair<K, V>>& entries,
                                       StateCodec<K> keyCodec, StateCodec<V> valueCodec) {
  RawStateValue raw;
  raw.kind = RawStateValue::Kind::kMap;
  for (const auto& [k, v] : entries) {
    std::string kb, vb;
    keyCodec.encode(k, kb);
    valueCodec.encode(v, vb);
    raw.entries.emplace_back(std::move(kb), std::move(vb));
  }
  return this->setRaw(key, name, raw);
}

}  // namespace streamsim::harness
