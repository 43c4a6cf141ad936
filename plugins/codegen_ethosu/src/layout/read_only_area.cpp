// SPDX-License-Identifier: Apache-2.0
#include "layout/read_only_area.hpp"

#include "ethosu/architecture/variant.hpp"
#include "ethosu/weights/byte_hash.hpp"

#include "npu/core/diagnostics.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <span>

namespace ethosu::codegen {

namespace {

constexpr std::int64_t kAllocationQuantum = 16; // Vela: Tensor.AllocationQuantum

/// The tensors a pass touches, in Vela's pass order: inputs (reversed with swapped operands; a lookup
/// table last, as pass packing keeps it apart), outputs, intermediates.
std::vector<npu::TensorId> passTensors(const npu::Operation& op, bool reversedOperands) {
  std::vector<npu::TensorId> tensors = op.inputs;
  if (op.activation && op.activation->lut != npu::kNoTensor) {
    tensors.push_back(op.activation->lut);
  }
  if (reversedOperands) {
    std::reverse(tensors.begin(), tensors.end());
  }
  tensors.insert(tensors.end(), op.outputs.begin(), op.outputs.end());
  tensors.insert(tensors.end(), op.intermediates.begin(), op.intermediates.end());
  return tensors;
}

/// Bytes a constant takes in the area (Vela: Tensor.storage_size). A raw bias counts in its encoded
/// element size: Vela sets it on the tensor when it encodes the scales (weight_compressor.py), before
/// permanent storage is laid out.
std::int64_t storageBytes(const npu::Tensor& tensor) {
  const std::int64_t bytes = tensor.purpose == npu::TensorPurpose::ScalesBiases
                                 ? tensor.elements() * ethosu::CommonArchitecture::kEncodedScaleBiasBytes
                                 : tensor.byteSize();
  return npu::roundUp(std::max<std::int64_t>(bytes, 1), kAllocationQuantum);
}

} // namespace

std::int64_t storageKey(const npu::Subgraph& subgraph, npu::TensorId tensor) {
  const std::int64_t equivalence = subgraph.tensor(tensor).equivalenceId;
  return equivalence >= 0 ? (std::int64_t{1} << 40) + equivalence : tensor;
}

namespace {

/// Every operation's weights encoded for its block config and depth slicing, keyed by (schedule,
/// position). The encodings are independent and the codec dominates compile time on big networks, so
/// they run in parallel; the layout that follows is sequential and so deterministic.
std::map<std::pair<std::size_t, std::size_t>, std::shared_ptr<const npu::EncodedWeights>>
encodeAll(const npu::Graph& graph, std::span<const npu::Schedule> schedules, const npu::Accelerator& accelerator) {
  std::vector<std::pair<std::size_t, std::size_t>> jobs;
  for (std::size_t s = 0; s < schedules.size(); ++s) {
    for (std::size_t position = 0; position < schedules[s].operations.size(); ++position) {
      if (schedules[s].operations[position].weights) {
        jobs.emplace_back(s, position);
      }
    }
  }
  std::vector<std::shared_ptr<const npu::EncodedWeights>> encoded(jobs.size());
  tbb::parallel_for(std::size_t{0}, jobs.size(), [&](std::size_t job) {
    const npu::Schedule& schedule = schedules[jobs[job].first];
    const npu::ScheduledOperation& scheduled = schedule.operations[jobs[job].second];
    const npu::Subgraph& subgraph = graph.subgraphs.at(static_cast<std::size_t>(schedule.region.subgraph));
    encoded[job] = std::make_shared<const npu::EncodedWeights>(accelerator.weights().encode(
        subgraph, subgraph.operation(scheduled.op), scheduled.blockConfig, scheduled.weights->depthSlices, true));
  });
  std::map<std::pair<std::size_t, std::size_t>, std::shared_ptr<const npu::EncodedWeights>> result;
  for (std::size_t job = 0; job < jobs.size(); ++job) {
    result.emplace(jobs[job], std::move(encoded[job]));
  }
  return result;
}

/// A weight stream split into its two kinds of bytes: each core's scales and each core's weights of every
/// slice, concatenated (each part padded to 16 bytes as streamed).
struct StreamParts {
  std::vector<std::uint8_t> scales;
  std::vector<std::uint8_t> weights;
};

StreamParts splitStream(const npu::EncodedWeights& encoded) {
  StreamParts parts;
  for (const npu::EncodedWeightSlice& slice : encoded.slices) {
    std::int64_t core = slice.offset;
    for (std::size_t c = 0; c < slice.coreBytes.size(); ++c) {
      const std::int64_t scaleBytes = npu::roundUp(slice.coreScaleBytes[c], 16);
      const auto begin = encoded.stream.begin() + static_cast<std::ptrdiff_t>(core);
      parts.scales.insert(parts.scales.end(), begin, begin + static_cast<std::ptrdiff_t>(scaleBytes));
      parts.weights.insert(parts.weights.end(), begin + static_cast<std::ptrdiff_t>(scaleBytes),
                           begin + static_cast<std::ptrdiff_t>(npu::roundUp(slice.coreBytes[c], 16)));
      core += npu::roundUp(slice.coreBytes[c], 16);
    }
  }
  return parts;
}

/// A hash of some bytes, to find identical streams without comparing every pair.
std::uint64_t bytesHash(const std::vector<std::uint8_t>& bytes) {
  return weights::hashBytes(std::as_bytes(std::span<const std::uint8_t>(bytes)));
}

/// What Vela compares to share the scales of an encoding (weight_compressor.ScaleCompressionConfig): the
/// bias tensor's value, and the operation's IFM and OFM scales.
using ScaleIdentity = std::tuple<std::int64_t, double, double>;

ScaleIdentity scaleIdentityOf(const npu::Subgraph& subgraph, const npu::Operation& op) {
  const auto scaleOf = [&](npu::TensorId tensor) {
    const npu::Quantisation& quantisation = subgraph.tensor(tensor).quantisation;
    return quantisation.scale.empty() ? -1.0 : quantisation.scaleAt(0);
  };
  const npu::TensorId bias = op.bias();
  return {subgraph.validTensorId(bias) ? storageKey(subgraph, bias) : -1, scaleOf(op.ifm()), scaleOf(op.ofm())};
}

/// A weight stream stored in the area, found again by its weights.
struct StoredStream {
  OperationWeights weights;
  StreamParts parts;
  std::pair<int, std::int64_t> weightIdentity; ///< (subgraph, storage key) of the weight tensor
  ScaleIdentity scaleIdentity;
};

} // namespace

ReadOnlyArea::ReadOnlyArea(const npu::Graph& graph, std::span<const npu::Schedule> schedules,
                           const npu::Accelerator& accelerator) {
  auto encodings = encodeAll(graph, schedules, accelerator);
  std::multimap<std::uint64_t, StoredStream> storedStreams; ///< by the hash of their weights
  for (std::size_t s = 0; s < schedules.size(); ++s) {
    const npu::Schedule& schedule = schedules[s];
    const int subgraphIndex = schedule.region.subgraph;
    const npu::Subgraph& subgraph = graph.subgraphs.at(static_cast<std::size_t>(subgraphIndex));
    for (const npu::ScheduledOperation& scheduled : schedule.operations) {
      const npu::Operation& op = subgraph.operation(scheduled.op);
      // Only the feature maps an operation reads and its lookup table are copied in; other constants
      // (a raw bias, a RESHAPE's shape) take space but stay zero (npu_serialisation.py).
      const npu::TensorId lookupTable = op.activation ? op.activation->lut : npu::kNoTensor;
      for (const npu::TensorId tensor : passTensors(op, scheduled.reversedOperands)) {
        if (subgraph.validTensorId(tensor) && subgraph.tensor(tensor).isConstant() &&
            subgraph.tensor(tensor).purpose != npu::TensorPurpose::Weights) {
          const bool copied = tensor == op.ifm() || tensor == op.ifm2() || tensor == lookupTable;
          addConstant(subgraph, subgraphIndex, tensor, copied);
        }
      }
    }
    // Then the weight streams, in execution order. Operations with the same weight tensor (or an equivalent
    // one) and equal encodings share one stream when their scale configs agree too; when only the weights
    // agree (e.g. the shared all-ones weights of MEANs of different quantisation) the operation stores its
    // scales alone (weight_compressor.encode_weight_and_scale_tensor). Equal bytes of different weight
    // tensors are stored twice, as Vela stores them.
    for (std::size_t position = 0; position < schedule.operations.size(); ++position) {
      const auto encoding = encodings.find({s, position});
      if (encoding == encodings.end()) {
        continue;
      }
      const npu::Operation& op = subgraph.operation(schedule.operations[position].op);
      StoredStream candidate{OperationWeights{encoding->second, -1, std::nullopt},
                             splitStream(*encoding->second),
                             {subgraphIndex, storageKey(subgraph, op.weights())},
                             scaleIdentityOf(subgraph, op)};
      const std::uint64_t hash = bytesHash(candidate.parts.weights);
      OperationWeights weights = candidate.weights;
      for (auto [stored, last] = storedStreams.equal_range(hash); stored != last; ++stored) {
        if (stored->second.parts.weights != candidate.parts.weights) {
          continue;
        }
        if (stored->second.weightIdentity != candidate.weightIdentity) {
          continue; // equal bytes of another weight tensor are stored again, as Vela does
        }
        if (stored->second.scaleIdentity == candidate.scaleIdentity &&
            stored->second.parts.scales == candidate.parts.scales) {
          weights = stored->second.weights;
          break;
        }
        weights = stored->second.weights;
        weights.encoded = candidate.weights.encoded;
        const auto& scales = candidate.parts.scales;
        const npu::TensorId bias = op.bias();
        const std::string name =
            subgraph.validTensorId(bias) ? subgraph.tensor(bias).name : subgraph.tensor(op.weights()).name + "_scales";
        weights.scaleAddress = allocate(name + "_npu_encoded_weights", static_cast<std::int64_t>(scales.size()));
        std::copy(scales.begin(), scales.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(*weights.scaleAddress));
        break;
      }
      if (weights.address < 0) {
        const auto& stream = weights.encoded->stream;
        weights.address = allocate(subgraph.tensor(op.weights()).name + "_npu_encoded_weights",
                                   static_cast<std::int64_t>(stream.size()));
        std::copy(stream.begin(), stream.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(weights.address));
        candidate.weights = weights;
        storedStreams.emplace(hash, std::move(candidate));
      }
      weights_.emplace(std::pair{s, position}, std::move(weights));
    }
  }
}

std::int64_t scaleOnlyOffset(const npu::EncodedWeights& encoded, int depth, std::size_t core) {
  std::int64_t offset = 0;
  for (const npu::EncodedWeightSlice& slice : encoded.slices) {
    for (std::size_t c = 0; c < slice.coreBytes.size(); ++c) {
      if (slice.depthStart == depth && c == core) {
        return offset;
      }
      offset += npu::roundUp(slice.coreScaleBytes[c], 16);
    }
  }
  npu::throwInternalError("no weight slice starting at channel " + std::to_string(depth));
}

void ReadOnlyArea::addConstant(const npu::Subgraph& subgraph, int subgraphIndex, npu::TensorId tensor, bool copied) {
  const auto key = std::pair{subgraphIndex, storageKey(subgraph, tensor)};
  if (const auto stored = constants_.find(key); stored != constants_.end()) {
    if (copied) {
      const auto data = subgraph.tensor(tensor).bytes();
      std::copy(data.begin(), data.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(stored->second));
    }
    return;
  }
  const npu::Tensor& constant = subgraph.tensor(tensor);
  const std::int64_t address = allocate(constant.name, storageBytes(constant));
  constants_.emplace(key, address);
  if (copied) {
    const auto data = constant.bytes();
    std::copy(data.begin(), data.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(address));
  }
}

std::int64_t ReadOnlyArea::allocate(const std::string& name, std::int64_t bytes) {
  const auto address = static_cast<std::int64_t>(bytes_.size());
  const std::int64_t size = npu::roundUp(std::max<std::int64_t>(bytes, 1), kAllocationQuantum);
  bytes_.resize(static_cast<std::size_t>(address + size), 0);
  entries_.push_back(ReadOnlyEntry{name, address, size});
  return address;
}

std::optional<std::int64_t> ReadOnlyArea::constantAddress(const npu::Subgraph& subgraph, int subgraphIndex,
                                                          npu::TensorId tensor) const {
  const auto it = constants_.find(std::pair{subgraphIndex, storageKey(subgraph, tensor)});
  return it == constants_.end() ? std::nullopt : std::optional(it->second);
}

const OperationWeights* ReadOnlyArea::weights(std::size_t schedule, std::size_t position) const {
  const auto it = weights_.find(std::pair{schedule, position});
  return it == weights_.end() ? nullptr : &it->second;
}

} // namespace ethosu::codegen
