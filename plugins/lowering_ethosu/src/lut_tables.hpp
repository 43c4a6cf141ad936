#pragma once
// Lookup tables of LUT activations (Vela lut.py, softmax.py). The schedulers and the cost model only
// need their size and type (256 entries for 8-bit, 512 interpolation entries of uint32 for 16-bit);
// the values are computed in double precision from the function each table represents, which is
// what Vela's fixed-point tables approximate too.

#include "npu/ir/graph.hpp"

#include <functional>
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

/// exp() of the 8-bit softmax in Q0.31 (Vela SoftMax.generate_exp_table).
[[nodiscard]] LutTable softmaxExpTable(double beta, double inputScale);
/// The constant 16-bit softmax tables (Vela SoftMax.EXP_LUT, ONE_OVER_ONE_PLUS_X_LUT).
[[nodiscard]] LutTable softmaxInt16ExpTable();
[[nodiscard]] LutTable softmaxInt16ReciprocalTable();

} // namespace ethosu::lowering
