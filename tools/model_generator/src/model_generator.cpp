// SPDX-License-Identifier: Apache-2.0
#include "model_generator/model_generator.hpp"

#include "architectures.hpp"

#include <cstdio>
#include <stdexcept>

namespace npu::modelgen {

namespace {

// Limits that keep every generated model meaningful and every count inside its integer type.
constexpr double kMaxAlpha = 4.0;
constexpr int kMinResolution = 8;
constexpr int kMaxResolution = 4096;
constexpr int kMaxBlocks = 100'000;
constexpr int kMaxClasses = 100'000;
// A flatbuffer addresses at most 2 GiB; leave room for everything besides the constants.
constexpr std::int64_t kMaxConstantBytes = (std::int64_t{1} << 31) - (std::int64_t{256} << 20);

GeneratedModel build(const NetworkOptions& options, NetworkBuilder::Mode mode) {
  if (const auto problem = validate(options)) {
    throw std::invalid_argument(*problem);
  }
  NetworkBuilder builder(mode, options.seed);
  const FeatureMap output = options.architecture == Architecture::MobileNetV1 ? buildMobileNetV1(builder, options)
                                                                              : buildMobileNetV2(builder, options);
  GeneratedModel model = builder.finish(output, describe(options));
  model.summary.blocks = options.blocks.value_or(infoOf(options.architecture).standardBlocks);
  return model;
}

} // namespace

const std::vector<ArchitectureInfo>& architectures() {
  static const std::vector<ArchitectureInfo> known{
      {Architecture::MobileNetV1, "mobilenet-v1", "MobileNet v1: 3x3 stem, depthwise-separable blocks, 1x1 classifier",
       13},
      {Architecture::MobileNetV2, "mobilenet-v2",
       "MobileNet v2: inverted residual bottlenecks (expand, depthwise, linear project, add)", 17},
  };
  return known;
}

const ArchitectureInfo& infoOf(Architecture architecture) {
  for (const ArchitectureInfo& info : architectures()) {
    if (info.architecture == architecture) {
      return info;
    }
  }
  throw std::logic_error("architecture without ArchitectureInfo");
}

std::optional<Architecture> architectureFromName(std::string_view name) {
  for (const ArchitectureInfo& info : architectures()) {
    if (info.name == name) {
      return info.architecture;
    }
  }
  return std::nullopt;
}

std::optional<std::string> validate(const NetworkOptions& options) {
  if (!(options.alpha > 0.0 && options.alpha <= kMaxAlpha)) {
    return "alpha must be greater than 0 and at most 4";
  }
  if (options.resolution < kMinResolution || options.resolution > kMaxResolution) {
    return "resolution must be between " + std::to_string(kMinResolution) + " and " + std::to_string(kMaxResolution);
  }
  if (options.blocks && (*options.blocks < 1 || *options.blocks > kMaxBlocks)) {
    return "blocks must be between 1 and " + std::to_string(kMaxBlocks);
  }
  if (options.classes < 1 || options.classes > kMaxClasses) {
    return "classes must be between 1 and " + std::to_string(kMaxClasses);
  }
  return std::nullopt;
}

ModelSummary plan(const NetworkOptions& options) {
  return build(options, NetworkBuilder::Mode::Plan).summary;
}

GeneratedModel generate(const NetworkOptions& options) {
  const ModelSummary planned = plan(options);
  if (planned.constantBytes > kMaxConstantBytes) {
    throw std::length_error("the model would hold " + std::to_string(planned.constantBytes >> 20) +
                            " MiB of weights, more than a TFLite flatbuffer can address (2 GiB); use fewer "
                            "blocks or a smaller alpha");
  }
  return build(options, NetworkBuilder::Mode::Write);
}

std::string describe(const NetworkOptions& options) {
  char alpha[32];
  std::snprintf(alpha, sizeof alpha, "%g", options.alpha);
  return "npu-model-gen " + std::string(infoOf(options.architecture).name) + " alpha=" + alpha +
         " resolution=" + std::to_string(options.resolution) +
         " blocks=" + std::to_string(options.blocks.value_or(infoOf(options.architecture).standardBlocks)) +
         " classes=" + std::to_string(options.classes) + " seed=" + std::to_string(options.seed);
}

} // namespace npu::modelgen
