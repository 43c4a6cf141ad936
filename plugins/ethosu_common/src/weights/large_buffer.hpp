// SPDX-License-Identifier: Apache-2.0
#pragma once

// An allocator for the weight codec's scratch buffers, which reach megabytes per stream (a classifier's
// 1.3 million weights take ~13 MB of reordered weights, symbols and search decisions). Touching that
// much fresh memory costs one page fault per 4 KiB, and faults dominated compile time on virtual
// machines. Allocations of 2 MiB and more are aligned to 2 MiB and offered to the kernel for
// transparent huge pages (a hint: where the kernel declines, they stay ordinary pages).

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ethosu::weights::detail {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20U;

template <typename T>
struct LargeBufferAllocator {
  using value_type = T;

  LargeBufferAllocator() = default;
  template <typename U>
  explicit LargeBufferAllocator(const LargeBufferAllocator<U>& /*other*/) noexcept {}

  [[nodiscard]] T* allocate(std::size_t count) {
    const std::size_t bytes = count * sizeof(T);
    if (bytes < kHugePageBytes) {
      return static_cast<T*>(::operator new(bytes));
    }
    const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void* memory = std::aligned_alloc(kHugePageBytes, rounded);
    if (memory == nullptr) {
      throw std::bad_alloc();
    }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    static_cast<void>(::madvise(memory, rounded, MADV_HUGEPAGE)); // a hint; failure changes nothing
#endif
    return static_cast<T*>(memory);
  }

  void deallocate(T* memory, std::size_t count) noexcept {
    if (count * sizeof(T) < kHugePageBytes) {
      ::operator delete(memory);
    } else {
      std::free(memory);
    }
  }

  template <typename U>
  friend bool operator==(const LargeBufferAllocator& /*a*/, const LargeBufferAllocator<U>& /*b*/) noexcept {
    return true;
  }
};

/// A vector for the codec's large per-thread buffers.
template <typename T>
using LargeVector = std::vector<T, LargeBufferAllocator<T>>;

} // namespace ethosu::weights::detail
