// SPDX-License-Identifier: Apache-2.0
#include "vela_options.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/plugin/accelerator.hpp"
#include "npu/plugin/options.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <functional>
#include <sstream>

namespace npu::cli {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void velaUsageError(const std::string& message,
                                 const std::string& hint = "run `npu-pipeline vela --help`") {
  throw Error(ErrorKind::Usage, "vela: " + message, {}, hint);
}

std::int64_t integerValue(const std::string& option, const std::string& text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    velaUsageError("argument " + option + ": invalid int value: '" + text + "'");
  }
  return value;
}

std::string choiceValue(const std::string& option, const std::string& text, const std::vector<std::string>& choices) {
  if (std::find(choices.begin(), choices.end(), text) == choices.end()) {
    std::string list;
    for (const auto& choice : choices) {
      list += (list.empty() ? "" : ", ") + choice;
    }
    velaUsageError("argument " + option + ": invalid choice: '" + text + "' (choose from " + list + ")");
  }
  return text;
}

/// One option of Vela's command line: a flag, an option with a value, or one npu-pipeline does not
/// support (then `unsupported` says why).
struct OptionRow {
  std::string name;
  bool takesValue = false;
  std::function<void(VelaOptions&, const std::string&)> apply;
  std::string help;
  std::string unsupported;
};

OptionRow flag(std::string name, bool VelaOptions::*member, std::string help) {
  return {
      std::move(name), false, [member](VelaOptions& o, const std::string&) { o.*member = true; }, std::move(help), {}};
}

OptionRow valued(std::string name, std::function<void(VelaOptions&, const std::string&)> apply, std::string help) {
  return {std::move(name), true, std::move(apply), std::move(help), {}};
}

OptionRow refused(std::string name, bool takesValue, std::string why) {
  return {std::move(name), takesValue, nullptr, {}, std::move(why)};
}

void enableAllVerbose(VelaOptions& options, const std::string&) {
  options.verboseConfig = options.verboseSchedule = options.verboseAllocation = options.verbosePerformance = true;
  options.verboseWeights = options.verboseProgress = options.verboseRegisterCommandStream = true;
}

const std::vector<OptionRow>& optionTable() {
  static const std::vector<OptionRow> table{
      flag("--help", &VelaOptions::help, "show this help and exit"),
      flag("--version", &VelaOptions::version, "print the version and exit"),
      flag("--supported-ops-report", &VelaOptions::supportedOpsReport,
           "write SUPPORTED_OPS.md (and SUPPORTED_OPS.json with --json) for --accelerator-config, from the "
           "accelerator plugin's own constraint tables, into the current directory and exit"),
      flag("--list-config-files", &VelaOptions::listConfigFiles,
           "list the bundled configuration files (Arm/vela.ini) and their sections and exit"),
      valued(
          "--output-dir", [](VelaOptions& o, const std::string& v) { o.outputDir = v; },
          "output directory (default: output)"),
      valued(
          "--config", [](VelaOptions& o, const std::string& v) { o.configFiles.push_back(v); },
          "Vela configuration file (.ini); repeatable, later files win; Arm/vela.ini is bundled"),
      flag("--verbose-config", &VelaOptions::verboseConfig, "print the resolved system config and memory mode"),
      flag("--verbose-schedule", &VelaOptions::verboseSchedule, "print the schedule, operation by operation"),
      flag("--verbose-allocation", &VelaOptions::verboseAllocation, "print the address and live range of every tensor"),
      flag("--verbose-performance", &VelaOptions::verbosePerformance,
           "print the per-layer table and write <network>_per-layer.csv"),
      flag("--verbose-weights", &VelaOptions::verboseWeights, "print the original and encoded weight sizes"),
      flag("--verbose-progress", &VelaOptions::verboseProgress, "show progress (always shown on a terminal)"),
      flag("--verbose-register-command-stream", &VelaOptions::verboseRegisterCommandStream,
           "print the register commands of every generated command stream"),
      {"--verbose-all", false, enableAllVerbose, "every supported --verbose-* option", {}},
      flag("--show-cpu-operations", &VelaOptions::showCpuOperations, "list the operations that run on the CPU"),
      flag("--timing", &VelaOptions::timing, "print the time each compilation stage took"),
      flag("--force-symmetric-int-weights", &VelaOptions::forceSymmetricIntWeights,
           "force the zero points of signed integer weights to 0"),
      valued(
          "--accelerator-config", [](VelaOptions& o, const std::string& v) { o.acceleratorConfig = v; },
          "accelerator variant (default: ethos-u55-256): ethos-u55-32/64/128/256, ethos-u65-256/512, or a "
          "variant of another accelerator plugin"),
      valued(
          "--system-config", [](VelaOptions& o, const std::string& v) { o.systemConfig = v; },
          "system config section of the --config files (default: internal-default)"),
      valued(
          "--memory-mode", [](VelaOptions& o, const std::string& v) { o.memoryMode = v; },
          "memory mode section of the --config files (default: internal-default)"),
      valued(
          "--tensor-allocator",
          [](VelaOptions& o, const std::string& v) {
            o.tensorAllocator = choiceValue("--tensor-allocator", v, {"LinearAlloc", "Greedy", "HillClimb"});
          },
          "LinearAlloc, Greedy or HillClimb (default: HillClimb)"),
      valued(
          "--max-block-dependency",
          [](VelaOptions& o, const std::string& v) {
            o.maxBlockDependency = std::stoi(choiceValue("--max-block-dependency", v, {"0", "1", "2", "3"}));
          },
          "0 to 3 (default: 3)"),
      valued(
          "--optimise",
          [](VelaOptions& o, const std::string& v) {
            o.optimise = choiceValue("--optimise", v, {"Performance", "Size"});
          },
          "Performance or Size (default: Performance)"),
      valued(
          "--arena-cache-size",
          [](VelaOptions& o, const std::string& v) {
            const auto bytes = parseByteSize(v);
            if (!bytes) {
              velaUsageError("argument --arena-cache-size: invalid int value: '" + v + "'");
            }
            o.arenaCacheSize = *bytes;
          },
          "arena cache size in bytes; overrides the memory mode's"),
      valued(
          "--cpu-tensor-alignment",
          [](VelaOptions& o, const std::string& v) {
            o.cpuTensorAlignment = integerValue("--cpu-tensor-alignment", v);
          },
          "alignment of CPU tensors in bytes, a power of 2 >= 16 (default: 16)"),
      valued(
          "--recursion-limit",
          [](VelaOptions& o, const std::string& v) { o.recursionLimit = integerValue("--recursion-limit", v); },
          "accepted and ignored: nothing here recurses on the graph"),
      valued(
          "--hillclimb-max-iterations",
          [](VelaOptions& o, const std::string& v) {
            o.hillclimbMaxIterations = integerValue("--hillclimb-max-iterations", v);
          },
          "iterations of the HillClimb allocator (default: 99999)"),
      flag("--json", &VelaOptions::json, "npu-pipeline: also write <network>.json (the full report, format 1)"),
      flag("--print-pipeline", &VelaOptions::printPipeline, "npu-pipeline: print the equivalent pipeline YAML"),
      valued(
          "--plugin-path", [](VelaOptions& o, const std::string& v) { o.pluginPaths.push_back(v); },
          "npu-pipeline: extra plugin directory (repeatable)"),
      valued(
          "--threads",
          [](VelaOptions& o, const std::string& v) { o.threads = static_cast<int>(integerValue("--threads", v)); },
          "npu-pipeline: worker threads (default: all cores)"),
      refused("--api-version", false, "npu-pipeline has no Python API version"),
      refused("--enable-debug-db", false, "the debug database (<network>_debug.xml) is not written"),
      refused("--show-subgraph-io-summary", false, "the subgraph I/O summary is not printed"),
      refused("--verbose-graph", false,
              "the graph rewriter's log is not printed (see `npu-pipeline inspect --lowered`)"),
      refused("--verbose-quantization", false, "the quantization log is not printed"),
      refused("--verbose-packing", false, "pass packing is not printed (see `npu-pipeline inspect --lowered`)"),
      refused("--verbose-tensor-purpose", false, "tensor purposes are not printed"),
      refused("--verbose-tensor-format", false, "tensor formats are not printed"),
      refused("--verbose-high-level-command-stream", false,
              "the high-level command stream is not printed (see --verbose-register-command-stream)"),
      refused("--verbose-operators", false, "the operator list is not printed (see `npu-pipeline inspect`)"),
  };
  return table;
}

/// argparse's lookup: an exact name, else the one option the text is a prefix of.
const OptionRow& findOption(const std::string& name) {
  const auto& table = optionTable();
  std::vector<const OptionRow*> matches;
  for (const auto& row : table) {
    if (row.name == name) {
      return row;
    }
    if (row.name.starts_with(name)) {
      matches.push_back(&row);
    }
  }
  if (name == "-h") {
    return table.front();
  }
  if (matches.size() == 1) {
    return *matches.front();
  }
  if (matches.empty()) {
    velaUsageError("unrecognized argument: " + name);
  }
  std::string list;
  for (const auto* row : matches) {
    list += (list.empty() ? "" : ", ") + row->name;
  }
  velaUsageError("ambiguous option: " + name + " could match " + list);
}

} // namespace

VelaOptions parseVelaArguments(const std::vector<std::string>& arguments) {
  VelaOptions options;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (!argument.starts_with("-") || argument == "-") {
      if (!options.network.empty()) {
        velaUsageError("unrecognized argument: " + argument, "Vela compiles one NETWORK per run");
      }
      options.network = argument;
      continue;
    }
    const auto equals = argument.find('=');
    const std::string name = argument.substr(0, equals);
    const OptionRow& row = findOption(name);
    if (!row.unsupported.empty()) {
      velaUsageError("Vela option " + row.name + " is not supported: " + row.unsupported,
                     "leave it out; docs/vela-compatibility.md lists what is supported");
    }
    std::string value;
    if (row.takesValue) {
      if (equals != std::string::npos) {
        value = argument.substr(equals + 1);
      } else if (i + 1 < arguments.size()) {
        value = arguments[++i];
      } else {
        velaUsageError("argument " + row.name + ": expected one argument");
      }
    } else if (equals != std::string::npos) {
      velaUsageError("argument " + row.name + ": ignored explicit argument '" + argument.substr(equals + 1) + "'");
    }
    row.apply(options, value);
  }
  if (options.cpuTensorAlignment) {
    const std::int64_t alignment = *options.cpuTensorAlignment;
    if (alignment < 16 || (alignment & (alignment - 1)) != 0) {
      velaUsageError("Invalid argument to --cpu-tensor-alignment = " + std::to_string(alignment) +
                     " (must be greater than or equal to 16 and a power of 2)");
    }
  }
  if (options.threads < 0) {
    velaUsageError("--threads must be positive");
  }
  return options;
}

std::string velaHelpText() {
  std::ostringstream out;
  out << "usage: npu-pipeline vela NETWORK [Vela 3.10 options]\n\n"
         "Compiles NETWORK as Arm's Vela 3.10 would with the same options, and writes what Vela writes to\n"
         "--output-dir: <network>_vela.tflite, <network>_summary_<system config>.csv and, with\n"
         "--verbose-performance, <network>_per-layer.csv. Option names may be shortened to any unambiguous\n"
         "prefix, as in Vela. docs/vela-compatibility.md maps every option.\n\noptions:\n";
  for (const auto& row : optionTable()) {
    if (!row.unsupported.empty()) {
      continue;
    }
    std::string left = "  " + row.name + (row.takesValue ? " VALUE" : "");
    left.resize(std::max<std::size_t>(left.size() + 1, 36), ' ');
    out << left << row.help << "\n";
  }
  out << "\nnot supported (an error names them):";
  for (const auto& row : optionTable()) {
    if (!row.unsupported.empty()) {
      out << " " << row.name;
    }
  }
  out << "\n";
  return out.str();
}

fs::path bundledConfigRoot() {
  for (const auto& root : defaultConfigSearchPath()) {
    if (fs::exists(root / "systems")) {
      return root;
    }
  }
  return defaultConfigSearchPath().front();
}

} // namespace npu::cli
