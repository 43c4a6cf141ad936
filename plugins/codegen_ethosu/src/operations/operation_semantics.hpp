// SPDX-License-Identifier: Apache-2.0
#pragma once

// The register-level meaning of a lowered operation: which hardware operation it is, how its feature
// maps are quantised as the hardware sees them, its activation, rounding and scaling. Vela 3.10's rules
// from high_level_command_to_npu_op.py.

#include "operations/operation_info.hpp"

#include "npu/ir/graph.hpp"

namespace ethosu::codegen {

/// Fills kind, pooling/elementwise function, activation, rounding, fused quantise, upscaling, kernel and
/// padding of `info` from `op`.
void describeSemantics(const npu::Subgraph& subgraph, const npu::Operation& op, OperationInfo& info);
/// Fills rescale and the OFM scale override (Vela: create_npu_pool_op, create_npu_elementwise_op). The
/// operands must be final (after any swap).
void describeScaling(const npu::Operation& op, OperationInfo& info);

/// The quantisation the hardware applies to an IFM/IFM2 (`input`) or the OFM, or nullopt when the
/// tensor is not quantised (Vela: get_ifm_or_ifm2_quantization, get_ofm_quantization).
[[nodiscard]] std::optional<Quantisation> hardwareQuantisation(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                               npu::TensorId tensor, bool input);

/// The stride the hardware runs along an axis whose OFM extent is `ofmExtent`; it encodes 1 to 4. An OFM
/// of one row (column) reads the same IFM rows (columns) at any stride, and Vela's checks accept any
/// stride there: it runs at stride 1. A larger stride over a longer axis is a compile error.
[[nodiscard]] int runnableStride(int stride, int ofmExtent, const std::string& operation);

[[nodiscard]] NpuDataType npuDataType(npu::DataType type, const std::string& tensorName);

} // namespace ethosu::codegen
