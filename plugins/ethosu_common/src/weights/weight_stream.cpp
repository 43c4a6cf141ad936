#include "ethosu/weights/weight_stream.hpp"

#include "codec_workspace.hpp"
#include "reorder_into.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/core/shape.hpp"

#include <algorithm>
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
                                           int ofmBlockDepth, std::span<const int> depthSlices, bool keepStream) {
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

  // Encoding for a size only (the schedulers' candidates) plans every slice like the encoder but
  // writes no bits; each thread keeps its codec buffers from one stream to the next.
  thread_local detail::CodecWorkspace workspace;
  thread_local detail::LargeVector<std::int16_t> reordered;
  npu::EncodedWeights result;
  std::vector<std::uint8_t> stream;
  std::vector<std::uint8_t> coreScales;
  std::int64_t position = 0;
  const int activeCores = std::min(config.cores, ofmDepth);
  for (std::size_t index = 0; index + 1 < depthSlices.size(); ++index) {
    const int first = depthSlices[index];
    const int length = depthSlices[index + 1] - first;

    npu::EncodedWeightSlice sliceInfo;
    sliceInfo.depthStart = first;
    sliceInfo.depthEnd = first + length;
    sliceInfo.offset = position;
    for (int core = 0; core < config.cores; ++core) {
      // Each core works on its round-robin share of the block's OFM channels.
      const int coreBlockDepth = (ofmBlockDepth + config.cores - 1 - core) / config.cores;
      if (core >= activeCores || coreBlockDepth == 0) {
        sliceInfo.coreScaleBytes.push_back(0);
        sliceInfo.coreBytes.push_back(0);
        continue;
      }
      coreScales.clear();
      appendCoreScales(coreScales, input, first, length, core, config.cores);
      padTo16(coreScales);
      const auto scaleBytes = static_cast<std::int64_t>(coreScales.size());
      reorder.ofmBlockDepth = coreBlockDepth;
      // The core's channels of the slice: first + core, first + core + cores, ... below first + length.
      const int coreChannels = (length - core + config.cores - 1) / config.cores;
      detail::reorderWeightsInto(input.weights, detail::OfmSelection{first + core, coreChannels, config.cores}, reorder,
                                 reordered);
      std::int64_t weightBytes = 0;
      if (keepStream) {
        stream.insert(stream.end(), coreScales.begin(), coreScales.end());
        const std::size_t weightsStart = stream.size();
        detail::appendWeightStream(reordered, workspace, stream);
        weightBytes = static_cast<std::int64_t>(stream.size() - weightsStart);
      } else {
        weightBytes = detail::weightStreamSize(reordered, workspace);
      }
      sliceInfo.coreScaleBytes.push_back(scaleBytes);
      sliceInfo.coreBytes.push_back(scaleBytes + weightBytes);
      result.scaleBytes += scaleBytes;
      position += scaleBytes + weightBytes;
    }
    sliceInfo.bytes = position - sliceInfo.offset;
    result.slices.push_back(std::move(sliceInfo));
  }
  result.totalBytes = position;
  if (keepStream) {
    result.stream = std::move(stream);
  }
  return result;
}

} // namespace ethosu::weights
