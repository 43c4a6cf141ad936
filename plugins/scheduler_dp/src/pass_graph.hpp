// SPDX-License-Identifier: Apache-2.0
#pragma once
// The region as the dynamic-programming scheduler sees it (Vela 2.1's packed passes before
// scheduling): one pass per NPU operation, its feature maps as stored before any scheduling decision
// (linear format), its DAG predecessors (links that would close a loop dropped), whether its weights
// are copied by DMA into fast storage, and how much fast storage other passes' tensors hold while it
// runs (Vela's non_local_mem_usage).

#include "npu/plugin/scheduler.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npu::dp {

/// A weight stream as the search estimates it: encoded once with 16-deep OFM slices (Vela 2.1's
/// insert_dma compresses with ofm_depth_step 16 before scheduling).
struct WeightEstimate {
  std::int64_t streamBytes = 0; ///< whole stream, scales and biases included
  std::int64_t weightBytes = 0; ///< of which weights
  std::int64_t elements = 0;    ///< weights before encoding
  std::int64_t elementsPerChannel = 0;
  int outputChannels = 0;
  double worstCompression = 0.0; ///< encoded bytes per weight of the worst slice
  /// OFM depth of the slices Vela 2.1 reads the stream as while it searches: 16 where insert_dma
  /// compressed it (weights it copies by DMA), 0 (one slice) otherwise.
  int sliceDepth = 0;
};

struct DpPass {
  int index = 0; ///< position in the region (Vela's pass time is twice this)
  OperationId op = 0;
  std::string name;
  OpType type = OpType::Unknown;
  bool ifmStreamable = false; ///< convolution, depthwise convolution or pooling (Vela's ifm_stream_npu_blocks)
  bool elementwise = false;
  bool reversedOperands = false; ///< IFM2 read as the primary input
  TensorId ifm = kNoTensor;      ///< primary input, after any operand swap
  TensorId ifm2 = kNoTensor;
  TensorId ofm = kNoTensor;
  OperationShapes shapes;                 ///< the operation's 4D views (after any operand swap)
  std::vector<TensorId> featureMapInputs; ///< non-constant inputs, each once
  TensorId weights = kNoTensor;
  bool hasBias = false;
  bool weightsBuffered = false; ///< weights copied by DMA into fast storage before use
  std::shared_ptr<const WeightEstimate> weightEstimate;
  std::vector<int> predecessors; ///< DAG predecessors, in input order
  std::vector<int> successors;   ///< passes reading an output, in region order
};

class PassGraph {
public:
  /// `progress`, when given, advances one step per pass as its weights are estimated.
  PassGraph(const Graph& graph, const NpuRegion& region, const Accelerator& accelerator, Progress* progress = nullptr);

  [[nodiscard]] const Subgraph& subgraph() const { return *subgraph_; }
  [[nodiscard]] const NpuRegion& region() const { return *region_; }
  [[nodiscard]] const Accelerator& accelerator() const { return *accelerator_; }
  [[nodiscard]] const MemorySystem& memory() const { return accelerator_->memory(); }
  [[nodiscard]] int size() const { return static_cast<int>(passes_.size()); }
  [[nodiscard]] const std::vector<DpPass>& passes() const { return passes_; }
  [[nodiscard]] const DpPass& pass(int index) const { return passes_.at(static_cast<std::size_t>(index)); }
  [[nodiscard]] const Operation& operation(int index) const { return subgraph_->operation(pass(index).op); }
  /// The model file the graph was read from (for error locations).
  [[nodiscard]] const std::string& sourcePath() const { return graph_->sourcePath; }

  /// The memory the search plans (Vela 2.1 searches the SRAM): the fast storage.
  [[nodiscard]] MemoryArea searchedMemory() const { return memory().fastStorageArea; }
  /// Whether feature maps live in the searched memory.
  [[nodiscard]] bool featureMapsInSearchedMemory() const { return memory().featureMapArea == searchedMemory(); }
  /// Bytes a feature map takes in linear format, as the search sees it (Vela's storage_size()).
  [[nodiscard]] std::int64_t linearBytes(TensorId tensor) const;
  /// Fast storage held by tensors of other passes while `pass` runs.
  [[nodiscard]] std::int64_t nonLocalUsage(int pass) const { return nonLocalUsage_.at(static_cast<std::size_t>(pass)); }
  /// Fast storage of the strategy of Vela's startup pass (the one producing the region's inputs, before
  /// the first pass): every strategy set of the region holds it, so no set's peak is below it.
  [[nodiscard]] std::int64_t startupSram() const { return startupSram_; }
  /// Bytes of fast storage a pass's own tensors take before any strategy (inputs, outputs, weights).
  [[nodiscard]] std::int64_t inputBytesInSearchedMemory(int pass) const;
  [[nodiscard]] std::int64_t outputBytesInSearchedMemory(int pass) const;
  /// Bytes of the whole weight stream in fast storage (IFM streaming keeps all weights resident).
  [[nodiscard]] std::int64_t residentWeightBytes(int pass, double scaling) const;
  /// Bytes of a weight double buffer for OFM blocks of `blockDepth` (Vela: DoubleBuffer sub-purpose).
  [[nodiscard]] std::int64_t doubleBufferBytes(int pass, int blockDepth, double scaling) const;
  /// Bytes of a rolling buffer of `height` rows for the IFM of `pass` (RollingBufferY sub-purpose).
  [[nodiscard]] std::int64_t rollingBufferBytes(int pass, int height) const;

  [[nodiscard]] std::string describe(int pass) const;
  /// Whether some link was dropped because it closed a loop.
  [[nodiscard]] bool hasLoops() const { return hasLoops_; }

private:
  void buildPasses();
  void linkPasses();
  void estimateWeights(Progress* progress);
  void computeNonLocalUsage();

  const Graph* graph_;
  const Subgraph* subgraph_;
  const NpuRegion* region_;
  const Accelerator* accelerator_;
  std::vector<DpPass> passes_;
  std::vector<std::int64_t> nonLocalUsage_;
  std::int64_t startupSram_ = 0;
  bool hasLoops_ = false;
};

/// Bytes of a buffer as Vela allocates it: at least one byte, rounded up to 16.
[[nodiscard]] std::int64_t allocationBytes(double bytes);

} // namespace npu::dp
