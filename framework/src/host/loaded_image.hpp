// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace npu::detail {

/// The memory a loaded shared library occupies, as the dynamic loader mapped it: its loadable segments
/// with their permissions. The plugin host uses it to check that what a descriptor points at (the
/// descriptor itself, its strings, its factory) lies inside the library that returned it, before
/// reading or calling through a pointer a broken plugin may have filled with garbage.
class LoadedImage {
public:
  /// The loaded object whose segments hold the address, or nothing.
  [[nodiscard]] static std::optional<LoadedImage> containing(const void* address);

  /// True when `size` bytes from `address` lie in one readable segment.
  [[nodiscard]] bool readable(const void* address, std::size_t size) const;
  /// True when the address lies in an executable segment.
  [[nodiscard]] bool executable(const void* address) const;
  /// True when a NUL-terminated string starts at the address and ends inside the same readable segment.
  [[nodiscard]] bool holdsString(const char* text) const;

  struct Segment {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
    bool readable = false;
    bool executable = false;
  };

private:
  [[nodiscard]] const Segment* segmentOf(std::uintptr_t address) const;

  std::vector<Segment> segments_;
};

} // namespace npu::detail
