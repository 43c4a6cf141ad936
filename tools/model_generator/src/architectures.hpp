// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "network_builder.hpp"

#include <vector>

namespace npu::modelgen {

/// Spreads `blocks` over stages whose published repeat counts are `standard`: extra blocks go to
/// `growStage`; fewer blocks shorten the longest stage first (the later one on a tie), and below one
/// block per stage the last stages are dropped. The published count gives the published network.
[[nodiscard]] std::vector<int> distributeBlocks(std::vector<int> standard, int blocks, std::size_t growStage);

/// Emits the whole network into `builder` and returns its output.
FeatureMap buildMobileNetV1(NetworkBuilder& builder, const NetworkOptions& options);
FeatureMap buildMobileNetV2(NetworkBuilder& builder, const NetworkOptions& options);

} // namespace npu::modelgen
