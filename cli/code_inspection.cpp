// SPDX-License-Identifier: Apache-2.0
#include "code_inspection.hpp"

#include "npu/plugin/codegen.hpp"

namespace npu::cli {

int inspectCode(const PluginHost& host, const Graph& model, const CodeInspectionRequest& request, std::ostream& out) {
  int operators = 0;
  int problems = 0;
  for (const LoadedPluginInfo& info : host.plugins()) {
    if (info.kind != PluginKind::Codegen) {
      continue;
    }
    const auto* codegen = static_cast<const CodegenPlugin*>(host.find(PluginKind::Codegen, info.id));
    const CodeInspection inspection = codegen->inspect(model);
    if (inspection.operators == 0 && inspection.problems.empty()) {
      continue;
    }
    operators += inspection.operators;
    if (request.listCommands) {
      out << inspection.listing;
    }
    if (request.check) {
      for (const std::string& problem : inspection.problems) {
        out << "problem (" << info.id << "): " << problem << "\n";
      }
      problems += static_cast<int>(inspection.problems.size());
    }
  }
  if (operators == 0) {
    out << "no accelerator operators that a loaded code generator can read in " << model.sourcePath << "\n";
  } else if (request.check) {
    out << "checked " << operators << " accelerator operator" << (operators == 1 ? "" : "s") << ": "
        << (problems == 0 ? "no problems" : std::to_string(problems) + " problem" + (problems == 1 ? "" : "s")) << "\n";
  }
  return problems == 0 ? 0 : 1;
}

} // namespace npu::cli
