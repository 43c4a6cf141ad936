// SPDX-License-Identifier: Apache-2.0
#include "ethosu_lowering/rewrite_support.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

namespace ethosu::lowering {

using namespace npu;

Operation deriveOperation(const Operation& origin, OpType type, std::string name) {
  Operation op;
  op.type = type;
  op.name = std::move(name);
  op.sourceType = origin.sourceType;
  op.sourceIndex = origin.sourceIndex;
  op.placement = Placement::Npu;
  // A new operation's original type is the one it was created with (Vela: Operation.original_type);
  // code generation chooses the rounding of 16-bit convolutions by it.
  op.attributes.set("original_type", std::string(nameOf(type)));
  return op;
}

TensorId addFeatureMap(Subgraph& subgraph, std::string name, Shape shape, DataType type, Quantisation quantisation) {
  Tensor tensor;
  tensor.name = std::move(name);
  tensor.shape = std::move(shape);
  tensor.type = type;
  tensor.quantisation = std::move(quantisation);
  tensor.purpose = TensorPurpose::FeatureMap;
  return subgraph.addTensor(std::move(tensor));
}

namespace {
template <typename T>
void appendLittleEndian(std::vector<std::uint8_t>& bytes, T value) {
  std::array<std::uint8_t, sizeof(T)> raw{};
  std::memcpy(raw.data(), &value, sizeof(T));
  bytes.insert(bytes.end(), raw.begin(), raw.end());
}

std::vector<std::uint8_t> encodeValues(DataType type, std::span<const std::int64_t> values) {
  std::vector<std::uint8_t> bytes;
  bytes.reserve(values.size() * static_cast<std::size_t>(std::max(bytesOf(type), 1)));
  for (const std::int64_t value : values) {
    switch (type) {
    case DataType::Bool:
    case DataType::UInt8:
      appendLittleEndian(bytes, static_cast<std::uint8_t>(value));
      break;
    case DataType::Int8:
      appendLittleEndian(bytes, static_cast<std::int8_t>(value));
      break;
    case DataType::Int16:
      appendLittleEndian(bytes, static_cast<std::int16_t>(value));
      break;
    case DataType::UInt16:
      appendLittleEndian(bytes, static_cast<std::uint16_t>(value));
      break;
    case DataType::Int32:
      appendLittleEndian(bytes, static_cast<std::int32_t>(value));
      break;
    case DataType::UInt32:
      appendLittleEndian(bytes, static_cast<std::uint32_t>(value));
      break;
    case DataType::Int64:
    case DataType::UInt64:
      appendLittleEndian(bytes, value);
      break;
    case DataType::Float32:
      appendLittleEndian(bytes, static_cast<float>(value));
      break;
    default:
      throwInternalError("cannot create a constant of type " + std::string(nameOf(type)));
    }
  }
  return bytes;
}
} // namespace

TensorId addConstant(Subgraph& subgraph, std::string name, Shape shape, DataType type,
                     std::span<const std::int64_t> values, Quantisation quantisation, TensorPurpose purpose) {
  require(static_cast<std::int64_t>(values.size()) == shape.elements(), "constant values must fill the shape");
  Tensor tensor;
  tensor.name = std::move(name);
  tensor.shape = std::move(shape);
  tensor.type = type;
  tensor.quantisation = std::move(quantisation);
  tensor.purpose = purpose;
  tensor.data = std::make_shared<const std::vector<std::uint8_t>>(encodeValues(type, values));
  return subgraph.addTensor(std::move(tensor));
}

TensorId cloneTensor(Subgraph& subgraph, TensorId source, const std::string& suffix) {
  Tensor copy = subgraph.tensor(source);
  copy.name += suffix;
  copy.data.reset();
  copy.equivalenceId = -1;
  copy.purpose = TensorPurpose::FeatureMap;
  copy.isVariable = false;
  return subgraph.addTensor(std::move(copy));
}

Shape4 shape4Of(const Subgraph& subgraph, TensorId tensor) {
  return Shape4::fromShape(subgraph.tensor(tensor).shape);
}

Shape toShape(const Shape4& shape) {
  return Shape{shape.batch, shape.height, shape.width, shape.depth};
}

Shape4 shape4FromList(const std::vector<std::int64_t>& values, int fill) {
  std::array<int, 4> dims{fill, fill, fill, fill};
  const std::size_t count = std::min<std::size_t>(values.size(), 4);
  for (std::size_t i = 0; i < count; ++i) {
    dims[4 - count + i] = static_cast<int>(values[values.size() - count + i]);
  }
  return {dims[0], dims[1], dims[2], dims[3]};
}

namespace {
/// Equivalence ids of constants shared by content start here, apart from every other id.
constexpr std::int64_t kContentEquivalenceBase = std::int64_t{1} << 36;
} // namespace

std::int64_t freshEquivalenceId(const Subgraph& subgraph) {
  std::int64_t largest = -1;
  for (const Tensor& tensor : subgraph.tensors) {
    if (tensor.equivalenceId < kContentEquivalenceBase) {
      largest = std::max(largest, tensor.equivalenceId);
    }
  }
  return largest + 1;
}

bool isSharedByContent(const Tensor& tensor) {
  return tensor.equivalenceId >= kContentEquivalenceBase;
}

void shareByContent(Subgraph& subgraph, TensorId tensor) {
  const std::vector<double> values = subgraph.tensor(tensor).floatValues();
  std::int64_t next = kContentEquivalenceBase;
  for (TensorId other = 0; other < static_cast<TensorId>(subgraph.tensors.size()); ++other) {
    const Tensor& candidate = subgraph.tensor(other);
    if (other == tensor || candidate.equivalenceId < kContentEquivalenceBase) {
      continue;
    }
    if (candidate.isConstant() && candidate.floatValues() == values) {
      subgraph.tensor(tensor).equivalenceId = candidate.equivalenceId;
      return;
    }
    next = std::max(next, candidate.equivalenceId + 1);
  }
  subgraph.tensor(tensor).equivalenceId = next;
}

Quantisation unitQuantisation() {
  Quantisation quantisation;
  quantisation.scale = {1.0};
  quantisation.zeroPoint = {0};
  return quantisation;
}

Quantisation withoutScale(const Quantisation& quantisation) {
  Quantisation result;
  result.zeroPoint = quantisation.zeroPoint.empty() ? std::vector<std::int64_t>{0} : quantisation.zeroPoint;
  return result;
}

std::int64_t quantisedMin(DataType type) {
  switch (type) {
  case DataType::Int8:
    return -128;
  case DataType::Int16:
    return -32768;
  case DataType::Int32:
    return std::numeric_limits<std::int32_t>::min();
  case DataType::Int64:
    return std::numeric_limits<std::int64_t>::min();
  default:
    return 0;
  }
}

std::int64_t quantisedMax(DataType type) {
  switch (type) {
  case DataType::Int8:
    return 127;
  case DataType::UInt8:
    return 255;
  case DataType::Int16:
    return 32767;
  case DataType::UInt16:
    return 65535;
  case DataType::Int32:
    return std::numeric_limits<std::int32_t>::max();
  case DataType::UInt32:
    return std::numeric_limits<std::uint32_t>::max();
  default:
    return std::numeric_limits<std::int64_t>::max();
  }
}

bool sameScaling(const Tensor& a, const Tensor& b) {
  return a.quantisation.scale == b.quantisation.scale && a.quantisation.zeroPoint == b.quantisation.zeroPoint;
}

void setDefaultShapes(const Subgraph& subgraph, Operation& op) {
  op.ifmShapes.clear();
  op.ofmShapes.clear();
  const auto fullShape = [&](TensorId id) { return shape4Of(subgraph, id); };
  if (is(op.type, OpCategory::Concat) || is(op.type, OpCategory::Split)) {
    for (TensorId input : op.inputs) {
      op.ifmShapes.push_back(input == kNoTensor ? Shape4{} : fullShape(input));
    }
    for (TensorId output : op.outputs) {
      op.ofmShapes.push_back(fullShape(output));
    }
    return;
  }
  if (op.type == OpType::FullyConnected && op.ifm() != kNoTensor && subgraph.tensor(op.ifm()).shape.rank() == 2) {
    const Shape& shape = subgraph.tensor(op.ifm()).shape;
    op.ifmShapes.push_back({shape[0], 1, 1, shape[1]});
  } else if (op.ifm() != kNoTensor) {
    op.ifmShapes.push_back(fullShape(op.ifm()));
  }
  if (op.type != OpType::FullyConnected && op.ifm2() != kNoTensor) {
    op.ifmShapes.push_back(fullShape(op.ifm2()));
  }
  if (op.ofm() != kNoTensor) {
    op.ofmShapes.push_back(fullShape(op.ofm()));
  }
}

QuantisedScale quantiseScale(double scale) {
  // Vela scaling.py quantise_scale: significand in Q31 and the matching right shift.
  int exponent = 0;
  const double significand = std::frexp(scale, &exponent);
  auto significandQ31 = static_cast<std::int64_t>(std::llround(significand * static_cast<double>(1LL << 31)));
  if (significandQ31 == (1LL << 31)) {
    significandQ31 /= 2;
    ++exponent;
  }
  const int shift = 31 - exponent;
  if (shift < 0 || shift >= 64) {
    return {0, 16}; // Vela: a shift the hardware cannot express gives a zero scale
  }
  return {static_cast<std::int32_t>(significandQ31), shift};
}

void setExplicitScaling(Operation& op, std::vector<std::int64_t> shifts, std::vector<std::int64_t> multipliers) {
  op.attributes.set("explicit_scaling_shift", std::move(shifts));
  op.attributes.set("explicit_scaling_multiplier", std::move(multipliers));
}

Activation activationFromOperation(const Operation& op) {
  Activation activation = op.activation.value_or(Activation{});
  activation.type = op.type;
  switch (op.type) {
  case OpType::Relu:
    activation.min = 0.0;
    break;
  case OpType::Relu6:
    activation.min = 0.0;
    activation.max = 6.0;
    break;
  case OpType::ReluN1To1:
    activation.min = -1.0;
    activation.max = 1.0;
    break;
  case OpType::Relu0To1:
  case OpType::Sigmoid: // Vela's create_activation_function clamps both to their output range
    activation.min = 0.0;
    activation.max = 1.0;
    break;
  case OpType::Tanh:
    activation.min = -1.0;
    activation.max = 1.0;
    break;
  default:
    break;
  }
  return activation;
}

void setLutActivation(Operation& op, TensorId lut) {
  Activation activation;
  activation.type = OpType::LUT;
  activation.lut = lut;
  op.activation = activation;
}

namespace {

/// consumerCount's walk, over every operation or only those `counted` marks.
int countConsumers(const Subgraph& subgraph, TensorId tensor, const std::vector<bool>* counted) {
  int count = isSubgraphOutput(subgraph, tensor) ? 1 : 0;
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const auto& inputs = subgraph.operations[i].inputs;
    if ((counted == nullptr || (*counted)[i]) && std::find(inputs.begin(), inputs.end(), tensor) != inputs.end()) {
      ++count;
    }
  }
  return count;
}

} // namespace

int consumerCount(const Subgraph& subgraph, TensorId tensor) {
  return countConsumers(subgraph, tensor, nullptr);
}

int consumerCount(const Subgraph& subgraph, TensorId tensor, const std::vector<bool>& counted) {
  return countConsumers(subgraph, tensor, &counted);
}

std::vector<OperationId> producersOf(const Subgraph& subgraph, TensorId tensor) {
  std::vector<OperationId> result;
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const auto& outputs = subgraph.operations[i].outputs;
    if (std::find(outputs.begin(), outputs.end(), tensor) != outputs.end()) {
      result.push_back(static_cast<OperationId>(i));
    }
  }
  return result;
}

std::vector<OperationId> consumersOf(const Subgraph& subgraph, TensorId tensor) {
  std::vector<OperationId> result;
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const auto& inputs = subgraph.operations[i].inputs;
    if (std::find(inputs.begin(), inputs.end(), tensor) != inputs.end()) {
      result.push_back(static_cast<OperationId>(i));
    }
  }
  return result;
}

bool isSubgraphInput(const Subgraph& subgraph, TensorId tensor) {
  return std::find(subgraph.inputs.begin(), subgraph.inputs.end(), tensor) != subgraph.inputs.end();
}

bool isSubgraphOutput(const Subgraph& subgraph, TensorId tensor) {
  return std::find(subgraph.outputs.begin(), subgraph.outputs.end(), tensor) != subgraph.outputs.end();
}

void replaceTensorReads(Subgraph& subgraph, TensorId from, TensorId to) {
  for (Operation& op : subgraph.operations) {
    std::replace(op.inputs.begin(), op.inputs.end(), from, to);
  }
  std::replace(subgraph.outputs.begin(), subgraph.outputs.end(), from, to);
}

namespace {
constexpr int kMaximumRewriteDepth = 16;

void rewriteInto(Subgraph& subgraph, const OperationRewrite& rewrite, const Operation& op, int depth,
                 std::vector<Operation>& result) {
  if (depth > kMaximumRewriteDepth) {
    throwInternalError("lowering rewrites of '" + op.name + "' do not converge");
  }
  auto replacement = rewrite(subgraph, op);
  if (!replacement) {
    result.push_back(op);
    return;
  }
  for (const Operation& next : *replacement) {
    rewriteInto(subgraph, rewrite, next, depth + 1, result);
  }
}
} // namespace

void rewriteEach(Subgraph& subgraph, const OperationRewrite& rewrite) {
  std::vector<Operation> result;
  result.reserve(subgraph.operations.size());
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const Operation op = subgraph.operations[i];
    rewriteInto(subgraph, rewrite, op, 0, result);
  }
  subgraph.operations = std::move(result);
}

std::vector<std::int64_t> integerList(const Attributes& attributes, std::string_view key) {
  return attributes.getOr<std::vector<std::int64_t>>(key, {});
}

} // namespace ethosu::lowering
