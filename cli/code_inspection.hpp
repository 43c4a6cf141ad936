// SPDX-License-Identifier: Apache-2.0
#pragma once

// `inspect --commands` and `inspect --check`: what the code generator plugins find of their
// accelerators' code in a model (e.g. the register listing of every `ethos-u` operator).

#include "npu/host/plugin_host.hpp"
#include "npu/ir/graph.hpp"

#include <ostream>

namespace npu::cli {

struct CodeInspectionRequest {
  bool listCommands = false; ///< print every accelerator operator's commands
  bool check = false;        ///< check them; problems make the exit code 1
};

/// Prints what every loaded code generator finds in `model`; returns the exit code (1 when a check
/// finds a problem).
int inspectCode(const PluginHost& host, const Graph& model, const CodeInspectionRequest& request, std::ostream& out);

} // namespace npu::cli
