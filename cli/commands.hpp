// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace npu::cli {

/// Each command takes its arguments (after the command name) and returns the exit code; errors are
/// thrown as npu::Error and turned into messages and exit codes by main().
int runCommand(const std::vector<std::string>& arguments);
int compareCommand(const std::vector<std::string>& arguments);
int inspectCommand(const std::vector<std::string>& arguments);
int validateCommand(const std::vector<std::string>& arguments);
int pluginsCommand(const std::vector<std::string>& arguments);
int conformanceCommand(const std::vector<std::string>& arguments);
int sweepCommand(const std::vector<std::string>& arguments);
int velaCommand(const std::vector<std::string>& arguments);

} // namespace npu::cli
