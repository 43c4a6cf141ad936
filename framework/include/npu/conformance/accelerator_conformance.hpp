// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"

#include <string>
#include <vector>

namespace npu {

/// Result of one conformance check.
struct ConformanceCheck {
  std::string name;    ///< e.g. "cost model is deterministic"
  bool passed = true;
  std::string detail;  ///< what failed, with the values seen
};

struct ConformanceReport {
  std::string plugin;
  std::string variant;
  std::vector<ConformanceCheck> checks;
  [[nodiscard]] bool passed() const;
  [[nodiscard]] std::string render() const;
};

/// Small graphs every accelerator is asked about: convolutions, depthwise, fully connected, pooling and
/// elementwise operations on int8 feature maps of a few shapes, with constant weights and biases.
[[nodiscard]] NPU_API Graph conformanceProbeGraph();

/// Checks that an accelerator keeps the contract every scheduler relies on (see
/// docs/writing-an-accelerator-plugin.md): a sane description of itself and its memories, support
/// verdicts with reasons, block configs that exist for supported operations, weight encodings that
/// cover every output channel, finite non-negative costs, identical answers for identical questions, and
/// identical answers when asked from many threads at once.
[[nodiscard]] NPU_API ConformanceReport checkAccelerator(const Accelerator& accelerator);

/// Runs checkAccelerator for every variant of a plugin (with its default options), plus the checks of
/// the plugin itself (variants listed, unknown variant refused with an npu::Error).
[[nodiscard]] NPU_API std::vector<ConformanceReport> checkAcceleratorPlugin(const AcceleratorPlugin& plugin,
                                                                          const std::string& pluginId,
                                                                          const std::vector<std::filesystem::path>&
                                                                              configSearchPath);

} // namespace npu
