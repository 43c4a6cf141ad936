// SPDX-License-Identifier: Apache-2.0
#include "layout/read_only_area.hpp"

#include "ethosu/architecture/variant.hpp"
#include "ethosu/weights/byte_hash.hpp"

#include "npu/core/diagnostics.hpp"

#include <tbb/collaborative_call_once.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <exception>
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

/// A weight stream split into its two kinds of bytes: each core's scales and each core's weights of every
/// slice, concatenated (each part padded to 16 bytes as streamed).
struct StreamParts {
  std::vector<std::uint8_t> scales;
  std::vector<std::uint8_t> weights;
};

StreamParts splitStream(const npu::EncodedWeights& encoded, std::span<const std::uint8_t> stream) {
  StreamParts parts;
  for (const npu::EncodedWeightSlice& slice : encoded.slices) {
    std::int64_t core = slice.offset;
    for (std::size_t c = 0; c < slice.coreBytes.size(); ++c) {
      const std::int64_t scaleBytes = npu::roundUp(slice.coreScaleBytes[c], 16);
      const auto begin = stream.begin() + static_cast<std::ptrdiff_t>(core);
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

/// A weight stream stored in the area, found again by its weights. Its bytes are read back from the area
/// when a stream of equal hash comes along: a copy of every stream kept beside the area would double it.
} // namespace

struct ReadOnlyArea::StoredStream {
  OperationWeights weights;
  std::int64_t streamBytes = 0;
  std::pair<int, std::int64_t> weightIdentity; ///< (subgraph, storage key) of the weight tensor
  ScaleIdentity scaleIdentity;
};

namespace {

/// One operation's encoding on its way from the encoders (in parallel) to the layout (in order).
struct EncodingJob {
  std::size_t index = 0; ///< in the order of the layout
  std::size_t schedule = 0;
  std::size_t position = 0;
  npu::EncodedWeights encoded;
  std::exception_ptr error;
};

/// At most this many encodings per thread are held between encoding and layout: enough to keep every
/// thread busy, few enough that a large network's streams are never all in memory at once.
constexpr int kEncodingsInFlightPerThread = 4;

/// Encodings started ahead of the pipeline. A large encoding late in the order would run alone at the
/// end while the other threads wait for it, so the largest ones (each at least 1/(2 x threads) of all the
/// encoded bytes, so at most 2 x threads of them) start first, beside the pipeline, which takes each one's
/// result when it comes to it: longest first, while the layout stays in order. A small network of one
/// large fully connected layer is the case (a third of MobileNet-v2's weights); a network of many
/// similar layers has none.
class HeadStart {
public:
  HeadStart(std::span<const std::pair<std::size_t, std::size_t>> jobs, std::span<const npu::Schedule> schedules,
            int threads)
      : started_(jobs.size()) {
    if (threads < 2) {
      return;
    }
    std::int64_t total = 0;
    std::vector<std::int64_t> bytes;
    for (const auto& job : jobs) {
      bytes.push_back(schedules[job.first].operations[job.second].weights->encodedBytes);
      total += bytes.back();
    }
    for (std::size_t index = 0; index < jobs.size(); ++index) {
      if (bytes[index] > 0 && bytes[index] >= total / (2 * threads)) {
        started_[index] = std::make_unique<Started>();
        order_.push_back(index);
      }
    }
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return bytes[a] > bytes[b]; });
  }
  HeadStart(const HeadStart&) = delete;
  HeadStart& operator=(const HeadStart&) = delete;
  /// Waits for every encoding started: the area is left only then, whether or not the layout failed.
  ~HeadStart() { group_.wait(); }

  /// Starts the encodings chosen, largest first; `encode(job)` fills the job's encoding or error.
  template <typename Encode>
  void start(const Encode& encode) {
    for (const std::size_t index : order_) {
      group_.run([this, index, &encode] { run(index, encode); });
    }
  }

  /// Job `index`'s encoding: taken from its head start (waited for, or run here when it has not begun),
  /// or nullopt when it had none.
  template <typename Encode>
  std::optional<EncodingJob> take(std::size_t index, const Encode& encode) {
    if (!started_[index]) {
      return std::nullopt;
    }
    run(index, encode);
    return std::move(started_[index]->job);
  }

private:
  struct Started {
    tbb::collaborative_once_flag once;
    EncodingJob job;
  };

  template <typename Encode>
  void run(std::size_t index, const Encode& encode) {
    Started& started = *started_[index];
    tbb::collaborative_call_once(started.once, [&] { encode(index, started.job); });
  }

  std::vector<std::unique_ptr<Started>> started_;
  std::vector<std::size_t> order_;
  tbb::task_group group_;
};

/// What the area will take, to reserve it at once (growing a large area would copy it, and hold the old
/// and the new copy together). Equal constants and shared streams are counted each time: an upper bound,
/// whose untouched part costs no memory.
std::int64_t expectedAreaBytes(const npu::Graph& graph, std::span<const npu::Schedule> schedules) {
  std::int64_t bytes = 0;
  for (const npu::Schedule& schedule : schedules) {
    const npu::Subgraph& subgraph = graph.subgraphs.at(static_cast<std::size_t>(schedule.region.subgraph));
    for (const npu::ScheduledOperation& scheduled : schedule.operations) {
      for (const npu::TensorId tensor : passTensors(subgraph.operation(scheduled.op), scheduled.reversedOperands)) {
        if (subgraph.validTensorId(tensor) && subgraph.tensor(tensor).isConstant()) {
          bytes += storageBytes(subgraph.tensor(tensor));
        }
      }
      if (scheduled.weights) {
        bytes += npu::roundUp(std::max<std::int64_t>(scheduled.weights->encodedBytes, 1), kAllocationQuantum);
      }
    }
  }
  return bytes;
}

} // namespace

ReadOnlyArea::ReadOnlyArea(const npu::Graph& graph, std::span<const npu::Schedule> schedules,
                           const npu::Accelerator& accelerator) {
  bytes_.reserve(static_cast<std::size_t>(expectedAreaBytes(graph, schedules)));
  std::vector<std::pair<std::size_t, std::size_t>> jobs;
  for (std::size_t s = 0; s < schedules.size(); ++s) {
    for (std::size_t position = 0; position < schedules[s].operations.size(); ++position) {
      if (schedules[s].operations[position].weights) {
        jobs.emplace_back(s, position);
      }
    }
  }
  // Each region's constants, then its weight streams, region after region. The encodings are independent
  // and the codec dominates compile time on big networks, so they run in parallel; each stream is laid
  // out in order (so deterministically, and the first failing encoding is the one reported) and then
  // dropped.
  std::multimap<std::uint64_t, StoredStream> storedStreams; ///< by the hash of their weights
  std::size_t constantsLaidOut = 0;                         ///< schedules whose constants are in the area
  const auto layOutConstantsUpTo = [&](std::size_t last) {
    for (; constantsLaidOut <= last && constantsLaidOut < schedules.size(); ++constantsLaidOut) {
      addConstantsOf(graph, schedules[constantsLaidOut]);
    }
  };
  std::size_t nextJob = 0;
  const auto inFlight =
      static_cast<std::size_t>(kEncodingsInFlightPerThread * std::max(1, tbb::this_task_arena::max_concurrency()));
  const auto encodeJob = [&](std::size_t index, EncodingJob& job) {
    job.index = index;
    job.schedule = jobs[index].first;
    job.position = jobs[index].second;
    try {
      const npu::Schedule& schedule = schedules[job.schedule];
      const npu::ScheduledOperation& scheduled = schedule.operations[job.position];
      const npu::Subgraph& subgraph = graph.subgraphs.at(static_cast<std::size_t>(schedule.region.subgraph));
      job.encoded = accelerator.weights().encode(subgraph, subgraph.operation(scheduled.op), scheduled.blockConfig,
                                                 scheduled.weights->depthSlices, true);
    } catch (...) {
      job.error = std::current_exception();
    }
  };
  // The encoder forgets the plan of each stream written (StreamCache::take): small blocks, whose pages
  // are given back (with what scheduling left free) from the first stream on and then every few MiB of
  // area, so that the area grows into memory they held, not beside it.
  constexpr std::size_t kTrimEveryBytes = std::size_t{8} << 20;
  std::size_t nextTrim = 0;
  HeadStart headStart(jobs, schedules, tbb::this_task_arena::max_concurrency());
  headStart.start(encodeJob);
  tbb::parallel_pipeline(
      inFlight, tbb::make_filter<void, EncodingJob>(tbb::filter_mode::serial_in_order, [&](tbb::flow_control& control) {
                  if (nextJob == jobs.size()) {
                    control.stop();
                    return EncodingJob{};
                  }
                  EncodingJob job;
                  job.index = nextJob++;
                  return job;
                }) & tbb::make_filter<EncodingJob, EncodingJob>(tbb::filter_mode::parallel, [&](EncodingJob job) {
                  if (std::optional<EncodingJob> started = headStart.take(job.index, encodeJob)) {
                    return std::move(*started);
                  }
                  encodeJob(job.index, job);
                  return job;
                }) & tbb::make_filter<EncodingJob, void>(tbb::filter_mode::serial_in_order, [&](EncodingJob job) {
                  if (job.error) {
                    std::rethrow_exception(job.error);
                  }
                  layOutConstantsUpTo(job.schedule);
                  addWeights(graph, schedules, job.schedule, job.position, std::move(job.encoded), storedStreams);
#if defined(__GLIBC__)
                  if (bytes_.size() >= nextTrim) {
                    ::malloc_trim(0);
                    nextTrim = bytes_.size() + kTrimEveryBytes;
                  }
#endif
                }));
  if (!schedules.empty()) {
    layOutConstantsUpTo(schedules.size() - 1);
  }
}

void ReadOnlyArea::addConstantsOf(const npu::Graph& graph, const npu::Schedule& schedule) {
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
}

// Operations with the same weight tensor (or an equivalent one) and equal encodings share one stream when
// their scale configs agree too; when only the weights agree (e.g. the shared all-ones weights of MEANs of
// different quantisation) the operation stores its scales alone
// (weight_compressor.encode_weight_and_scale_tensor). Equal bytes of different weight tensors are stored
// twice, as Vela stores them.
void ReadOnlyArea::addWeights(const npu::Graph& graph, std::span<const npu::Schedule> schedules, std::size_t s,
                              std::size_t position, npu::EncodedWeights encoding,
                              std::multimap<std::uint64_t, StoredStream>& storedStreams) {
  const npu::Schedule& schedule = schedules[s];
  const int subgraphIndex = schedule.region.subgraph;
  const npu::Subgraph& subgraph = graph.subgraphs.at(static_cast<std::size_t>(subgraphIndex));
  const npu::Operation& op = subgraph.operation(schedule.operations[position].op);
  // The area keeps the bytes; the operation keeps only the layout of its stream.
  const std::vector<std::uint8_t> stream = std::move(encoding.stream);
  encoding.stream.clear();
  const auto encoded = std::make_shared<const npu::EncodedWeights>(std::move(encoding));
  const StreamParts parts = splitStream(*encoded, stream);
  StoredStream candidate{OperationWeights{encoded, -1, std::nullopt},
                         static_cast<std::int64_t>(stream.size()),
                         {subgraphIndex, storageKey(subgraph, op.weights())},
                         scaleIdentityOf(subgraph, op)};
  const std::uint64_t hash = bytesHash(parts.weights);
  OperationWeights weights = candidate.weights;
  for (auto [stored, last] = storedStreams.equal_range(hash); stored != last; ++stored) {
    const std::span<const std::uint8_t> storedBytes(bytes_.data() + stored->second.weights.address,
                                                    static_cast<std::size_t>(stored->second.streamBytes));
    const StreamParts storedParts = splitStream(*stored->second.weights.encoded, storedBytes);
    if (storedParts.weights != parts.weights) {
      continue;
    }
    if (stored->second.weightIdentity != candidate.weightIdentity) {
      continue; // equal bytes of another weight tensor are stored again, as Vela does
    }
    if (stored->second.scaleIdentity == candidate.scaleIdentity && storedParts.scales == parts.scales) {
      weights = stored->second.weights;
      break;
    }
    weights = stored->second.weights;
    weights.encoded = candidate.weights.encoded;
    const npu::TensorId bias = op.bias();
    const std::string name =
        subgraph.validTensorId(bias) ? subgraph.tensor(bias).name : subgraph.tensor(op.weights()).name + "_scales";
    weights.scaleAddress = allocate(name + "_npu_encoded_weights", static_cast<std::int64_t>(parts.scales.size()));
    std::copy(parts.scales.begin(), parts.scales.end(),
              bytes_.begin() + static_cast<std::ptrdiff_t>(*weights.scaleAddress));
    break;
  }
  if (weights.address < 0) {
    weights.address =
        allocate(subgraph.tensor(op.weights()).name + "_npu_encoded_weights", static_cast<std::int64_t>(stream.size()));
    std::copy(stream.begin(), stream.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(weights.address));
    candidate.weights = weights;
    storedStreams.emplace(hash, std::move(candidate));
  }
  weights_.emplace(std::pair{s, position}, std::move(weights));
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
