// SPDX-License-Identifier: Apache-2.0
// Reasons table for the generic semantic constraints (Vela's TFLiteSemantic generic checks).

#include "test_operations.hpp"

#include <limits>

namespace ethosu::test {
namespace {

TestGraph add() { return binary(OpType::Add, "ADD"); }

const std::vector<ReasonCase> kGenericSemanticCases{
    {"attributes_specified",
     [](bool failing) {
       TestGraph g = add();
       if (failing) {
         g.the().attributes.set("attribute_read_error", std::string("fused_activation_function, pot_scale_int16"));
       }
       return g;
     },
     "Op has missing attributes: fused_activation_function, pot_scale_int16"},
    {"tens_no_dynamic",
     [](bool failing) {
       TestGraph g = add();
       g.tensor("ifm2").shape = npu::Shape{}; // a scalar IFM2 is fine for ADD when it is a constant
       if (!failing) {
         g.setValues("ifm2", {3});
       }
       return g;
     },
     "Op has dynamic tensor(s): ifm2"},
    {"tens_output_scalar",
     [](bool failing) {
       TestGraph g = add();
       if (failing) {
         g.tensor("ofm").shape = npu::Shape{};
         g.setValues("ofm", {0}); // constant, so not dynamic
       }
       return g;
     },
     "Output Tensor 'ofm' is scalar"},
    {"tens_input_scalar",
     [](bool failing) {
       TestGraph g = failing ? unary(OpType::Softmax, "SOFTMAX") : add();
       const std::string input = failing ? "ifm" : "ifm2";
       g.tensor(input).shape = npu::Shape{};
       g.setValues(input, {1});
       return g;
     },
     "Op has scalar input tensor(s): ifm"},
    {"tens_shape_size",
     [](bool failing) {
       TestGraph g = add();
       if (failing) {
         g.tensor("ifm").shape = npu::Shape{1, 1, 8, 8, 4};
       }
       return g;
     },
     "Tensor 'ifm' has shape: [1, 1, 8, 8, 4]"},
    {"tens_quant_none_check",
     [](bool failing) {
       TestGraph g = add();
       if (failing) {
         g.tensor("ifm2").quantisation = {};
         g.tensor("ofm").quantisation = {};
       }
       return g;
     },
     "Op has tensors with missing quantization parameters: ifm2, ofm"},
    {"tens_quant_scale",
     [](bool failing) {
       TestGraph g = add();
       g.tensor("ifm").quantisation.scale = {failing ? std::numeric_limits<double>::infinity() : 1e30};
       return g;
     },
     "Tensor 'ifm' has quantization scale: inf"},
    {"quant_scale_inf",
     [](bool failing) {
       TestGraph g = add();
       g.tensor("ofm").quantisation.scale = {failing ? 1e-39 : 1.2e-38};
       g.tensor("ifm").quantisation.scale = {1e-30};
       return g;
     },
     "The quantization scale of the output tensor is 1e-39, minimum supported is: 1.1754944e-38"},
    {"quant_scale_inf",
     [](bool failing) {
       TestGraph g = add();
       g.tensor("ifm").quantisation.scale = {failing ? 1e38 : 1e8};
       g.tensor("ofm").quantisation.scale = {1e-30};
       return g;
     },
     "IFM scale divided by OFM scale is infinite, ifm_scale=1e+38 ofm_scale=1e-30"},
    {"none_const_tensors",
     [](bool failing) {
       TestGraph g = add();
       if (failing) {
         g.detachFromGraphInputs("ifm2"); // no data, no producer, not an input: Vela's reader makes it a Const
       }
       return g;
     },
     "Unexpected None value for constant tensor: ifm2"},
};

} // namespace

BOOST_AUTO_TEST_SUITE(semantic_generic_constraints)

BOOST_AUTO_TEST_CASE(each_generic_semantic_constraint_accepts_a_valid_operation_and_names_what_breaks_it) {
  checkReasonTable(kGenericSemanticCases);
}

BOOST_AUTO_TEST_CASE(semantic_failures_are_reported_as_semantic) {
  TestGraph g = add();
  g.tensor("ifm").quantisation = {};
  BOOST_TEST((g.diagnose().stage == SupportStage::Semantic));
}

BOOST_AUTO_TEST_CASE(quantize_may_have_a_dynamic_input_and_a_scalar_output) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", npu::Shape{}, DataType::Int16);
  const auto ofm = g.featureMap("ofm", npu::Shape{}, DataType::Int8);
  g.operation(OpType::Quantize, "QUANTIZE", {ifm}, {ofm});
  const SupportDiagnosis diagnosis = g.diagnose();
  BOOST_TEST((diagnosis.stage != SupportStage::Semantic));
}

BOOST_AUTO_TEST_CASE(concatenation_checks_only_the_inputs_vela_takes_for_ifms) {
  // Vela's CONCATENATION has IFMs at inputs 1 and 2: input 0 escapes the generic quantisation check
  TestGraph g;
  const auto a = g.featureMap("a", {1, 4, 4, 2});
  const auto b = g.featureMap("b", {1, 4, 4, 2});
  const auto ofm = g.featureMap("ofm", {1, 4, 4, 4});
  g.operation(OpType::ConcatTFLite, "CONCATENATION", {a, b}, {ofm}).attributes.set("axis", std::int64_t{3});
  g.tensor("a").quantisation = {};
  BOOST_TEST(g.diagnose().supported);
  g.tensor("b").quantisation = {};
  BOOST_TEST(g.diagnose().constraint == "tens_quant_none_check");
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace ethosu::test
