// SPDX-License-Identifier: Apache-2.0
#include "tensor_reader.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

namespace npu::tflite_frontend::detail {

namespace {

// Far above any real model, low enough that elements * bytes can never overflow an int64.
constexpr std::int64_t kMaxElements = std::int64_t{1} << 48;

Shape readShape(const ReaderContext& context, const tflite::Tensor& tensor, const std::string& who) {
  std::vector<int> dims;
  if (tensor.shape() == nullptr) {
    return Shape(std::move(dims));
  }
  dims.reserve(tensor.shape()->size());
  std::int64_t elements = 1;
  for (const std::int32_t dim : *tensor.shape()) {
    if (dim < 0) {
      context.fail("the shape has a negative dimension (" + std::to_string(dim) + ")", who,
                   "dynamic shapes are not supported; convert the model with fixed input shapes");
    }
    if (dim > 0 && elements > kMaxElements / dim) {
      context.fail("the shape is too large (more than 2^48 elements)", who);
    }
    elements *= dim;
    dims.push_back(dim);
  }
  return Shape(std::move(dims));
}

/// The values of an int64 vector. The flatbuffers verifier only proves 4-byte alignment of a vector's
/// data, so 8-byte elements are copied out byte-wise rather than read in place.
std::vector<std::int64_t> unalignedInt64s(const flatbuffers::Vector<std::int64_t>& values) {
  std::vector<std::int64_t> result(values.size());
  if (!result.empty()) {
    std::memcpy(result.data(), values.Data(), result.size() * sizeof(std::int64_t));
  }
  return result; // little-endian files on little-endian hosts, as everywhere else in the reader
}

std::optional<double> singleValue(const flatbuffers::Vector<float>* values) {
  if (values == nullptr || values->size() != 1) {
    return std::nullopt;
  }
  return static_cast<double>(values->Get(0));
}

Quantisation readQuantisation(const ReaderContext& context, const tflite::QuantizationParameters* parameters,
                              const Shape& shape, const std::string& who) {
  Quantisation quantisation;
  if (parameters == nullptr) {
    return quantisation;
  }
  if (parameters->scale() != nullptr) {
    for (const float scale : *parameters->scale()) {
      if (!std::isfinite(scale) || scale < 0.0F) {
        std::ostringstream text;
        text << "the quantisation scale " << scale << " is not a finite, non-negative number";
        context.fail(text.str(), who);
      }
      quantisation.scale.push_back(static_cast<double>(scale));
    }
  }
  if (parameters->zero_point() != nullptr) {
    quantisation.zeroPoint = unalignedInt64s(*parameters->zero_point());
  }
  quantisation.axis = parameters->quantized_dimension();
  quantisation.min = singleValue(parameters->min());
  quantisation.max = singleValue(parameters->max());

  const std::size_t scales = quantisation.scale.size();
  const std::size_t zeroPoints = quantisation.zeroPoint.size();
  if (zeroPoints > 1 && zeroPoints != scales) {
    context.fail("the quantisation has " + std::to_string(zeroPoints) + " zero points but " + std::to_string(scales) +
                     " scales",
                 who, "per-axis quantisation needs one zero point per scale (or a single one)");
  }
  if (scales > 1) {
    // Old converters (TOCO) wrote the weights' quantized_dimension (3) on 1-D biases too; TFLite Micro
    // accepts such files and the only axis a 1-D tensor has is 0.
    if (shape.rank() == 1 && static_cast<std::size_t>(shape[0]) == scales) {
      quantisation.axis = 0;
    }
    if (quantisation.axis < 0 || quantisation.axis >= shape.rank()) {
      context.fail("the quantized_dimension " + std::to_string(quantisation.axis) + " is not an axis of shape " +
                       shape.str(),
                   who);
    }
    if (static_cast<std::size_t>(shape[quantisation.axis]) != scales) {
      context.fail("per-axis quantisation has " + std::to_string(scales) + " scales for dimension " +
                       std::to_string(quantisation.axis) + " of size " + std::to_string(shape[quantisation.axis]),
                   who);
    }
  }
  return quantisation;
}

std::int64_t expectedDataBytes(const Tensor& tensor) {
  if (tensor.type == DataType::Int4) {
    return (tensor.elements() + 1) / 2; // two values per byte
  }
  return tensor.elements() * bytesOf(tensor.type);
}

} // namespace

std::optional<DataType> dataTypeOf(tflite::TensorType type) {
  using T = tflite::TensorType;
  switch (type) {
  case T::FLOAT32:
    return DataType::Float32;
  case T::FLOAT16:
    return DataType::Float16;
  case T::INT32:
    return DataType::Int32;
  case T::UINT8:
    return DataType::UInt8;
  case T::INT64:
    return DataType::Int64;
  case T::STRING:
    return DataType::String;
  case T::BOOL:
    return DataType::Bool;
  case T::INT16:
    return DataType::Int16;
  case T::COMPLEX64:
    return DataType::Complex64;
  case T::INT8:
    return DataType::Int8;
  case T::FLOAT64:
    return DataType::Float64;
  case T::COMPLEX128:
    return DataType::Complex128;
  case T::UINT64:
    return DataType::UInt64;
  case T::RESOURCE:
    return DataType::Resource;
  case T::VARIANT:
    return DataType::Variant;
  case T::UINT32:
    return DataType::UInt32;
  case T::UINT16:
    return DataType::UInt16;
  case T::INT4:
    return DataType::Int4;
  case T::BFLOAT16:
    return DataType::BFloat16;
  }
  return std::nullopt;
}

Tensor readTensor(ReaderContext& context, const tflite::Tensor& source, std::size_t subgraph, std::size_t index) {
  Tensor tensor;
  tensor.name = source.name() == nullptr ? std::string() : source.name()->str();
  const std::string who = describeTensor(subgraph, index, tensor.name);
  if (tensor.name.empty()) {
    tensor.name = "tensor_" + std::to_string(index);
  }

  tensor.shape = readShape(context, source, who);
  const std::optional<DataType> type = dataTypeOf(source.type());
  if (!type) {
    context.fail("unknown tensor type " + std::to_string(static_cast<int>(source.type())), who,
                 "the file may be damaged, or written by a newer TensorFlow than this frontend knows");
  }
  tensor.type = *type;
  tensor.quantisation = readQuantisation(context, source.quantization(), tensor.shape, who);
  tensor.isVariable = source.is_variable();

  const std::uint32_t bufferIndex = source.buffer();
  if (bufferIndex >= context.bufferCount()) {
    context.fail("buffer index " + std::to_string(bufferIndex) + " is out of range (the model has " +
                     std::to_string(context.bufferCount()) + " buffers)",
                 who);
  }
  tensor.data = context.buffer(bufferIndex, who);
  if (tensor.data != nullptr && source.sparsity() != nullptr) {
    context.fail("the tensor's data is stored sparse, which is not supported", who,
                 "convert the model without sparsity (dense constant tensors)");
  }
  if (tensor.data != nullptr) {
    if (bytesOf(tensor.type) > 0 && static_cast<std::int64_t>(tensor.data->size()) != expectedDataBytes(tensor)) {
      context.fail("buffer " + std::to_string(bufferIndex) + " holds " + std::to_string(tensor.data->size()) +
                       " bytes but shape " + tensor.shape.str() + " of " + std::string(nameOf(tensor.type)) +
                       " needs " + std::to_string(expectedDataBytes(tensor)),
                   who);
    }
    tensor.equivalenceId = bufferIndex;
    tensor.purpose = TensorPurpose::Unknown; // constants: lowering decides (weights, biases, LUTs, ...)
  } else {
    tensor.purpose = TensorPurpose::FeatureMap;
  }
  return tensor;
}

} // namespace npu::tflite_frontend::detail
