// SPDX-License-Identifier: Apache-2.0
#include "architectures.hpp"

#include <algorithm>
#include <numeric>

namespace npu::modelgen {

namespace {

// MobileNet v1 (Howard et al., 2017, table 1): after the 3x3 stem, depthwise-separable blocks in stages of
// (output channels, stride of the stage's first block, published repeats).
struct V1Stage {
  int channels;
  int stride;
  int repeats;
};
constexpr V1Stage kV1Stages[] = {{64, 1, 1}, {128, 2, 2}, {256, 2, 2}, {512, 2, 6}, {1024, 2, 2}};
constexpr std::size_t kV1GrowStage = 3; // the 512-channel stage, the one the paper repeats

// MobileNet v2 (Sandler et al., 2018, table 2): bottleneck stages of (expansion t, channels c, repeats n,
// stride s).
struct V2Stage {
  int expansion;
  int channels;
  int repeats;
  int stride;
};
constexpr V2Stage kV2Stages[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                 {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
constexpr std::size_t kV2GrowStage = 3; // the 64-channel stage: residual blocks at 1/16 resolution

/// TensorFlow's MobileNet v1 width rule: int(channels * alpha), at least 8.
int v1Channels(int channels, double alpha) {
  return std::max(8, static_cast<int>(channels * alpha));
}

/// TensorFlow's _make_divisible: round to a multiple of 8 without losing more than 10%.
int makeDivisible(double value, int divisor = 8) {
  int rounded = std::max(divisor, static_cast<int>(value + divisor / 2.0) / divisor * divisor);
  if (rounded < 0.9 * value) {
    rounded += divisor;
  }
  return rounded;
}

std::string blockName(int block, const char* layer) {
  return "block_" + std::to_string(block) + "/" + layer;
}

} // namespace

std::vector<int> distributeBlocks(std::vector<int> standard, int blocks, std::size_t growStage) {
  int total = std::accumulate(standard.begin(), standard.end(), 0);
  if (blocks >= total) {
    standard[growStage] += blocks - total;
    return standard;
  }
  while (total > blocks) {
    auto longest = std::max_element(standard.rbegin(), standard.rend()); // the later stage on a tie
    if (*longest == 1) {
      break;
    }
    --*longest;
    --total;
  }
  standard.resize(std::min(standard.size(), static_cast<std::size_t>(blocks)));
  return standard;
}

FeatureMap buildMobileNetV1(NetworkBuilder& builder, const NetworkOptions& options) {
  std::vector<int> standard;
  for (const V1Stage& stage : kV1Stages) {
    standard.push_back(stage.repeats);
  }
  const std::vector<int> repeats = distributeBlocks(standard, options.blocks.value_or(13), kV1GrowStage);

  FeatureMap x = builder.input("input", {1, options.resolution, options.resolution, 3});
  x = builder.conv2d("stem", x, v1Channels(32, options.alpha), 3, 2, Activation::Relu6);
  int block = 0;
  for (std::size_t stage = 0; stage < repeats.size(); ++stage) {
    for (int repeat = 0; repeat < repeats[stage]; ++repeat) {
      ++block;
      const int stride = repeat == 0 ? kV1Stages[stage].stride : 1;
      x = builder.depthwiseConv2d(blockName(block, "depthwise"), x, 3, stride, Activation::Relu6);
      x = builder.conv2d(blockName(block, "pointwise"), x, v1Channels(kV1Stages[stage].channels, options.alpha), 1, 1,
                         Activation::Relu6);
    }
  }
  // Classifier as in the published TFLite model: global pool, 1x1 convolution to logits, flatten, softmax.
  x = builder.globalAveragePool("global_pool", x);
  x = builder.conv2d("logits", x, options.classes, 1, 1, Activation::None);
  x = builder.reshape("flatten", x, {1, options.classes});
  return builder.softmax("predictions", x);
}

FeatureMap buildMobileNetV2(NetworkBuilder& builder, const NetworkOptions& options) {
  std::vector<int> standard;
  for (const V2Stage& stage : kV2Stages) {
    standard.push_back(stage.repeats);
  }
  const std::vector<int> repeats = distributeBlocks(standard, options.blocks.value_or(17), kV2GrowStage);

  FeatureMap x = builder.input("input", {1, options.resolution, options.resolution, 3});
  x = builder.conv2d("stem", x, makeDivisible(32 * options.alpha), 3, 2, Activation::Relu6);
  int block = 0;
  for (std::size_t stage = 0; stage < repeats.size(); ++stage) {
    const V2Stage& spec = kV2Stages[stage];
    const int outChannels = makeDivisible(static_cast<int>(spec.channels * options.alpha));
    for (int repeat = 0; repeat < repeats[stage]; ++repeat) {
      ++block;
      const int stride = repeat == 0 ? spec.stride : 1;
      const FeatureMap blockInput = x;
      if (spec.expansion != 1) {
        x = builder.conv2d(blockName(block, "expand"), x, blockInput.channels() * spec.expansion, 1, 1,
                           Activation::Relu6);
      }
      x = builder.depthwiseConv2d(blockName(block, "depthwise"), x, 3, stride, Activation::Relu6);
      x = builder.conv2d(blockName(block, "project"), x, outChannels, 1, 1, Activation::None);
      if (stride == 1 && blockInput.channels() == outChannels) {
        x = builder.add(blockName(block, "add"), blockInput, x);
      }
    }
  }
  const int headChannels = options.alpha > 1.0 ? makeDivisible(1280 * options.alpha) : 1280;
  x = builder.conv2d("head", x, headChannels, 1, 1, Activation::Relu6);
  x = builder.globalAveragePool("global_pool", x);
  x = builder.reshape("flatten", x, {1, headChannels});
  x = builder.fullyConnected("logits", x, options.classes);
  return builder.softmax("predictions", x);
}

} // namespace npu::modelgen
