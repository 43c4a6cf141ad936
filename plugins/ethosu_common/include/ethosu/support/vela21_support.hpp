// SPDX-License-Identifier: Apache-2.0
#pragma once

// The operators Arm Vela 2.1.1 (supported_operators.py at commit 41c006a) keeps on the CPU although
// Vela 3.10 runs them on the NPU: the operator types 2.1.1 does not know yet (ARG_MAX,
// UNIDIRECTIONAL_SEQUENCE_LSTM, TRANSPOSE, RESIZE_NEAREST_NEIGHBOR, SQUEEZE, ...) and the narrower
// constraints of the types both know (strides 1-3 for every convolution and pooling, dilation 1-2, MEAN
// only in the shapes its depthwise rewrite handled, RESIZE_BILINEAR only as 2x upscaling, PAD only in
// front of a VALID convolution or pooling, ...).
//
// These checks come on top of Vela 3.10's (OperatorSupportChecker): an operation runs on the NPU with
// the 2.1.1 operator set when both accept it. The graph is the frontend's (see operator_support.hpp);
// the kernel strides are the model's (2.1.1 has no fixup_pool_strides). Stateless and thread-safe.

#include "ethosu/support/operator_support.hpp"

#include "npu/ir/graph.hpp"

namespace ethosu {

/// The first of Vela 2.1.1's constraints that Vela 3.10 relaxed and the operation breaks, worded as
/// 2.1.1 logs it; supported when it breaks none of them.
[[nodiscard]] SupportDiagnosis checkVela21Restrictions(const npu::Subgraph& subgraph, const npu::Operation& op);

} // namespace ethosu
