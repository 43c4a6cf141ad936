// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where each tensor of a region lives while a scheduler works on it, and how: the memory, and whether
// it is scratch memory (a feature map), fast scratch memory (a feature map or buffer moved into the
// fast storage) or permanent storage (a constant). This is Vela's Tensor.mem_area/mem_type pair, kept
// as a value the scheduler can copy, restore and compare instead of state spread over the graph.

#include "scheduler_common/scheduling_graph.hpp"

#include <cstdint>
#include <initializer_list>
#include <map>

namespace npu::scheduling {

/// Vela's MemType for the tensors a scheduler homes.
enum class Residency : std::uint8_t {
  Scratch,     ///< feature map in its default memory
  ScratchFast, ///< feature map or buffer in the fast storage
  Permanent,   ///< constant data
};

/// A set of residencies (Vela's mem_type_set).
class ResidencySet {
public:
  ResidencySet(std::initializer_list<Residency> members) {
    for (const Residency member : members) {
      bits_ |= bit(member);
    }
  }
  [[nodiscard]] bool contains(Residency residency) const { return (bits_ & bit(residency)) != 0; }

private:
  static unsigned bit(Residency residency) { return 1U << static_cast<unsigned>(residency); }
  unsigned bits_ = 0;
};

struct Placement {
  MemoryArea area = MemoryArea::Unknown;
  Residency residency = Residency::Scratch;
  friend bool operator==(const Placement&, const Placement&) = default;
};

class TensorPlacement {
public:
  /// Every constant in the constant area, every other tensor in the feature map area.
  TensorPlacement(const Subgraph& subgraph, const MemorySystem& memory);

  [[nodiscard]] Placement of(TensorId tensor) const;
  [[nodiscard]] MemoryArea area(TensorId tensor) const { return of(tensor).area; }
  void place(TensorId tensor, Placement placement) { placements_[tensor] = placement; }
  /// True when the tensor lives in `area` with one of `residencies`.
  [[nodiscard]] bool isIn(TensorId tensor, MemoryArea area, ResidencySet residencies) const {
    const Placement placement = of(tensor);
    return placement.area == area && residencies.contains(placement.residency);
  }
  friend bool operator==(const TensorPlacement&, const TensorPlacement&) = default;

private:
  const Subgraph* subgraph_;
  MemoryArea constantArea_;
  MemoryArea featureMapArea_;
  std::map<TensorId, Placement> placements_;
};

} // namespace npu::scheduling
