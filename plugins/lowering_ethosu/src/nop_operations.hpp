// SPDX-License-Identifier: Apache-2.0
#pragma once
// Factories for the operations Vela creates while rewriting (Vela operation_util.py): AvgPool copies,
// elementwise operations with a fresh output, depthwise max pooling, reduce sum, fully connected.

#include "npu/ir/graph.hpp"

#include <optional>
#include <string>

namespace ethosu::lowering {

/// A 1x1 AvgPool that copies its IFM (Vela create_avgpool_nop); inputs/outputs left to the caller.
[[nodiscard]] npu::Operation makeAvgPoolNop(const npu::Operation& origin, std::string name);

/// A clamp in quantised units (Vela ActivationFunction(Op.Clip) with min/max).
[[nodiscard]] npu::Activation clipActivation(double min, double max);

/// An elementwise operation writing a new tensor "<name>_tens0" (Vela create_binary_elementwise): the
/// output takes the shape of the operand that is not broadcast.
struct ElementwiseSpec {
  npu::OpType type = npu::OpType::Add;
  std::string name;
  npu::TensorId ifm = npu::kNoTensor;
  npu::TensorId ifm2 = npu::kNoTensor;
  npu::Quantisation quantisation;
  std::optional<npu::Activation> activation;
  std::optional<npu::DataType> dataType; ///< default: the IFM's
  std::optional<npu::Shape4> ifmShape;
  std::optional<npu::Shape4> ifm2Shape;
};
[[nodiscard]] npu::Operation makeElementwise(npu::Subgraph& subgraph, const npu::Operation& origin,
                                             const ElementwiseSpec& spec);

/// Max pooling over the depth of each pixel, seen as a [1, H*W, C, 1] IFM (Vela create_depthwise_maxpool).
[[nodiscard]] npu::Operation makeDepthwiseMaxPool(npu::Subgraph& subgraph, const npu::Operation& origin,
                                                  const std::string& name, npu::TensorId ifm,
                                                  const npu::Shape4& ifmShape, const npu::Quantisation& quantisation);

/// Sum over the depth into an int32 [1, H, W, 1] tensor (Vela create_reduce_sum).
[[nodiscard]] npu::Operation makeReduceSum(npu::Subgraph& subgraph, const npu::Operation& origin,
                                           const std::string& name, npu::TensorId ifm,
                                           const npu::Quantisation& quantisation,
                                           std::optional<npu::Activation> activation);

/// A Memcpy (Vela create_memcpy).
[[nodiscard]] npu::Operation makeMemcpy(const npu::Subgraph& subgraph, const npu::Operation& origin, std::string name,
                                        npu::TensorId ifm, npu::TensorId ofm);

/// A 1x1 depthwise convolution with unit weights that converts between integer widths (Vela create_cast_op).
[[nodiscard]] npu::Operation makeCast(npu::Subgraph& subgraph, const npu::Operation& origin, const std::string& name,
                                      npu::TensorId ifm, npu::TensorId ofm);

/// A fully connected layer ifm x weights ([O, I], TFLite layout) writing a new [N, O] tensor "<name>_tens0"
/// (Vela create_fullyconnected); a missing bias is added later by fixupBiasTensors.
[[nodiscard]] npu::Operation makeFullyConnected(npu::Subgraph& subgraph, const npu::Operation& origin,
                                                const std::string& name, npu::TensorId ifm, npu::TensorId weights,
                                                npu::TensorId bias, const npu::Quantisation& quantisation);

/// An AvgPool carrying an activation function, writing a new tensor "<name>_tens0" (Vela
/// create_fused_activation).
[[nodiscard]] npu::Operation makeFusedActivation(npu::Subgraph& subgraph, const npu::Operation& origin,
                                                 const std::string& name, npu::OpType activation, npu::TensorId ifm,
                                                 const npu::Quantisation& quantisation);

/// The type of the zero bias Vela 3.10 adds (fixup_bias_tensors): int64 for int16 IFMs, else int32.
/// Vela 2.1.1 adds an int32 one whatever the IFM.
npu::DataType zeroBiasType(npu::DataType ifmType);
/// A zero bias of `channels` values of type `biasType` named "<name>_bias".
npu::TensorId addZeroBiasOf(npu::Subgraph& subgraph, const std::string& name, int channels, npu::DataType biasType);
/// A zero bias of `channels` values of zeroBiasType(ifmType) named "<name>_bias".
npu::TensorId addZeroBias(npu::Subgraph& subgraph, const std::string& name, int channels, npu::DataType ifmType);

} // namespace ethosu::lowering
