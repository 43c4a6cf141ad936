// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/weight_stream.hpp"

#include "codec_workspace.hpp"
#include "reorder_into.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/core/shape.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <string>

namespace ethosu::weights {
namespace {

constexpr std::int64_t kStreamAlignment = 16;

void checkDepthSlices(std::span<const int> depthSlices, int ofmDepth) {
  if (depthSlices.size() < 2) {
    npu::throwInternalError("weight encoding needs at least one depth slice (two boundaries)");
  }
  for (std::size_t index = 0; index + 1 < depthSlices.size(); ++index) {
    const int start = depthSlices[index];
    const int end = depthSlices[index + 1];
    if (start < 0 || start >= ofmDepth || end <= start || end > ofmDepth) {
      npu::throwInternalError("depth slice [" + std::to_string(start) + ", " + std::to_string(end) +
                              ") is empty or outside the " + std::to_string(ofmDepth) + " OFM channels");
    }
  }
}

void padTo16(std::vector<std::uint8_t>& stream) {
  stream.resize(static_cast<std::size_t>(npu::roundUp(static_cast<std::int64_t>(stream.size()), kStreamAlignment)), 0);
}

/// Scales and biases of one core's share of a slice. The reference takes channels first + core,
/// first + core + cores, ... below first + core + length, so a core other than the first may take one
/// channel past the slice end; kept for identical streams.
void appendCoreScales(std::vector<std::uint8_t>& stream, const WeightStreamInput& input, int first, int length,
                      int core, int cores) {
  const auto biasCount = static_cast<int>(input.biases.size());
  const int end = std::min(first + core + length, biasCount);
  for (int channel = first + core; channel < end; channel += cores) {
    const QuantisedScale& scale =
        input.scales.size() == 1 ? input.scales.front() : input.scales.at(static_cast<std::size_t>(channel));
    appendBiasAndScale(stream, input.biases[static_cast<std::size_t>(channel)], scale);
  }
}

/// One core's stream of one depth slice. Streams are encoded independently (in parallel when there are
/// several) and laid out in order afterwards.
struct CoreStream {
  int first = 0;
  int length = 0;
  int core = 0;
  int blockDepth = 0;                ///< this core's share of the OFM block depth; 0: the core has no channels
  std::vector<std::uint8_t> scales;  ///< padded to 16 bytes
  std::vector<std::uint8_t> weights; ///< the encoded weights, when the stream is kept
  std::int64_t weightBytes = 0;
};

void encodeStream(const WeightStreamInput& input, const WeightEncoderConfig& config, ReorderParameters reorder,
                  CoreStream& stream, bool keepStream, StreamCache* cache) {
  // Each thread keeps its codec buffers from one stream to the next; nothing here waits on other tasks,
  // so a thread never interleaves two streams on them.
  thread_local detail::CodecWorkspace workspace;
  thread_local detail::LargeVector<std::int16_t> reordered;
  reorder.ofmBlockDepth = stream.blockDepth;
  // The core's channels of the slice: first + core, first + core + cores, ... below first + length.
  const int coreChannels = (stream.length - stream.core + config.cores - 1) / config.cores;
  detail::reorderWeightsInto(
      input.weights, detail::OfmSelection{stream.first + stream.core, coreChannels, config.cores}, reorder, reordered);
  const std::uint64_t key = cache != nullptr ? StreamCache::keyOf(reordered) : 0;
  // A stream written (not only sized) is the code generator's, which writes each once: its plan goes.
  const StreamCache::Plan planned =
      cache == nullptr ? nullptr : (keepStream ? cache->take(reordered, key) : cache->find(reordered, key));
  if (keepStream) {
    if (planned != nullptr) {
      detail::appendPlannedWeightStream(reordered, *planned, workspace, stream.weights);
    } else {
      detail::appendWeightStream(reordered, workspace, stream.weights);
    }
    stream.weightBytes = static_cast<std::int64_t>(stream.weights.size());
  } else if (planned != nullptr) {
    stream.weightBytes = planned->bytes;
  } else if (cache != nullptr && cache->hasRoomFor(reordered.size())) {
    // A size for now (the schedulers' candidates), and the decisions for writing the stream later.
    auto plan = std::make_shared<const detail::StreamPlan>(detail::planWeightStream(reordered, workspace));
    stream.weightBytes = plan->bytes;
    const std::size_t planBytes = plan->memoryBytes();
    cache->insert(reordered, key, std::move(plan), planBytes);
  } else {
    // Every slice is planned like the encoder does, but no bits are written.
    stream.weightBytes = detail::weightStreamSize(reordered, workspace);
  }
}

/// Encodes every stream with a core to run on. Failures (weights outside the encodable range) are
/// reported for the first stream that fails, whatever the thread count.
void encodeStreams(const WeightStreamInput& input, const WeightEncoderConfig& config, const ReorderParameters& reorder,
                   std::vector<CoreStream>& streams, bool keepStream, StreamCache* cache) {
  std::vector<std::exception_ptr> errors(streams.size());
  const auto encodeOne = [&](std::size_t index) {
    if (streams[index].blockDepth == 0) {
      return;
    }
    try {
      encodeStream(input, config, reorder, streams[index], keepStream, cache);
    } catch (...) {
      errors[index] = std::current_exception();
    }
  };
  if (streams.size() > 1) {
    tbb::parallel_for(std::size_t{0}, streams.size(), encodeOne);
  } else {
    for (std::size_t index = 0; index < streams.size(); ++index) {
      encodeOne(index);
    }
  }
  for (const std::exception_ptr& error : errors) {
    if (error) {
      std::rethrow_exception(error);
    }
  }
}

} // namespace

WeightTraversal chooseConvolutionTraversal(int kernelHeight, int kernelWidth, int ifmDepth, int ifmBits) {
  const double kernelSize = static_cast<double>(kernelHeight) * kernelWidth;
  const auto depth = static_cast<double>(ifmDepth);
  const double depthUtilisation = depth / static_cast<double>(npu::roundUp(ifmDepth, ifmBits == 8 ? 32 : 16));
  const double partKernelUtilisation =
      (depth / static_cast<double>(npu::roundUp(ifmDepth, 8))) *
      (kernelSize / static_cast<double>(npu::roundUp(std::int64_t{kernelHeight} * kernelWidth, ifmBits == 8 ? 4 : 2)));
  return partKernelUtilisation >= depthUtilisation || ifmDepth <= 8 ? WeightTraversal::PartKernelFirst
                                                                    : WeightTraversal::DepthFirst;
}

std::array<std::int64_t, 2> doubleBufferSizes(const npu::EncodedWeights& encoded) {
  std::array<std::int64_t, 2> sizes{};
  for (std::size_t index = 0; index < encoded.slices.size(); ++index) {
    sizes[index % 2] = std::max(sizes[index % 2], encoded.slices[index].bytes);
  }
  return sizes;
}

npu::EncodedWeights encodeWeightsAndScales(const WeightStreamInput& input, const WeightEncoderConfig& config,
                                           int ofmBlockDepth, std::span<const int> depthSlices, bool keepStream,
                                           StreamCache* cache) {
  const int ofmDepth = input.weights.ofmDepth;
  checkDepthSlices(depthSlices, ofmDepth);
  npu::require(config.cores >= 1, "weight encoding needs at least one core");
  npu::require(!input.scales.empty() || input.biases.empty(), "every bias has a scale");

  ReorderParameters reorder;
  reorder.ofmMicroBlockDepth = config.ofmMicroBlockDepth;
  reorder.ifmMicroBlockDepth = config.ifmMicroBlockDepth;
  reorder.traversal = input.traversal;
  reorder.ifmBits = input.ifmBits;
  reorder.dilationX = input.dilationX;
  reorder.dilationY = input.dilationY;
  reorder.subKernelMaxWidth = config.subKernelMaxWidth;
  reorder.subKernelMaxHeight = config.subKernelMaxHeight;

  // One stream per depth slice and core, in stream order.
  std::vector<CoreStream> streams;
  const int activeCores = std::min(config.cores, ofmDepth);
  for (std::size_t index = 0; index + 1 < depthSlices.size(); ++index) {
    for (int core = 0; core < config.cores; ++core) {
      CoreStream& stream = streams.emplace_back();
      stream.first = depthSlices[index];
      stream.length = depthSlices[index + 1] - stream.first;
      stream.core = core;
      // Each core works on its round-robin share of the block's OFM channels.
      stream.blockDepth = core < activeCores ? (ofmBlockDepth + config.cores - 1 - core) / config.cores : 0;
      if (stream.blockDepth > 0) {
        appendCoreScales(stream.scales, input, stream.first, stream.length, core, config.cores);
        padTo16(stream.scales);
      }
    }
  }
  encodeStreams(input, config, reorder, streams, keepStream, cache);

  npu::EncodedWeights result;
  std::int64_t position = 0;
  for (std::size_t index = 0; index + 1 < depthSlices.size(); ++index) {
    npu::EncodedWeightSlice sliceInfo;
    sliceInfo.depthStart = depthSlices[index];
    sliceInfo.depthEnd = depthSlices[index + 1];
    sliceInfo.offset = position;
    for (int core = 0; core < config.cores; ++core) {
      const CoreStream& stream =
          streams[index * static_cast<std::size_t>(config.cores) + static_cast<std::size_t>(core)];
      const auto scaleBytes = static_cast<std::int64_t>(stream.scales.size());
      sliceInfo.coreScaleBytes.push_back(scaleBytes);
      sliceInfo.coreBytes.push_back(scaleBytes + stream.weightBytes);
      result.scaleBytes += scaleBytes;
      position += scaleBytes + stream.weightBytes;
      if (keepStream) {
        result.stream.insert(result.stream.end(), stream.scales.begin(), stream.scales.end());
        result.stream.insert(result.stream.end(), stream.weights.begin(), stream.weights.end());
      }
    }
    sliceInfo.bytes = position - sliceInfo.offset;
    result.slices.push_back(std::move(sliceInfo));
  }
  result.totalBytes = position;
  return result;
}

} // namespace ethosu::weights
