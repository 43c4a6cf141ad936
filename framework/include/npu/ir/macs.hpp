// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/ir/graph.hpp"

#include <cstdint>

namespace npu {

/// Multiply-accumulates of one operation as model statistics count them: convolutions
/// (OH*OW*OC*KH*KW*IC/groups), depthwise convolutions (OH*OW*OC*KH*KW), fully connected and batched
/// matrix products (N*IC*OC), transposed convolutions (IH*IW*IC*KH*KW*OC). Every other operation
/// counts 0. Accelerator cost models report their own MACs (e.g. Vela also counts pooling).
[[nodiscard]] NPU_API std::int64_t countMacs(const Subgraph& subgraph, const Operation& op);

/// Bytes of the constant weight and bias inputs of an operation as stored in the model.
[[nodiscard]] NPU_API std::int64_t weightBytes(const Subgraph& subgraph, const Operation& op);

} // namespace npu
