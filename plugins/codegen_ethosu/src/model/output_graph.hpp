// SPDX-License-Identifier: Apache-2.0
#pragma once

// The deployable model as a graph: the lowered graph with every NPU region replaced by one `ethos-u`
// custom operator (Vela's NpuOp call: command stream, flash, scratch and fast scratch tensors, then the
// region's inputs), and the CPU operators kept with their tensors (Vela 3.10's extract_npu_subgraphs.py
// and npu_serialisation.py).

#include "npu/ir/graph.hpp"
#include "npu/schedule/schedule.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ethosu::codegen {

/// What the output model holds besides the CPU part.
struct GeneratedCode {
  std::vector<std::vector<std::uint8_t>> commandStreams; ///< one per schedule (driver payloads)
  /// The flash contents, shared with the output model's flash tensor rather than copied (it holds every
  /// encoded weight stream: the whole model's size).
  std::shared_ptr<const std::vector<std::uint8_t>> readOnly = std::make_shared<const std::vector<std::uint8_t>>();
  std::int64_t scratchBytes = 0;
  std::int64_t fastScratchBytes = 0;
};

struct OutputGraph {
  npu::Graph graph;
  /// Per output tensor (of subgraph 0 and the others, by subgraph): its offset in the tensor arena, or
  /// -1 (Vela's OfflineMemoryAllocation metadata).
  std::vector<std::map<npu::TensorId, std::int64_t>> arenaOffsets;
};

/// `arenaOffset(subgraph, tensor)` gives a lowered tensor's offset in the arena, or -1.
[[nodiscard]] OutputGraph buildOutputGraph(const npu::Graph& lowered, std::span<const npu::Schedule> schedules,
                                           const GeneratedCode& code,
                                           const std::vector<std::map<npu::TensorId, std::int64_t>>& arenaOffsets);

/// The region's inputs and outputs in the order Vela's extract_npu_subgraphs meets them: inputs as the
/// region's operations read them (constants excluded), outputs as they write them.
[[nodiscard]] std::pair<std::vector<npu::TensorId>, std::vector<npu::TensorId>>
regionBoundary(const npu::Subgraph& subgraph, const npu::NpuRegion& region);

/// The name Vela gives the NPU subgraph of the `index`-th (from 1) region of a subgraph named `name`.
[[nodiscard]] std::string npuSubgraphName(const std::string& subgraphName, int index);

} // namespace ethosu::codegen
