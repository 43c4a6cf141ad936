// SPDX-License-Identifier: Apache-2.0
#pragma once

// The read-only area (Vela's "flash" tensor, region 0) shared by every `ethos-u` operator of a model:
// the constants NPU operations read (constant feature maps, lookup tables, raw biases) and each
// operation's encoded weight stream, laid out one after another as Vela's linear allocation of
// permanent storage does (compiler_driver: allocate_tensors with LinearAlloc over
// live_range.create_linear_live_range_graph, then npu_serialisation copies the contents in).

#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"
#include "npu/schedule/schedule.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ethosu::codegen {

/// One scheduled operation's weights as encoded for its block config and depth slicing.
struct OperationWeights {
  std::shared_ptr<const npu::EncodedWeights> encoded; ///< the stream's layout (its bytes are in the area)
  std::int64_t address = 0;                           ///< of the stream in the read-only area
  /// When the operation shares another's weights but not its scales (Vela's scale-only NpuWeightTensor,
  /// weight_compressor.encode_weight_and_scale_tensor): where its own scales are, each core's scales of
  /// each slice padded to 16 bytes, one after the other. The scales are then read from here, never copied.
  std::optional<std::int64_t> scaleAddress;
};

/// Offset of the scales of `core` of the slice starting at `depth` within a scale-only stream.
[[nodiscard]] std::int64_t scaleOnlyOffset(const npu::EncodedWeights& encoded, int depth, std::size_t core);

/// One item of the area, for listings.
struct ReadOnlyEntry {
  std::string name;
  std::int64_t address = 0;
  std::int64_t bytes = 0;
};

class ReadOnlyArea {
public:
  /// Lays out the constants and weight streams of every region of `schedules` (in order).
  ReadOnlyArea(const npu::Graph& graph, std::span<const npu::Schedule> schedules, const npu::Accelerator& accelerator);

  /// Address of a constant tensor of subgraph `subgraphIndex` (or of an equivalent one stored before);
  /// nullopt when the area does not hold it.
  [[nodiscard]] std::optional<std::int64_t> constantAddress(const npu::Subgraph& subgraph, int subgraphIndex,
                                                            npu::TensorId tensor) const;
  /// The weights of the operation at `position` of schedule `schedule`; null when it has none.
  [[nodiscard]] const OperationWeights* weights(std::size_t schedule, std::size_t position) const;
  /// The whole area's contents (zeros where nothing is copied in, as Vela leaves raw biases).
  [[nodiscard]] const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  /// The contents moved out (the flash image is large: it is not copied); bytes() is empty afterwards,
  /// while addresses and weights stay valid.
  [[nodiscard]] std::vector<std::uint8_t> releaseBytes() { return std::move(bytes_); }
  /// What is stored where, in address order.
  [[nodiscard]] const std::vector<ReadOnlyEntry>& entries() const { return entries_; }

private:
  struct StoredStream;
  void addConstantsOf(const npu::Graph& graph, const npu::Schedule& schedule);
  void addWeights(const npu::Graph& graph, std::span<const npu::Schedule> schedules, std::size_t s,
                  std::size_t position, npu::EncodedWeights encoding,
                  std::multimap<std::uint64_t, StoredStream>& storedStreams);
  void addConstant(const npu::Subgraph& subgraph, int subgraphIndex, npu::TensorId tensor, bool copied);
  std::int64_t allocate(const std::string& name, std::int64_t bytes);

  std::map<std::pair<int, std::int64_t>, std::int64_t> constants_; ///< (subgraph, storage key) -> address
  std::map<std::pair<std::size_t, std::size_t>, OperationWeights> weights_;
  std::vector<std::uint8_t> bytes_;
  std::vector<ReadOnlyEntry> entries_;
};

/// Identity of a tensor's contents: equivalent tensors share one.
[[nodiscard]] std::int64_t storageKey(const npu::Subgraph& subgraph, npu::TensorId tensor);

} // namespace ethosu::codegen
