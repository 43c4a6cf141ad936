// SPDX-License-Identifier: Apache-2.0
#pragma once
// Hand-made graphs and a test double of npu::Accelerator whose support() places on the CPU exactly the
// operation types a test names (everything else is supported); the other sub-interfaces are not needed
// by the lowering and throw.

#include "ethosu_lowering/passes.hpp"

#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"

#include <map>
#include <ostream>
#include <string>
#include <vector>

// Printers so Boost.Test can show IR values in failed checks.
namespace npu {
inline std::ostream& operator<<(std::ostream& out, OpType type) {
  return out << nameOf(type);
}
inline std::ostream& operator<<(std::ostream& out, TensorPurpose purpose) {
  return out << nameOf(purpose);
}
inline std::ostream& operator<<(std::ostream& out, TensorFormat format) {
  return out << nameOf(format);
}
inline std::ostream& operator<<(std::ostream& out, DataType type) {
  return out << nameOf(type);
}
inline std::ostream& operator<<(std::ostream& out, Resampling resampling) {
  return out << static_cast<int>(resampling);
}
inline std::ostream& operator<<(std::ostream& out, Placement placement) {
  return out << static_cast<int>(placement);
}
inline std::ostream& operator<<(std::ostream& out, Padding padding) {
  return out << static_cast<int>(padding);
}
inline std::ostream& operator<<(std::ostream& out, const ExplicitPadding& padding) {
  return out << "[" << padding.top << ", " << padding.left << ", " << padding.bottom << ", " << padding.right << "]";
}
} // namespace npu

namespace ethosu::lowering::test {

class FakeSupport final : public npu::OperatorSupport {
public:
  std::map<npu::OpType, std::string> unsupported; ///< type -> reason
  [[nodiscard]] npu::SupportVerdict check(const npu::Subgraph& subgraph, const npu::Operation& op) const override;
};

class FakeAccelerator final : public npu::Accelerator {
public:
  explicit FakeAccelerator(std::string variant = "ethos-u55-128");
  FakeSupport fakeSupport;
  [[nodiscard]] const npu::AcceleratorInfo& info() const override { return info_; }
  [[nodiscard]] const npu::MemorySystem& memory() const override;
  [[nodiscard]] const npu::OperatorSupport& support() const override { return fakeSupport; }
  [[nodiscard]] const npu::TensorLayout& layout() const override;
  [[nodiscard]] const npu::BlockConfigSelector& blockConfigs() const override;
  [[nodiscard]] const npu::WeightEncoder& weights() const override;
  [[nodiscard]] const npu::CostModel& costModel() const override;

private:
  npu::AcceleratorInfo info_;
};

/// Builds one subgraph operation by operation, like the TFLite frontend would.
class GraphBuilder {
public:
  GraphBuilder();
  npu::Graph graph;
  npu::Subgraph& subgraph() { return graph.subgraphs.front(); }

  npu::TensorId featureMap(const std::string& name, npu::Shape shape, npu::DataType type = npu::DataType::Int8,
                           double scale = 0.05, std::int64_t zeroPoint = 0);
  npu::TensorId input(const std::string& name, npu::Shape shape, npu::DataType type = npu::DataType::Int8);
  npu::TensorId constant(const std::string& name, npu::Shape shape, npu::DataType type,
                         const std::vector<std::int64_t>& values, double scale = 0.01);
  npu::TensorId weights(const std::string& name, npu::Shape shape);
  npu::Operation& operation(npu::OpType type, const std::string& sourceType, std::vector<npu::TensorId> inputs,
                            std::vector<npu::TensorId> outputs);
  /// A convolution ifm -> ofm with OHWI weights [ofmDepth, k, k, ifmDepth] and an int32 bias.
  npu::Operation& conv(npu::TensorId ifm, npu::TensorId ofm, int kernel = 1, int stride = 1,
                       npu::Padding padding = npu::Padding::Same);
  void output(npu::TensorId tensor) { subgraph().outputs.push_back(tensor); }
};

/// UNIDIRECTIONAL_SEQUENCE_LSTM "seq" over 2 time steps of 3 features into 4 cells, int8 with an int16 cell
/// state (TensorFlow Lite's operand order; variable states "ostate" and "cstate").
GraphBuilder lstmOverTwoTimeSteps(int batches = 1, bool timeMajor = false);

/// Lowers with verification after every pass.
npu::Graph lowerForTest(npu::Graph graph, const FakeAccelerator& accelerator);

/// Descriptions of the NPU operations whose type is not one the Ethos-U hardware runs (convolutions,
/// pooling, reduce sum, elementwise operations, Memcpy): empty when the lowering left nothing behind that
/// an accelerator could not execute.
std::vector<std::string> operationsTheNpuCannotRun(const npu::Graph& graph);

/// "Type:name" of each operation, for readable comparisons.
std::vector<std::string> describeOperations(const npu::Subgraph& subgraph);

} // namespace ethosu::lowering::test
