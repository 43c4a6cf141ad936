// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/weight_reorder.hpp"

#include "reorder_into.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/core/shape.hpp"

#include <algorithm>
#include <cstring>

namespace ethosu::weights {

namespace {

/// Kernel positions of a sub-kernel the core reads, padded: part-kernel-first reads them in groups of
/// 4 (8-bit IFM) or 2 (16-bit IFM), depthwise in groups of 4.
[[nodiscard]] int paddedSubKernelElements(int elements, WeightTraversal traversal, int ifmBits) {
  if (traversal == WeightTraversal::PartKernelFirst) {
    if (ifmBits == 16) {
      return static_cast<int>(npu::roundUp(elements, 2));
    }
    if (ifmBits == 8) {
      return static_cast<int>(npu::roundUp(elements, 4));
    }
    return elements;
  }
  if (traversal == WeightTraversal::Depthwise) {
    return static_cast<int>(npu::roundUp(elements, 4));
  }
  return elements;
}

using detail::OfmSelection;

/// Appends weights in hardware order; positions outside the volume (or past the sub-kernel) read 0.
template <typename Output>
class Reorderer {
public:
  Reorderer(const WeightVolume& weights, OfmSelection channels, const ReorderParameters& parameters, Output& out)
      : weights_(weights), channels_(channels), parameters_(parameters), out_(out) {}

  void run() {
    out_.clear();
    const bool depthwise = parameters_.traversal == WeightTraversal::Depthwise;
    const bool partKernel = parameters_.traversal == WeightTraversal::PartKernelFirst;
    const int ifmBlockDepth = partKernel || parameters_.ifmBits == 16 ? 16 : 32;
    const int ifmDepthToCover = depthwise ? 1 : weights_.ifmDepth;
    for (int ofmBlock = 0; ofmBlock < channels_.count; ofmBlock += parameters_.ofmBlockDepth) {
      const int ofmBlockDepth = std::min(parameters_.ofmBlockDepth, channels_.count - ofmBlock);
      for (int ifmBlock = 0; ifmBlock < ifmDepthToCover; ifmBlock += ifmBlockDepth) {
        // Depth-first reads whole IFM blocks (zero padded); part-kernel-first only the channels left.
        int ifmDepth = ifmBlockDepth;
        if (depthwise) {
          ifmDepth = parameters_.ifmMicroBlockDepth;
        } else if (partKernel) {
          ifmDepth = std::min(ifmBlockDepth, weights_.ifmDepth - ifmBlock);
        }
        appendSubKernels(ofmBlock, ofmBlockDepth, ifmBlock, ifmDepth);
      }
    }
  }

private:
  void appendSubKernels(int ofmBlock, int ofmBlockDepth, int ifmBlock, int ifmBlockDepth) {
    const int subKernelHeight = parameters_.subKernelMaxHeight / parameters_.dilationY;
    const int subKernelWidth = parameters_.subKernelMaxWidth / parameters_.dilationX;
    for (int top = 0; top < weights_.kernelHeight; top += subKernelHeight) {
      for (int left = 0; left < weights_.kernelWidth; left += subKernelWidth) {
        SubKernel sub;
        sub.top = top;
        sub.left = left;
        sub.height = std::min(weights_.kernelHeight - top, subKernelHeight);
        sub.width = std::min(weights_.kernelWidth - left, subKernelWidth);
        sub.elements = paddedSubKernelElements(sub.width * sub.height, parameters_.traversal, parameters_.ifmBits);
        if (parameters_.traversal == WeightTraversal::PartKernelFirst) {
          for (int ifmMicroBlock = 0; ifmMicroBlock < ifmBlockDepth; ifmMicroBlock += parameters_.ifmMicroBlockDepth) {
            appendOfmMicroBlocks(sub, ofmBlock, ofmBlockDepth, ifmBlock + ifmMicroBlock, 1);
          }
        } else {
          appendOfmMicroBlocks(sub, ofmBlock, ofmBlockDepth, ifmBlock, ifmBlockDepth);
        }
      }
    }
  }

  struct SubKernel {
    int top = 0;
    int left = 0;
    int height = 0;
    int width = 0;
    int elements = 0; ///< padded
  };

  /// For each OFM micro-block: kernel positions, then (depth-first) the IFM micro-blocks of the block.
  /// Each IFM micro-block appends its OFM channels' runs of consecutive IFM channels (contiguous in the
  /// OHWI volume), zero padded.
  void appendOfmMicroBlocks(const SubKernel& sub, int ofmBlock, int ofmBlockDepth, int ifmStart, int ifmSpan) {
    const bool depthwise = parameters_.traversal == WeightTraversal::Depthwise;
    const int ifmMicroBlockDepth = depthwise ? 1 : parameters_.ifmMicroBlockDepth;
    const int ofmMicroBlockDepth = parameters_.ofmMicroBlockDepth;
    const auto ofmStride =
        static_cast<std::ptrdiff_t>(std::int64_t{weights_.kernelHeight} * weights_.kernelWidth * weights_.ifmDepth);
    const auto groupSize = static_cast<std::size_t>(ofmMicroBlockDepth) * static_cast<std::size_t>(ifmMicroBlockDepth);
    for (int ofmMicroBlock = 0; ofmMicroBlock < ofmBlockDepth; ofmMicroBlock += ofmMicroBlockDepth) {
      for (int element = 0; element < sub.elements; ++element) {
        const int x = element % sub.width;
        const int y = element / sub.width;
        const auto kernelOffset = static_cast<std::ptrdiff_t>(
            (std::int64_t{sub.top + y} * weights_.kernelWidth + sub.left + x) * weights_.ifmDepth);
        for (int ifmMicroBlock = 0; ifmMicroBlock < ifmSpan; ifmMicroBlock += parameters_.ifmMicroBlockDepth) {
          const std::size_t start = out_.size();
          out_.resize(start + groupSize); // zeros: what lies outside the volume or the sub-kernel reads
          if (y >= sub.height) {
            continue;
          }
          const int ifm = ifmStart + ifmMicroBlock;
          const int ifmCount = std::clamp(weights_.ifmDepth - ifm, 0, ifmMicroBlockDepth);
          std::int16_t* group = out_.data() + start;
          for (int ofmOffset = 0; ofmOffset < ofmMicroBlockDepth; ++ofmOffset) {
            const int ofm = ofmBlock + ofmMicroBlock + ofmOffset;
            if (ofm >= channels_.count) {
              break;
            }
            const std::int16_t* source =
                weights_.values.data() +
                static_cast<std::ptrdiff_t>(channels_.first + ofm * channels_.step) * ofmStride + kernelOffset + ifm;
            copyRun(source, ifmCount, group + static_cast<std::ptrdiff_t>(ofmOffset) * ifmMicroBlockDepth);
          }
        }
      }
    }
  }

  /// std::copy_n for the runs of a micro-block: a whole one (8 values, or 1 for depthwise weights) by
  /// a copy of fixed size, which the compiler inlines; std::copy_n called memcpy for every 16 bytes.
  static void copyRun(const std::int16_t* source, int count, std::int16_t* destination) {
    constexpr int kRun = 8;
    if (count == kRun) {
      std::memcpy(destination, source, kRun * sizeof(std::int16_t));
    } else if (count == 1) {
      *destination = *source;
    } else {
      std::copy_n(source, count, destination);
    }
  }

  const WeightVolume& weights_;
  OfmSelection channels_;
  const ReorderParameters& parameters_;
  Output& out_;
};

void checkParameters(const WeightVolume& weights, const ReorderParameters& parameters) {
  npu::require(weights.values.size() == static_cast<std::size_t>(weights.elements()),
               "weight volume holds as many values as its shape says");
  npu::require(parameters.ofmBlockDepth > 0 && parameters.ofmMicroBlockDepth > 0 && parameters.ifmMicroBlockDepth > 0,
               "weight reordering needs positive block depths");
  npu::require((parameters.dilationX == 1 || parameters.dilationX == 2) &&
                   (parameters.dilationY == 1 || parameters.dilationY == 2),
               "weight reordering handles dilations 1 and 2 (larger ones are expanded into the kernel)");
  npu::require(parameters.traversal != WeightTraversal::Depthwise || weights.ifmDepth == 1,
               "depthwise weights have one IFM channel per OFM channel");
}

} // namespace

std::vector<std::int16_t> reorderWeights(const WeightVolume& weights, const ReorderParameters& parameters) {
  checkParameters(weights, parameters);
  std::vector<std::int16_t> out;
  Reorderer(weights, OfmSelection{0, weights.ofmDepth, 1}, parameters, out).run();
  return out;
}

namespace detail {

void reorderWeightsInto(const WeightVolume& weights, OfmSelection channels, const ReorderParameters& parameters,
                        LargeVector<std::int16_t>& out) {
  checkParameters(weights, parameters);
  npu::require(channels.first >= 0 && channels.count >= 0 && channels.step >= 1 &&
                   (channels.count == 0 ||
                    std::int64_t{channels.first} + std::int64_t{channels.count - 1} * channels.step < weights.ofmDepth),
               "the selected OFM channels lie within the weight volume");
  Reorderer(weights, channels, parameters, out).run();
}

} // namespace detail

} // namespace ethosu::weights
