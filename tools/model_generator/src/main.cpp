// SPDX-License-Identifier: Apache-2.0
// npu-model-gen: writes deterministic int8 TFLite models of real architectures (see --help).
#include "model_generator/model_generator.hpp"
#include "model_generator/random_network.hpp"

#include <boost/program_options.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace po = boost::program_options;
using namespace npu::modelgen;

namespace {

constexpr int kExitSuccess = 0;
constexpr int kExitFailure = 1; // the model cannot be generated or written
constexpr int kExitUsage = 2;

void printUsage(std::ostream& out, const po::options_description& options) {
  out << "Usage: npu-model-gen ARCHITECTURE [options]\n"
         "\n"
         "Writes an int8 TensorFlow Lite model of a real architecture with generated weights: per-channel\n"
         "int8 weights, int32 biases and plausible activation ranges, drawn from a seeded generator. The\n"
         "same arguments always give a byte-identical file, on any machine.\n"
         "\n"
         "Architectures:\n";
  for (const ArchitectureInfo& info : architectures()) {
    out << "  " << info.name << std::string(16 - info.name.size(), ' ') << info.description << " ("
        << info.standardBlocks << " blocks published)\n";
  }
  out << "  random          a random but valid network for differential testing (see below)\n";
  out << "\n"
      << options
      << "\n"
         "Depth: --blocks sets the number of repeated blocks (depthwise-separable blocks for v1, bottlenecks\n"
         "for v2). More blocks than published are added to the 512-channel (v1) or 64-channel (v2) stage;\n"
         "fewer shorten the longest stages first. mobilenet-v1 has 2 x blocks + 5 operators, so --blocks 3\n"
         "to --blocks 4998 gives 11 to 10,001 layers.\n"
         "\n"
         "random: NPU operators of Vela's supported-operator tables and CPU-only operators, int8, uint8 or\n"
         "int16, random shapes, strides, dilations, paddings, per-channel quantisation, broadcasting,\n"
         "residuals, concatenations and splits, several inputs and outputs. --seed picks the network;\n"
         "--operators (default 12) how many layers are drawn; --type int8|uint8|int16 (default drawn);\n"
         "--inputs (most inputs, default 2); --resolution and --channels bound the input (default 48 and\n"
         "32); --kinds a,b,... draws only those kinds (--list-kinds prints them); --no-cpu leaves CPU-only\n"
         "operators out.\n"
         "\n"
         "Examples:\n"
         "  npu-model-gen mobilenet-v1 --alpha 0.25 --resolution 96 -o mobilenet_v1_025_96.tflite\n"
         "  npu-model-gen mobilenet-v2 --alpha 0.35 --resolution 128 --blocks 40 -o deep_v2.tflite\n"
         "  npu-model-gen mobilenet-v1 --blocks 4998 --alpha 0.25 --print-macs\n"
         "  npu-model-gen random --seed 17 --operators 20 --type int16 -o random17.tflite\n"
         "\n"
         "Exit status: 0 success, 1 the model cannot be generated or written, 2 usage error.\n";
}

void printSummary(std::ostream& out, const NetworkOptions& options, const ModelSummary& summary) {
  const auto shape = [](const std::vector<int>& dims) {
    std::string text = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) {
      text += (i == 0 ? "" : ", ") + std::to_string(dims[i]);
    }
    return text + "]";
  };
  out << describe(options) << "\n"
      << "  input      int8 " << shape(summary.inputShape) << "\n"
      << "  output     int8 " << shape(summary.outputShape) << "\n"
      << "  operators  " << summary.operators << "\n";
  for (const auto& [name, count] : summary.operatorCounts) {
    out << "    " << name << std::string(name.size() < 20 ? 20 - name.size() : 1, ' ') << count << "\n";
  }
  out << "  MACs       " << summary.macs << "\n"
      << "  constants  " << summary.constantBytes << " bytes\n";
}

bool writeFile(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  file.close();
  return static_cast<bool>(file);
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (const char c : text + ",") {
    if (c == ',') {
      if (!item.empty()) {
        items.push_back(item);
      }
      item.clear();
    } else {
      item += c;
    }
  }
  return items;
}

int runRandom(const po::variables_map& arguments, const std::string& output) {
  if (arguments.count("list-kinds") != 0U) {
    for (const std::string_view kind : randomOperatorKinds()) {
      std::cout << kind << "\n";
    }
    return kExitSuccess;
  }
  RandomNetworkOptions options;
  options.seed = arguments["seed"].as<std::uint64_t>();
  if (arguments.count("operators") != 0U) {
    options.operators = arguments["operators"].as<int>();
  }
  if (arguments.count("type") != 0U) {
    const std::string type = arguments["type"].as<std::string>();
    options.type = elementTypeFromName(type);
    if (!options.type) {
      std::cerr << "npu-model-gen: unknown type '" << type << "' (int8, uint8 or int16)\n";
      return kExitUsage;
    }
  }
  if (arguments.count("inputs") != 0U) {
    options.maxInputs = arguments["inputs"].as<int>();
  }
  if (!arguments["resolution"].defaulted()) {
    options.maxResolution = arguments["resolution"].as<int>();
  }
  if (arguments.count("channels") != 0U) {
    options.maxChannels = arguments["channels"].as<int>();
  }
  if (arguments.count("kinds") != 0U) {
    options.kinds = splitList(arguments["kinds"].as<std::string>());
  }
  options.cpuOperators = arguments.count("no-cpu") == 0U;
  if (const auto problem = validate(options)) {
    std::cerr << "npu-model-gen: " << *problem << "\n";
    return kExitUsage;
  }
  if (output.empty()) {
    std::cerr << "npu-model-gen: nothing to do: give -o FILE\n";
    return kExitUsage;
  }
  const GeneratedModel model = generateRandomNetwork(options);
  if (!writeFile(output, model.bytes)) {
    std::cerr << "npu-model-gen: cannot write " << output << "\n";
    return kExitFailure;
  }
  if (arguments.count("summary") != 0U) {
    std::cout << describe(options) << "\n  operators  " << model.summary.operators << "\n";
    for (const auto& [kind, count] : model.summary.operatorCounts) {
      std::cout << "    " << kind << std::string(kind.size() < 24 ? 24 - kind.size() : 1, ' ') << count << "\n";
    }
    std::cout << "  MACs       " << model.summary.macs << "\n";
  }
  return kExitSuccess;
}

int run(int argc, char** argv) {
  po::options_description visible("Options");
  std::string output;
  NetworkOptions network;
  int blocks = 0;
  visible.add_options()("output,o", po::value(&output)->value_name("FILE"), "write the model to FILE")(
      "alpha", po::value(&network.alpha)->value_name("A")->default_value(1.0, "1.0"),
      "width multiplier of every layer's channels (0 < A <= 4)")(
      "resolution", po::value(&network.resolution)->value_name("R")->default_value(224),
      "input height and width (8..4096)")("blocks", po::value(&blocks)->value_name("N"),
                                          "repeated blocks (default: the published depth)")(
      "classes", po::value(&network.classes)->value_name("K")->default_value(1000), "classifier outputs")(
      "seed", po::value(&network.seed)->value_name("S")->default_value(1), "seed of weights and quantisation")(
      "print-macs", "print the analytic multiply-accumulate count and nothing else")(
      "summary", "print the operators, MACs and constant bytes of the model")(
      "operators", po::value<int>()->value_name("N"), "random: layers drawn (default 12)")(
      "type", po::value<std::string>()->value_name("T"), "random: int8, uint8 or int16 (default drawn)")(
      "inputs", po::value<int>()->value_name("N"), "random: most subgraph inputs (default 2)")(
      "channels", po::value<int>()->value_name("C"), "random: largest input depth (default 32)")(
      "kinds", po::value<std::string>()->value_name("LIST"), "random: draw only these kinds (comma-separated)")(
      "no-cpu", "random: no CPU-only operators")("list-kinds", "random: print the operator kinds and exit")(
      "help,h", "show this help")(
      "version", "show the version");
  po::options_description all;
  all.add(visible).add_options()("architecture", po::value<std::string>());
  po::positional_options_description positional;
  positional.add("architecture", 1);

  po::variables_map arguments;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), arguments);
    po::notify(arguments);
  } catch (const po::error& error) {
    std::cerr << "npu-model-gen: " << error.what() << "\nTry 'npu-model-gen --help'.\n";
    return kExitUsage;
  }
  if (arguments.count("help") != 0U) {
    printUsage(std::cout, visible);
    return kExitSuccess;
  }
  if (arguments.count("version") != 0U) {
    std::cout << "npu-model-gen " << NPU_PIPELINE_VERSION << "\n";
    return kExitSuccess;
  }
  if (arguments.count("architecture") == 0U) {
    std::cerr << "npu-model-gen: missing ARCHITECTURE (mobilenet-v1, mobilenet-v2 or random)\nTry 'npu-model-gen --help'.\n";
    return kExitUsage;
  }
  const std::string name = arguments["architecture"].as<std::string>();
  if (name == "random") {
    return runRandom(arguments, output);
  }
  const std::optional<Architecture> architecture = architectureFromName(name);
  if (!architecture) {
    std::cerr << "npu-model-gen: unknown architecture '" << name << "' (known: mobilenet-v1, mobilenet-v2, random)\n";
    return kExitUsage;
  }
  network.architecture = *architecture;
  if (arguments.count("blocks") != 0U) {
    network.blocks = blocks;
  }
  if (const auto problem = validate(network)) {
    std::cerr << "npu-model-gen: " << *problem << "\n";
    return kExitUsage;
  }
  const bool printMacs = arguments.count("print-macs") != 0U;
  const bool printSummaryOnly = arguments.count("summary") != 0U;
  if (output.empty() && !printMacs && !printSummaryOnly) {
    std::cerr << "npu-model-gen: nothing to do: give -o FILE, --print-macs or --summary\n";
    return kExitUsage;
  }

  if (output.empty()) { // counting only: no weights are generated
    const ModelSummary summary = plan(network);
    if (printMacs) {
      std::cout << summary.macs << "\n";
    } else {
      printSummary(std::cout, network, summary);
    }
    return kExitSuccess;
  }
  const GeneratedModel model = generate(network);
  if (!writeFile(output, model.bytes)) {
    std::cerr << "npu-model-gen: cannot write " << output << "\n";
    return kExitFailure;
  }
  if (printMacs) {
    std::cout << model.summary.macs << "\n";
  } else if (printSummaryOnly) {
    printSummary(std::cout, network, model.summary);
  }
  return kExitSuccess;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "npu-model-gen: " << error.what() << "\n";
    return kExitFailure;
  }
}
