// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model_generator/model_generator.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu::modelgen {

/// Element type of a random network's feature maps (TFLite's quantised inference types).
enum class ElementType { Int8, UInt8, Int16 };

[[nodiscard]] std::string_view nameOf(ElementType type);
[[nodiscard]] std::optional<ElementType> elementTypeFromName(std::string_view name);

/// What a random network may contain. The same options always give byte-identical files.
struct RandomNetworkOptions {
  std::uint64_t seed = 1;
  int operators = 12;              ///< operators (or blocks such as squeeze-and-excite) drawn, 1..500
  std::optional<ElementType> type; ///< drawn from the seed when unset (int8 most often)
  int maxInputs = 2;               ///< subgraph inputs: 1..maxInputs, drawn
  int maxResolution = 48;          ///< largest input height or width (1..1024)
  int maxChannels = 32;            ///< largest input depth; layers grow to at most 4x this
  bool cpuOperators = true;        ///< CPU-only operators and shape side chains in the middle
  std::vector<std::string> kinds;  ///< only these operator kinds (names of randomOperatorKinds()); all if empty
};

/// Checks the options' ranges and kind names; returns a message for the first problem, or nullopt.
[[nodiscard]] std::optional<std::string> validate(const RandomNetworkOptions& options);

/// The names of the operator kinds a random network draws from, in a stable order.
[[nodiscard]] std::vector<std::string_view> randomOperatorKinds();

/// A random but valid TFLite network: NPU operators of Vela's supported-operator tables with random
/// shapes, strides, dilations, paddings, per-channel or per-tensor quantisation, broadcasting operands,
/// residual connections, concatenations and splits, CPU-only operators in the middle, several inputs
/// and outputs. Throws std::invalid_argument for invalid options.
[[nodiscard]] GeneratedModel generateRandomNetwork(const RandomNetworkOptions& options);

/// "npu-model-gen random seed=7 operators=12 type=int8 ...": the model's description field, naming
/// everything needed to generate it again.
[[nodiscard]] std::string describe(const RandomNetworkOptions& options);

} // namespace npu::modelgen
