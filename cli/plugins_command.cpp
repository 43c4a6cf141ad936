// SPDX-License-Identifier: Apache-2.0
#include "cli_common.hpp"
#include "commands.hpp"

#include "npu/core/json.hpp"

#include <iomanip>
#include <iostream>

namespace po = boost::program_options;

namespace npu::cli {

int pluginsCommand(const std::vector<std::string>& arguments) {
  CommonOptions common;
  bool json = false;
  po::options_description options("plugins options");
  addCommonOptions(options, common);
  options.add_options()("json", po::bool_switch(&json), "print as JSON");
  parseArguments(arguments, options, {});
  if (common.help) {
    printHelp("npu-pipeline plugins [--json] [--plugin-path DIR]...",
              "Lists the plugins found on the search path (kind, id, version, file) and every library that "
              "was refused, with the reason. Each library is loaded in a child process, so one that "
              "crashes or exits while loading is listed as refused.",
              options);
    return 0;
  }
  const PluginHost host = loadPlugins(common, PluginHost::Loading::InspectInChild);
  if (json) {
    JsonWriter out;
    out.beginObject().key("search_path").beginArray();
    for (const auto& directory : host.searchedDirectories()) {
      out.value(directory.string());
    }
    out.endArray().key("plugins").beginArray();
    for (const auto& info : host.plugins()) {
      out.beginObject()
          .field("kind", std::string(nameOf(info.kind)))
          .field("id", info.id)
          .field("version", info.version)
          .field("summary", info.summary)
          .field("path", info.path.string())
          .endObject();
    }
    out.endArray().key("refused").beginArray();
    for (const auto& refused : host.refused()) {
      out.beginObject().field("path", refused.path.string()).field("reason", refused.reason).endObject();
    }
    out.endArray().endObject();
    std::cout << out.str();
    return 0;
  }
  std::cout << "search path:\n";
  for (const auto& directory : host.searchedDirectories()) {
    std::cout << "  " << directory.string() << "\n";
  }
  std::cout << "\n"
            << std::left << std::setw(12) << "kind" << std::setw(22) << "id" << std::setw(10) << "version"
            << "path\n";
  for (const auto& info : host.plugins()) {
    std::cout << std::setw(12) << nameOf(info.kind) << std::setw(22) << info.id << std::setw(10) << info.version
              << info.path.string() << "\n";
    if (!info.summary.empty()) {
      std::cout << std::setw(44) << "" << info.summary << "\n";
    }
  }
  if (!host.refused().empty()) {
    std::cout << "\nrefused:\n";
    for (const auto& refused : host.refused()) {
      std::cout << "  " << refused.path.string() << "\n    " << refused.reason << "\n";
    }
  }
  return 0;
}

} // namespace npu::cli
