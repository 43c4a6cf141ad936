// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/ir/operation.hpp"
#include "npu/ir/tensor.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npu {

/// A named entry of the model file's metadata (e.g. TFLite's "min_runtime_version"), kept so that the
/// output model can pass it on as Vela does.
struct ModelMetadata {
  std::string name;
  std::vector<std::uint8_t> bytes; ///< empty when the entry's buffer holds no data
  friend bool operator==(const ModelMetadata&, const ModelMetadata&) = default;
};

/// A dataflow graph of operations over tensors. Operations are stored in execution order (the order
/// of the model file until a pass reorders them); tensors and operations refer to each other by index.
struct Subgraph {
  std::string name;
  std::vector<Tensor> tensors;
  std::vector<Operation> operations;
  std::vector<TensorId> inputs;
  std::vector<TensorId> outputs;

  [[nodiscard]] const Tensor& tensor(TensorId id) const;
  [[nodiscard]] Tensor& tensor(TensorId id);
  /// The tensor or null when `id` is kNoTensor.
  [[nodiscard]] const Tensor* findTensor(TensorId id) const;
  [[nodiscard]] const Operation& operation(OperationId id) const;
  [[nodiscard]] Operation& operation(OperationId id);
  [[nodiscard]] bool validTensorId(TensorId id) const {
    return id >= 0 && static_cast<std::size_t>(id) < tensors.size();
  }

  TensorId addTensor(Tensor tensor);
  OperationId addOperation(Operation operation);

  /// 4D shape an operation sees for its i-th IFM / OFM: ifmShapes/ofmShapes if set, else the tensor's.
  [[nodiscard]] Shape4 ifmShape(const Operation& op, std::size_t index = 0) const;
  [[nodiscard]] Shape4 ofmShape(const Operation& op, std::size_t index = 0) const;
  /// "operator 12 'name' (CONV_2D)" for messages.
  [[nodiscard]] std::string describe(OperationId id) const;
};

/// A whole model: one or more subgraphs; the first is the entry point.
struct Graph {
  std::string name;        ///< model name (file stem)
  std::string sourcePath;  ///< file the frontend read
  std::string description; ///< from the model file, if any
  std::vector<Subgraph> subgraphs;
  std::vector<ModelMetadata> metadata; ///< the model file's metadata, in file order
};

} // namespace npu
