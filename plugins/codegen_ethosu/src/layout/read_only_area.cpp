#include "layout/read_only_area.hpp"

#include "ethosu/architecture/variant.hpp"

#include "npu/core/diagnostics.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>

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
std::map<std::pair<std::size_t, std::size_t>, std::shared_ptr<const npu::EncodedWeights>> encodeAll(
    const npu::Graph& graph, std::span<const npu::Schedule> schedules, const npu::Accelerator& accelerator) {
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

/// FNV-1a of a weight stream, to find identical streams without comparing every pair.
std::uint64_t streamHash(const std::vector<std::uint8_t>& stream) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const std::uint8_t byte : stream) {
    hash = (hash ^ byte) * 0x100000001b3ULL;
  }
  return hash;
}

} // namespace

ReadOnlyArea::ReadOnlyArea(const npu::Graph& graph, std::span<const npu::Schedule> schedules,
                           const npu::Accelerator& accelerator) {
  auto encodings = encodeAll(graph, schedules, accelerator);
  std::multimap<std::uint64_t, OperationWeights> storedStreams;
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
    // Then the weight streams, in execution order; an identical stream is stored once (Vela shares an
    // encoding between operations with equal weights and compression config).
    for (std::size_t position = 0; position < schedule.operations.size(); ++position) {
      const auto encoding = encodings.find({s, position});
      if (encoding == encodings.end()) {
        continue;
      }
      const npu::Operation& op = subgraph.operation(schedule.operations[position].op);
      OperationWeights weights{encoding->second, -1};
      const std::uint64_t hash = streamHash(weights.encoded->stream);
      for (auto [stored, last] = storedStreams.equal_range(hash); stored != last; ++stored) {
        if (stored->second.encoded->stream == weights.encoded->stream) {
          weights = stored->second;
          break;
        }
      }
      if (weights.address < 0) {
        const auto& stream = weights.encoded->stream;
        weights.address = allocate(subgraph.tensor(op.weights()).name + "_npu_encoded_weights",
                                   static_cast<std::int64_t>(stream.size()));
        std::copy(stream.begin(), stream.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(weights.address));
        storedStreams.emplace(hash, weights);
      }
      weights_.emplace(std::pair{s, position}, std::move(weights));
    }
  }
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
