// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/host/plugin_host.hpp"
#include "npu/ir/graph.hpp"
#include "npu/plugin/frontend.hpp"

#include <boost/program_options.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace npu::cli {

/// Options every command understands.
struct CommonOptions {
  std::vector<std::string> pluginPaths;
  bool allowPipelinePlugins = false; ///< a pipeline file's plugin_path: may load libraries
  bool help = false;
};

/// Adds --help and --plugin-path to a command's option description.
void addCommonOptions(boost::program_options::options_description& options, CommonOptions& common);

/// Parses a command's arguments; unknown options and missing values are Usage errors.
boost::program_options::variables_map
parseArguments(const std::vector<std::string>& arguments, const boost::program_options::options_description& options,
               const boost::program_options::positional_options_description& positional);

/// A host with the --plugin-path directories and the default search path as candidates, opened as
/// lookups need them; a pipeline's plugin_path: is honoured only with --allow-pipeline-plugins or
/// NPU_PIPELINE_ALLOW_PIPELINE_PLUGINS=1.
PluginHost loadPlugins(const CommonOptions& common, PluginHost::Loading loading = PluginHost::Loading::InProcess);

/// The frontend plugin whose file extensions match the model (the first loaded one wins).
const FrontendPlugin& frontendForModel(const PluginHost& host, const std::filesystem::path& model);

/// At most this many worker threads per hardware thread: more only costs memory (each worker has its
/// own stack and scheduler state), and an absurd --threads would grow memory until the process dies.
inline constexpr unsigned kMaxThreadsPerCore = 4;

/// The worker thread count for the schedulers: --threads N when given (1 to kMaxThreadsPerCore × the
/// hardware threads, else a Usage error), otherwise every core.
std::size_t workerThreads(const std::string& command, const boost::program_options::variables_map& values,
                          int requested);

/// Throws a Usage error naming the command and what is missing.
[[noreturn]] void usageError(const std::string& command, const std::string& message);

void printHelp(const std::string& synopsis, const std::string& description,
               const boost::program_options::options_description& options);

} // namespace npu::cli
