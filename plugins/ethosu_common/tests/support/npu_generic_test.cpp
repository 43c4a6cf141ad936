// SPDX-License-Identifier: Apache-2.0
// Reasons table for Vela's generic NPU constraints: data types, dimensions, per-axis quantisation,
// batch size and fused activations.

#include "test_operations.hpp"

namespace ethosu::test {
namespace {

const std::vector<ReasonCase> kGenericNpuCases{
    {"tens_dtype",
     [](bool failing) { return binary(OpType::Maximum, "MAXIMUM", failing ? DataType::Int64 : DataType::Int16); },
     "Tensor 'ifm' has data type: int64, Tensor 'ifm2' has data type: int64, Tensor 'ofm' has data type: int64"},
    {"tens_int32_ops",
     [](bool failing) {
       return failing ? binary(OpType::Maximum, "MAXIMUM", DataType::Int32)
                      : binary(OpType::Mul, "MUL", DataType::Int32);
     },
     "Op has int32 tensor(s): ifm, ifm2, ofm"},
    {"tens_dimension",
     [](bool failing) {
       TestGraph g = binary(OpType::Add, "ADD");
       const int width = failing ? 65536 : 65535;
       for (const char* name : {"ifm", "ifm2", "ofm"}) {
         g.tensor(name).shape = npu::Shape{1, 1, width, 1};
       }
       return g;
     },
     "Tensor 'ifm' has shape: [1, 1, 65536, 1], Tensor 'ifm2' has shape: [1, 1, 65536, 1], Tensor 'ofm' has "
     "shape: [1, 1, 65536, 1]"},
    {"tens_quant_per_axis",
     [](bool failing) {
       TestGraph g = failing ? fullyConnected() : convolution();
       g.tensor("weights").quantisation.scale = std::vector<double>(8, 0.25);
       g.tensor("weights").quantisation.zeroPoint = std::vector<std::int64_t>(8, 0);
       return g;
     },
     "The following tensor(s) have per-axis quantization parameters: weights"},
    {"batch_size",
     [](bool failing) {
       TestGraph g = binary(OpType::Add, "ADD");
       for (const char* name : {"ifm", "ifm2", "ofm"}) {
         g.tensor(name).shape = npu::Shape{failing ? 2 : 1, 8, 8, 4};
       }
       return g;
     },
     "Tensor 'ifm' has batch size: 2\n   Tensor 'ifm2' has batch size: 2"},
    {"faf",
     [](bool failing) {
       TestGraph g = binary(OpType::Add, "ADD");
       g.the().activation = npu::Activation{failing ? OpType::SignBit : OpType::Relu6, 0.0, 6.0, npu::kNoTensor};
       return g;
     },
     "Op has its fused activation function as: SignBit"},
    {"faf_type",
     [](bool failing) {
       TestGraph g = binary(OpType::Add, "ADD");
       g.tensor("ofm").type = failing ? DataType::Int32 : DataType::Int16;
       g.the().activation = npu::Activation{OpType::Relu, 0.0, std::nullopt, npu::kNoTensor};
       return g;
     },
     "Op has fused activation function RELU, and Output tensor data type: int32"},
};

} // namespace

BOOST_AUTO_TEST_SUITE(npu_generic_constraints)

BOOST_AUTO_TEST_CASE(each_generic_npu_constraint_accepts_a_valid_operation_and_names_what_breaks_it) {
  checkReasonTable(kGenericNpuCases);
}

BOOST_AUTO_TEST_CASE(arg_max_may_have_an_int64_output_and_fully_connected_a_batch) {
  TestGraph argMax;
  const auto ifm = argMax.featureMap("ifm", {1, 8, 8, 4});
  const auto axis = argMax.constant("axis", {1}, DataType::Int32, {3});
  const auto ofm = argMax.featureMap("ofm", {1, 8, 8}, DataType::Int64);
  argMax.operation(OpType::ArgMax, "ARG_MAX", {ifm, axis}, {ofm});
  BOOST_TEST(argMax.diagnose().supported);

  TestGraph batched = fullyConnected();
  batched.tensor("ifm").shape = npu::Shape{4, 16};
  batched.tensor("ofm").shape = npu::Shape{4, 8};
  BOOST_TEST(batched.diagnose().supported);
}

BOOST_AUTO_TEST_CASE(npu_constraint_failures_are_reported_as_such) {
  TestGraph g = binary(OpType::Maximum, "MAXIMUM", DataType::Int64);
  BOOST_TEST((g.diagnose().stage == SupportStage::NpuConstraint));
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace ethosu::test
