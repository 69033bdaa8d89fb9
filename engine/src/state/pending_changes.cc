// PendingFamily / PendingChanges (pending_changes.h).
#include "state/pending_changes.h"

#include <algorithm>
#include <array>

#include "state/key_compare.h"

namespace streamsim::detail {

namespace {
// A log splits into this many ascending runs at most before it is sorted whole instead: one
// (keys changed in order) or two (a timer handler's) are merged, anything else sorted.
constexpr size_t kMaxRuns = 2;
}  // namespace

std::vector<uint32_t> PendingFamily::keyOrder(bool& netted) const {
  auto n = static_cast<uint32_t>(changes_.size());
  auto keyAt = [this](uint32_t i) { return keyOf(changes_[i]); };
  // Keys are mostly changed in ascending order within a task, and a timer handler's changes
  // interleave two ascending runs (its new timer's put, its fired timer's remove). Each change
  // goes to the first run whose last key is not greater, so runs ascend by (key, position);
  // merging them is the stable order at about one compare per change where a sort needs
  // log2(n).
  std::array<std::vector<uint32_t>, kMaxRuns> runs;
  std::array<std::string_view, kMaxRuns> lastKey;
  size_t used = 0;
  bool fits = true;
  // A change of the key its run ends with replaces that run's last change (the later one wins),
  // so every run is strictly ascending: one or two runs come out netted, without a pass that
  // compares neighbours again.
  netted = true;
  for (uint32_t i = 0; i < n; ++i) {
    const std::string_view k = keyAt(i);
    size_t r = 0;
    int c = 1;
    while (r < used && (c = bytewiseCompare(lastKey[r], k)) > 0) ++r;
    if (r < used && c == 0) {
      runs[r].back() = i;
      continue;
    }
    if (r == used) {
      if (used == kMaxRuns) {
        fits = false;
        break;
      }
      runs[r].reserve(r == 0 ? n : n / 2);
      ++used;
    }
    runs[r].push_back(i);
    lastKey[r] = k;
  }
  if (fits && used <= 1) return std::move(runs[0]);
  std::vector<uint32_t> order(n);
  if (fits) {  // two runs, the timer handler's shape: a two-way merge
    const uint32_t *a = runs[0].data(), *aEnd = a + runs[0].size();
    const uint32_t *b = runs[1].data(), *bEnd = b + runs[1].size();
    uint32_t* out = order.data();
    while (a != aEnd && b != bEnd) {
      const int c = bytewiseCompare(keyAt(*a), keyAt(*b));
      if (c == 0) {  // each run holds a key once: the later change of the two is the net one
        *out++ = std::max(*a++, *b++);
      } else {
        *out++ = c < 0 ? *a++ : *b++;
      }
    }
    out = std::copy(a, aEnd, out);
    out = std::copy(b, bEnd, out);
    order.resize(static_cast<size_t>(out - order.data()));
    return order;
  }
  // Too many runs: sort positions (ties by position: stable without moving any bytes), then
  // net() drops all but the last change of each key.
  netted = false;
  order.resize(changes_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&keyAt](uint32_t a, uint32_t b) {
    const int c = bytewiseCompare(keyAt(a), keyAt(b));
    return c != 0 ? c < 0 : a < b;
  });
  return order;
}

void PendingFamily::net() {
  bool netted = false;
  order_ = keyOrder(netted);
  if (netted) return;
  // The last change of each key wins.
  size_t out = 0;
  for (size_t i = 0; i < order_.size(); ++i) {
    if (i + 1 < order_.size() &&
        bytewiseEqual(keyOf(changes_[order_[i + 1]]), keyOf(changes_[order_[i]])))
      continue;
    order_[out++] = order_[i];
  }
  order_.resize(out);
}

void PendingChanges::net() {
  for (const auto& f : families_) f->net();
  std::sort(families_.begin(), families_.end(),
            [](const auto& a, const auto& b) { return a->cf() < b->cf(); });
}

}  // namespace streamsim::detail
