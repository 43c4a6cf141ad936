// SPDX-License-Identifier: Apache-2.0
#pragma once

// Code generation for a whole compiled network: every NPU region's command stream, the read-only area
// they share, the scratch sizes, and the output model written as Vela 3.10 writes its _vela.tflite.

#include "model/output_graph.hpp"

#include "npu/plugin/codegen.hpp"
#include "npu/plugin/options.hpp"

#include <string>
#include <vector>

namespace ethosu::codegen {

struct CodegenOptions {
  /// Largest BLOCKDEP in the command streams (Vela's --max-block-dependency).
  int maxBlockDependency = 3;
  /// The output file is "<network><suffix>.tflite" (Vela: "_vela").
  std::string fileSuffix = "_vela";
  /// Judge every command stream's memory trace before writing (see checker/access_trace.hpp).
  bool check = true;
};

[[nodiscard]] std::vector<npu::OptionSpec> codegenOptionSpecs();
[[nodiscard]] CodegenOptions readCodegenOptions(const npu::OptionValues& values);

/// Command streams (driver payloads, one per schedule) and the read-only area of a compiled network.
/// Throws a Compile error naming the operation when a register cannot hold what it needs.
[[nodiscard]] GeneratedCode generateCode(const npu::CodegenRequest& request, const CodegenOptions& options);

/// The whole output model.
[[nodiscard]] npu::GeneratedModel generateModel(const npu::CodegenRequest& request, const CodegenOptions& options);

} // namespace ethosu::codegen
