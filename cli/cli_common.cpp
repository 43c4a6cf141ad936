// SPDX-License-Identifier: Apache-2.0
#include "cli_common.hpp"

#include "npu/core/input_file.hpp"

#include <tbb/global_control.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string_view>
#include <thread>

namespace po = boost::program_options;

namespace npu::cli {

void addCommonOptions(po::options_description& options, CommonOptions& common) {
  options.add_options()("help,h", po::bool_switch(&common.help), "show this help")(
      "plugin-path", po::value(&common.pluginPaths)->composing(),
      "extra directory to load plugins from (repeatable; searched before the defaults)")(
      "allow-pipeline-plugins", po::bool_switch(&common.allowPipelinePlugins),
      "let a pipeline file's plugin_path: load plugins (only for pipelines you trust; also "
      "NPU_PIPELINE_ALLOW_PIPELINE_PLUGINS=1)");
}

po::variables_map parseArguments(const std::vector<std::string>& arguments, const po::options_description& options,
                                 const po::positional_options_description& positional) {
  po::variables_map values;
  try {
    po::store(po::command_line_parser(arguments).options(options).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& error) {
    throw Error(ErrorKind::Usage, error.what(), {}, "see --help");
  }
  return values;
}

PluginHost loadPlugins(const CommonOptions& common, PluginHost::Loading loading) {
  PluginHost host(loading);
  const char* allowed = std::getenv("NPU_PIPELINE_ALLOW_PIPELINE_PLUGINS");
  host.allowPipelinePluginPaths(common.allowPipelinePlugins ||
                                (allowed != nullptr && std::string_view(allowed) == "1"));
  for (const auto& path : common.pluginPaths) {
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {
      throw Error(ErrorKind::Usage, "--plugin-path '" + path + "' is not a directory", {},
                  "give a folder that holds plugin libraries (npu_*.so)");
    }
    host.loadDirectory(path);
  }
  host.loadSearchPath(PluginHost::defaultSearchPath());
  return host;
}

const FrontendPlugin& frontendForModel(const PluginHost& host, const std::filesystem::path& model) {
  // The file itself first: a directory, FIFO or device is refused as such, as `run` refuses it.
  checkInputFile(model, kModelFile);
  const std::string extension = model.extension().string();
  std::string known;
  for (const auto& info : host.plugins()) {
    if (info.kind != PluginKind::Frontend) {
      continue;
    }
    const auto& frontend = host.require<FrontendPlugin>(PluginKind::Frontend, info.id, {});
    for (const auto& candidate : frontend.fileExtensions()) {
      if (candidate == extension) {
        return frontend;
      }
      known += (known.empty() ? "" : ", ") + candidate;
    }
  }
  throw Error(
      ErrorKind::Usage, "no frontend plugin reads '" + extension + "' files", SourceLocation{model.string(), 0, 0, {}},
      known.empty() ? "no frontend plugins were found; run `npu-pipeline plugins`" : "readable file types: " + known);
}

std::size_t workerThreads(const std::string& command, const po::variables_map& values, int requested) {
  if (values.count("threads") == 0) {
    return tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  }
  const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
  const long long limit = static_cast<long long>(kMaxThreadsPerCore) * cores;
  if (requested < 1 || requested > limit) {
    throw Error(ErrorKind::Usage,
                command + ": --threads " + std::to_string(requested) + " is out of range: use 1 to " +
                    std::to_string(limit),
                {},
                "the limit is " + std::to_string(kMaxThreadsPerCore) + " threads per hardware thread (" +
                    std::to_string(cores) + " here); leave --threads out to use every core");
  }
  return static_cast<std::size_t>(requested);
}

void usageError(const std::string& command, const std::string& message) {
  throw Error(ErrorKind::Usage, command + ": " + message, {}, "run `npu-pipeline " + command + " --help`");
}

void printHelp(const std::string& synopsis, const std::string& description, const po::options_description& options) {
  std::cout << "usage: " << synopsis << "\n\n" << description << "\n\n" << options << "\n";
}

} // namespace npu::cli
