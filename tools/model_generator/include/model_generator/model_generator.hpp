// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu::modelgen {

/// Network families the generator writes.
enum class Architecture {
  MobileNetV1, ///< depthwise-separable blocks (Howard et al., 2017)
  MobileNetV2, ///< inverted residual bottlenecks with linear projections (Sandler et al., 2018)
};

struct ArchitectureInfo {
  Architecture architecture;
  std::string_view name;        ///< command-line spelling, e.g. "mobilenet-v1"
  std::string_view description; ///< one line for --help
  int standardBlocks;           ///< depth of the published network
};

/// Every architecture, in a stable order.
[[nodiscard]] const std::vector<ArchitectureInfo>& architectures();
[[nodiscard]] const ArchitectureInfo& infoOf(Architecture architecture);
[[nodiscard]] std::optional<Architecture> architectureFromName(std::string_view name);

/// What to generate. The same options always give byte-identical files.
struct NetworkOptions {
  Architecture architecture = Architecture::MobileNetV1;
  double alpha = 1.0;        ///< width multiplier applied to every layer's channels
  int resolution = 224;      ///< input height and width
  std::optional<int> blocks; ///< repeated blocks; the published depth when unset
  int classes = 1000;        ///< classifier outputs
  std::uint64_t seed = 1;    ///< seeds weights, biases and quantisation parameters
};

/// Checks the options' ranges; returns a message for the first problem, or nullopt.
[[nodiscard]] std::optional<std::string> validate(const NetworkOptions& options);

/// What a generated model contains, computed while it is built (the analytic counts a loaded model
/// must reproduce).
struct ModelSummary {
  std::size_t operators = 0;
  std::map<std::string, std::size_t> operatorCounts; ///< by TFLite name ("CONV_2D")
  /// Multiply-accumulates: convolution OH*OW*OC*KH*KW*IC, depthwise OH*OW*C*KH*KW, fully connected
  /// IC*OC; other operators count none.
  std::int64_t macs = 0;
  std::int64_t constantBytes = 0; ///< weights and biases
  std::vector<int> inputShape;
  std::vector<int> outputShape;
  int blocks = 0;
};

struct GeneratedModel {
  std::vector<std::uint8_t> bytes; ///< a .tflite file
  ModelSummary summary;
};

/// The summary of the model `generate` would write, without generating weights (fast at any depth).
[[nodiscard]] ModelSummary plan(const NetworkOptions& options);

/// Generates the model. Throws std::invalid_argument for invalid options and std::length_error when the
/// model would exceed the 2 GiB a TFLite flatbuffer can hold.
[[nodiscard]] GeneratedModel generate(const NetworkOptions& options);

/// "npu-model-gen mobilenet-v1 alpha=0.25 resolution=96 blocks=13 classes=1000 seed=1": the model's
/// description field, naming everything needed to generate it again.
[[nodiscard]] std::string describe(const NetworkOptions& options);

} // namespace npu::modelgen
