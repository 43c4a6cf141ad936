// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/ir/graph.hpp"
#include "npu/plugin/plugin.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace npu {

/// Reads a model file into the IR. Must never crash on malformed input: every problem is an Error of
/// kind Model naming the file and, where known, the byte offset or graph object.
class NPU_API FrontendPlugin : public Plugin {
public:
  /// File name endings this frontend reads, e.g. {".tflite"}.
  [[nodiscard]] virtual std::vector<std::string> fileExtensions() const = 0;
  [[nodiscard]] virtual Graph read(const std::filesystem::path& file, const OptionValues& options) const = 0;
};

} // namespace npu
