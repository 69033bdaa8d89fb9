// Private to the state stores: the allocator of the memory working copy's tree nodes and key and
// value strings. Blocks are rounded up to 16 bytes; a freed block goes onto its size's free list
// and is handed out again by the next allocation of that size, so a timer batch (10k rows
// removed, 10k inserted, each a node and a key longer than std::string's inline buffer) costs
// a pop and a push per block instead of malloc and free, which overflowed their per-thread
// caches on every such burst. Memory is returned when the pool dies (its working copy does), so
// it holds the largest state the working copy held; larger blocks go straight to operator new.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <memory_resource>
#include <new>
#include <vector>

namespace streamsim::detail {

class SizeClassPool final : public std::pmr::memory_resource {
 public:
  SizeClassPool() = default;
  SizeClassPool(const SizeClassPool&) = delete;
  SizeClassPool& operator=(const SizeClassPool&) = delete;

 private:
  static constexpr size_t kGrain = 16;
  static constexpr size_t kMaxPooled = 512;  // bytes; larger blocks are not pooled
  static constexpr size_t kChunkBytes = 64 * 1024;
  struct FreeBlock {
    FreeBlock* next;
  };

  static size_t classOf(size_t bytes) { return (bytes + kGrain - 1) / kGrain; }

  void* do_allocate(size_t bytes, size_t alignment) override {
    if (bytes > kMaxPooled || alignment > kGrain) return ::operator new(bytes, std::align_val_t{alignment});
    const size_t c = classOf(bytes == 0 ? 1 : bytes);
    if (FreeBlock* b = free_[c]) {
      free_[c] = b->next;
      return b;
    }
    const size_t size = c * kGrain;
    if (size > static_cast<size_t>(chunk_end_ - chunk_next_)) {
      chunks_.push_back(std::make_unique_for_overwrite<std::byte[]>(kChunkBytes));  // no zero fill
      chunk_next_ = chunks_.back().get();
      chunk_end_ = chunk_next_ + kChunkBytes;
    }
    void* p = chunk_next_;
    chunk_next_ += size;
    return p;
  }

  void do_deallocate(void* p, size_t bytes, size_t alignment) override {
    if (bytes > kMaxPooled || alignment > kGrain) {
      ::operator delete(p, std::align_val_t{alignment});
      return;
    }
    const size_t c = classOf(bytes == 0 ? 1 : bytes);
    free_[c] = new (p) FreeBlock{free_[c]};
  }

  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }

  std::array<FreeBlock*, kMaxPooled / kGrain + 1> free_{};
  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  std::byte* chunk_next_ = nullptr;
  std::byte* chunk_end_ = nullptr;
};

}  // namespace streamsim::detail
