// SPDX-License-Identifier: Apache-2.0
#pragma once
// Lookup tables of LUT activations, computed the way Vela 3.10 computes them (lut.py, softmax.py,
// tflite_graph_optimiser.py), so the tables are the ones the hardware would run:
// - 8-bit tables of a real function (sigmoid, tanh, exp) evaluate it in double precision at every
//   quantised input and round half away from zero, like Vela's convert_to_lut8 / create_lut_8bit_op;
// - HardSwish, LeakyReLU, RSQRT and the 8-bit softmax exp use the reference kernels' integer fixed-point
//   arithmetic (fixed_point.hpp), bit-exact with Vela;
// - 16-bit tables are 512 interpolation entries (slope << 16) + base, built like TensorFlow Lite's
//   gen_lut (Vela create_lut_int16_op); the softmax tables are gen_lut of exp on [-10, 0] and of
//   1 / (1 + x) on [0, 1].
// Every table is a pure function of its inputs: the same operation always gets the same table.

#include "npu/ir/graph.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ethosu::lowering {

struct LutTable {
  std::vector<std::int64_t> values;
  npu::DataType type = npu::DataType::Int8; ///< element type of the table tensor
};

/// Adds a LUT constant [1, 1, 1, N] with purpose Lut (Vela create_lut_tensor).
npu::TensorId addLutTable(npu::Subgraph& subgraph, const std::string& name, const LutTable& table);

/// An 8-bit table of fn applied to every quantised input value (Vela convert_to_lut8).
[[nodiscard]] LutTable lut8(const std::function<double(double)>& fn, const npu::Quantisation& ifm,
                            const npu::Quantisation& ofm, npu::DataType type);
/// A 16-bit interpolation table of fn over the int16 input range (Vela create_lut_int16_op).
[[nodiscard]] LutTable lut16(const std::function<double(double)>& fn, const npu::Quantisation& ifm,
                             const npu::Quantisation& ofm);

/// HardSwish in the reference's 16-bit fixed point (Vela convert_hardswish_to_lut).
[[nodiscard]] LutTable hardSwishTable(const npu::Quantisation& ifm, const npu::Quantisation& ofm, npu::DataType type);

/// The scaling of the negative side of a LeakyReLU that replaced a Mul + Max or a PReLU (Vela's
/// "alpha_scaling" attribute): quantised alpha, multiplier and shift.
struct AlphaScaling {
  std::int64_t scalar = 1;
  std::int64_t multiplier = 0;
  int shift = 0;
};
/// LeakyReLU in fixed point (Vela convert_lrelu_to_lut).
[[nodiscard]] LutTable leakyReluTable(const npu::Quantisation& ifm, const npu::Quantisation& ofm, npu::DataType type,
                                      double alpha, const std::optional<AlphaScaling>& alphaScaling);
/// RSQRT of int8 (Vela create_lut_rsqrt_int8_op over the reference's 1 / sqrt table).
[[nodiscard]] LutTable rsqrtTable(const npu::Quantisation& ifm, const npu::Quantisation& ofm);

/// exp() of the 8-bit softmax in Q0.31 (Vela SoftMax.generate_exp_table).
[[nodiscard]] LutTable softmaxExpTable(double beta, double inputScale);
/// The constant 16-bit softmax tables (Vela SoftMax.EXP_LUT, ONE_OVER_ONE_PLUS_X_LUT).
[[nodiscard]] LutTable softmaxInt16ExpTable();
[[nodiscard]] LutTable softmaxInt16ReciprocalTable();

} // namespace ethosu::lowering
