// SPDX-License-Identifier: Apache-2.0
#pragma once
// The view of one NPU region that schedulers work on (Vela's SchedulerOperation graph): for every
// operation its feature map operands with the 4D shapes and storage formats it sees, whether IFM and
// IFM2 are swapped, which feature maps must exist whole, and who consumes its OFM inside the region.
// Built once per region from the lowered graph and the accelerator's layout rules; read-only after.

#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"
#include "npu/schedule/schedule.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace npu::scheduling {

/// A feature map operand as one operation sees it.
struct FeatureMapOperand {
  TensorId tensor = kNoTensor;
  Shape4 shape; ///< the operation's 4D view of the whole tensor
  DataType type = DataType::Unknown;
  TensorFormat format = TensorFormat::NHWC; ///< storage format decided for the tensor
  std::int64_t bytes = 0;                   ///< storage size of `shape` in `format` (Vela's *_size_in_bytes)

  [[nodiscard]] bool present() const { return tensor != kNoTensor; }
};

struct SchedulingOperation {
  int index = 0;      ///< position in the region (execution order)
  OperationId id = 0; ///< in the subgraph
  OpType type = OpType::Unknown;
  std::string name;
  FeatureMapOperand ifm;  ///< primary input, after any operand swap
  FeatureMapOperand ifm2; ///< second input of binary operations, after any operand swap
  FeatureMapOperand ofm;
  Shape4 ifmReadShape; ///< part of the IFM read (Vela's ifm_read_shape)
  std::optional<Shape4> ifm2ReadShape;
  Shape4 ofmWriteShape; ///< part of the OFM written (Vela's ofm_write_shape)
  /// IFM and IFM2 swapped so the non-constant input is primary (Vela: SchedulerOperation.__init__).
  bool reversedOperands = false;
  Kernel kernel;
  Resampling resampling = Resampling::None;
  TensorId weights = kNoTensor;
  TensorId bias = kNoTensor;
  bool requiresFullIfm = false;
  bool requiresFullIfm2 = false;
  bool requiresFullOfm = false;
  /// Region operations reading the OFM as IFM or IFM2, once per operand (Vela's get_dependants()).
  std::vector<int> ofmConsumers;
  /// Region operations reading the IFM, once per operand (Vela's ifm.connection.consumers).
  int ifmConsumerCount = 0;
  /// The OFM is (part of) a variable tensor's buffer, e.g. an LSTM state (Vela's memory_function
  /// VariableTensorWrite): it is never written over an input nor moved to the fast storage.
  bool writesVariable = false;

  [[nodiscard]] bool hasWeights() const { return weights != kNoTensor; }
  /// Bytes the operation needs for the feature maps that must be whole (Vela's op_memory_req).
  [[nodiscard]] std::int64_t fullFeatureMapBytes() const;
};

/// How often a tensor is read and written in its subgraph, and whether it may be overwritten.
struct TensorUse {
  int consumers = 0;           ///< reading operand slots, plus one for a subgraph output (Vela's consumer_list)
  int producers = 0;           ///< operations writing it
  bool writeProtected = false; ///< an elementwise OFM may not reuse it (Vela's ifm_write_protected)
};

class SchedulingGraph {
public:
  /// Builds the view of `region`, deciding the storage format of every OFM on the way.
  SchedulingGraph(const Graph& graph, const NpuRegion& region, const Accelerator& accelerator);
  /// The view with the storage formats a scheduler has already decided (e.g. the DP scheduler's brick
  /// format between cascaded passes): those tensors keep them, so buffer sizes and in-place writes
  /// follow the formats code generation will write.
  SchedulingGraph(const Graph& graph, const NpuRegion& region, const Accelerator& accelerator,
                  std::map<TensorId, TensorFormat> decidedFormats);

  [[nodiscard]] const Subgraph& subgraph() const { return *subgraph_; }
  [[nodiscard]] const NpuRegion& region() const { return *region_; }
  [[nodiscard]] const Accelerator& accelerator() const { return *accelerator_; }
  [[nodiscard]] std::span<const SchedulingOperation> operations() const { return operations_; }
  [[nodiscard]] const SchedulingOperation& operation(int index) const {
    return operations_.at(static_cast<std::size_t>(index));
  }
  [[nodiscard]] int size() const { return static_cast<int>(operations_.size()); }
  [[nodiscard]] const Operation& irOperation(int index) const { return subgraph_->operation(operation(index).id); }

  [[nodiscard]] bool isRegionInput(TensorId tensor) const { return inputs_.contains(tensor); }
  [[nodiscard]] bool isRegionOutput(TensorId tensor) const { return outputs_.contains(tensor); }
  [[nodiscard]] TensorUse use(TensorId tensor) const;
  /// The storage format decided for a feature map (NHWC for anything the graph view does not know).
  [[nodiscard]] TensorFormat format(TensorId tensor) const;
  /// Bytes a tensor takes as stored (Vela's Tensor.storage_size()): its own shape in its format.
  [[nodiscard]] std::int64_t storageBytes(TensorId tensor) const;

  /// Largest memory any single operation needs for whole feature maps (Vela's min_memory_req), and
  /// the operation needing it (-1 when none needs any).
  [[nodiscard]] std::int64_t minimumMemoryRequirement() const { return minimumMemory_; }
  [[nodiscard]] int minimumMemoryOperation() const { return minimumMemoryOperation_; }

  /// "operator 12 'name' (CONV_2D)" for messages.
  [[nodiscard]] std::string describe(int index) const;

private:
  void decideOutputFormats(const Operation& op);
  SchedulingOperation makeOperation(int index, OperationId id);
  void connect();
  /// Whether a feature map must stay linear (Vela's use_linear_format).
  [[nodiscard]] bool isLinear(TensorId tensor) const;

  const Subgraph* subgraph_;
  const NpuRegion* region_;
  const Accelerator* accelerator_;
  std::vector<SchedulingOperation> operations_;
  std::set<TensorId> inputs_;
  std::set<TensorId> outputs_;
  std::map<TensorId, TensorUse> uses_;
  std::map<TensorId, TensorFormat> formats_;
  std::map<TensorId, TensorFormat> decidedFormats_;
  std::set<TensorId> forcedLinear_;
  std::int64_t minimumMemory_ = 0;
  int minimumMemoryOperation_ = -1;
};

/// Whether a binary elementwise operation reads IFM2 as its primary input: its IFM is constant or a
/// scalar while IFM2 is neither and has the OFM's shape (Vela: SchedulerOperation.__init__).
[[nodiscard]] bool swapsOperands(const Subgraph& subgraph, const Operation& op);

/// Decides whether a tensor takes part in a live range analysis (is homed in the memory considered).
using TensorFilter = std::function<bool(TensorId)>;

/// The input an operation may overwrite with its OFM, if any (Vela: live_range._get_ifm_to_fuse):
/// an elementwise operation over an input of the OFM's shape, format and type that nothing else reads,
/// or a memory copy. Tensors `considered` rejects never take part; an empty filter accepts all.
[[nodiscard]] std::optional<TensorId> inputOverwrittenByOfm(const SchedulingGraph& graph, int index,
                                                            const TensorFilter& considered = {});

/// A rule choosing the input an operation's OFM overwrites (inputOverwrittenByOfm is Vela 3.10's).
using OverwriteRule =
    std::function<std::optional<TensorId>(const SchedulingGraph& graph, int index, const TensorFilter& considered)>;

} // namespace npu::scheduling
