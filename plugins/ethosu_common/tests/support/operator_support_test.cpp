// SPDX-License-Identifier: Apache-2.0
// The checker as a whole: the order of Vela's stages, operator types the NPU does not know, the
// asymmetric-weights check, the verdict and log texts, and independence from variant and thread.

#include "test_operations.hpp"

#include <thread>

namespace ethosu::test {
namespace {

TestGraph svdf() {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 96});
  const auto ofm = g.featureMap("ofm", {1, 64});
  g.operation(OpType::Svdf, "SVDF", {ifm}, {ofm});
  return g;
}

TestGraph asymmetricConvolution() {
  TestGraph g = convolution();
  g.tensor("weights").quantisation.zeroPoint = {3};
  return g;
}

} // namespace

BOOST_AUTO_TEST_SUITE(operator_support)

BOOST_AUTO_TEST_CASE(operator_types_outside_the_npu_set_are_cpu_only) {
  const SupportDiagnosis diagnosis = svdf().diagnose();
  BOOST_TEST(!diagnosis.supported);
  BOOST_TEST((diagnosis.stage == SupportStage::OperatorType));
  BOOST_TEST(diagnosis.constraint == "operator_type");
  BOOST_TEST(diagnosis.reason() == "Op type is not supported by the NPU (a CPU only op) (Op type is SVDF)");
}

BOOST_AUTO_TEST_CASE(custom_operators_stay_on_the_cpu_under_their_tflite_name) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8});
  const auto ofm = g.featureMap("ofm", {1, 8});
  g.operation(OpType::Custom, "CUSTOM:TFLite_Detection_PostProcess", {ifm}, {ofm});
  const SupportDiagnosis diagnosis = g.diagnose();
  BOOST_TEST(diagnosis.constraint == "operator_type");
  BOOST_TEST(velaLogText(diagnosis, g.the()) == "Info: CUSTOM 'ofm' is a CPU only op\n");
}

BOOST_AUTO_TEST_CASE(semantic_checks_come_before_the_operator_type) {
  // Vela's semantic checker sees every operator first: a float DEQUANTIZE fails for missing quantisation
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8});
  const auto ofm = g.featureMap("Identity", {1, 8}, DataType::Float32);
  g.tensor("Identity").quantisation = {};
  g.operation(OpType::Dequantize, "DEQUANTIZE", {ifm}, {ofm});
  const SupportDiagnosis diagnosis = g.diagnose();
  BOOST_TEST(diagnosis.constraint == "tens_quant_none_check");
  BOOST_TEST(velaLogText(diagnosis, g.the()) ==
             "Warning: Unsupported TensorFlow Lite semantics for DEQUANTIZE 'Identity'. Placing on CPU instead\n"
             " - Input(s), Output and Weight tensors must have quantization parameters\n"
             "   Op has tensors with missing quantization parameters: Identity\n");
}

BOOST_AUTO_TEST_CASE(npu_failures_print_like_vela_with_multi_line_constraint_texts) {
  TestGraph g = transposeConvolution();
  g.the().kernel = kernelOf(3, 3, 2, 1);
  const SupportDiagnosis diagnosis = g.diagnose();
  BOOST_TEST(velaLogText(diagnosis, g.the()) ==
             "Warning: TRANSPOSE_CONV 'ofm' is not supported on the NPU. Placing on CPU instead\n"
             " - Stride values for width and height must match one of the following criteria:\n"
             "        Stride values WxH must be 1x1 or 2x2\n"
             "        Stride WxH 2x1 supported if ifm height and kernel height = 1\n"
             "   Op has ifm_height=4, kernel_height=3 and stride WxH as 2x1\n");
  BOOST_TEST(diagnosis.reason() ==
             "Stride values for width and height must match one of the following criteria: Stride values WxH must be "
             "1x1 or 2x2 Stride WxH 2x1 supported if ifm height and kernel height = 1 (Op has ifm_height=4, "
             "kernel_height=3 and stride WxH as 2x1)");
}

BOOST_AUTO_TEST_CASE(the_verdict_carries_the_constraint_id_and_a_one_line_reason) {
  TestGraph g = pooling(OpType::MaxPool);
  g.the().kernel = kernelOf(4, 4, 4, 4);
  const npu::SupportVerdict verdict = OperatorSupportChecker().check(g.subgraph, g.the());
  BOOST_TEST(!verdict.supported);
  BOOST_TEST(verdict.constraint == "stride_range");
  BOOST_TEST(verdict.reason ==
             "Stride values for both width and height must be in the range [1, 3] (Op has stride WxH as: 4x4)");
  const npu::SupportVerdict accepted = OperatorSupportChecker().check(convolution().subgraph, convolution().the());
  BOOST_TEST(accepted.supported);
  BOOST_TEST(accepted.reason.empty());
}

BOOST_AUTO_TEST_CASE(asymmetric_int8_weights_put_a_convolution_on_the_cpu_unless_forced_symmetric) {
  const TestGraph g = asymmetricConvolution();
  const SupportDiagnosis diagnosis = g.diagnose();
  BOOST_TEST(diagnosis.constraint == "asymmetric_weights");
  BOOST_TEST(velaLogText(diagnosis, g.subgraph.operation(g.op)) ==
             "Warning: Op Conv2DBias 'ofm' has asymmetric weights. To run the operator on Ethos-U use the option "
             "--force-symmetric-int-weights\n");
  SupportArchitecture forced;
  forced.forceSymmetricIntWeights = true;
  BOOST_TEST(g.diagnose(forced).supported);
}

BOOST_AUTO_TEST_CASE(asymmetric_uint8_weights_are_fine) {
  TestGraph g = asymmetricConvolution();
  for (const char* name : {"ifm", "ofm", "weights"}) {
    g.tensor(name).type = DataType::UInt8;
  }
  g.setValues("weights", std::vector<std::int64_t>(8 * 3 * 3 * 4, 1));
  BOOST_TEST(g.diagnose().supported);
}

BOOST_AUTO_TEST_CASE(semantic_and_npu_stages_can_be_asked_separately) {
  TestGraph g = svdf();
  const OperatorSupportChecker checker;
  BOOST_TEST(checker.checkSemantics(g.subgraph, g.the()).supported);
  BOOST_TEST(!checker.checkNpuConstraints(g.subgraph, g.the()).supported);
}

BOOST_AUTO_TEST_CASE(graph_placeholders_are_never_checked) {
  TestGraph g;
  const auto ofm = g.featureMap("input", {1, 8}, DataType::Float32);
  g.operation(OpType::Placeholder, "", {}, {ofm});
  BOOST_TEST(g.diagnose().supported);
}

BOOST_AUTO_TEST_CASE(every_variant_accepts_and_rejects_the_same_operations) {
  // Vela 3.10's supported-operator checks take no architecture: U55 and U65 agree at any MAC count
  const std::vector<TestGraph> graphs{convolution(),
                                      depthwiseConvolution(),
                                      transposeConvolution(),
                                      fullyConnected(),
                                      pooling(),
                                      asymmetricConvolution(),
                                      svdf()};
  for (const TestGraph& g : graphs) {
    const SupportDiagnosis reference = g.diagnose({NpuGeneration::EthosU55, 32, false});
    for (const SupportArchitecture architecture : {SupportArchitecture{NpuGeneration::EthosU55, 256, false},
                                                   SupportArchitecture{NpuGeneration::EthosU65, 256, false},
                                                   SupportArchitecture{NpuGeneration::EthosU65, 512, false}}) {
      const SupportDiagnosis diagnosis = g.diagnose(architecture);
      BOOST_TEST(diagnosis.supported == reference.supported);
      BOOST_TEST(diagnosis.constraint == reference.constraint);
    }
  }
}

BOOST_AUTO_TEST_CASE(concurrent_checks_give_the_same_answers) {
  const TestGraph g = transposeConvolution();
  const OperatorSupportChecker checker;
  const SupportDiagnosis expected = checker.diagnose(g.subgraph, g.subgraph.operation(g.op));
  std::vector<SupportDiagnosis> results(8);
  {
    std::vector<std::jthread> threads;
    for (auto& result : results) {
      threads.emplace_back([&] { result = checker.diagnose(g.subgraph, g.subgraph.operation(g.op)); });
    }
  }
  for (const SupportDiagnosis& result : results) {
    BOOST_TEST(result.supported == expected.supported);
    BOOST_TEST(result.detail == expected.detail);
  }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace ethosu::test
