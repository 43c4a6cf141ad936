// SPDX-License-Identifier: Apache-2.0
#include "code_inspection.hpp"
#include "cli_common.hpp"
#include "commands.hpp"

#include "npu/core/json.hpp"
#include "npu/ir/macs.hpp"
#include "npu/pipeline/pipeline.hpp"
#include "npu/plugin/lowering.hpp"

#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

namespace po = boost::program_options;

namespace npu::cli {

namespace {

struct InspectOptions {
  std::string model;
  std::string pipeline;
  std::vector<std::string> overrides;
  bool lowered = false;
  bool json = false;
  CodeInspectionRequest code;
};

std::string shapeText(const Shape& shape) {
  std::string text = "[";
  for (int axis = 0; axis < shape.rank(); ++axis) {
    text += (axis == 0 ? "" : "x") + std::to_string(shape[axis]);
  }
  return text + "]";
}

std::string tensorText(const Subgraph& subgraph, TensorId id) {
  const Tensor* tensor = subgraph.findTensor(id);
  return tensor == nullptr ? "-" : std::string(nameOf(tensor->type)) + shapeText(tensor->shape);
}

/// Feature-map operands only; constant inputs are summarised as weight bytes.
std::vector<TensorId> variableInputs(const Subgraph& subgraph, const Operation& op) {
  std::vector<TensorId> inputs;
  for (TensorId id : op.inputs) {
    if (const Tensor* tensor = subgraph.findTensor(id); tensor != nullptr && !tensor->isConstant()) {
      inputs.push_back(id);
    }
  }
  return inputs;
}

std::string typeText(const Operation& op, bool lowered) {
  if (!lowered) {
    return op.sourceType.empty() ? std::string(nameOf(op.type)) : op.sourceType;
  }
  return std::string(nameOf(op.type)) + (op.sourceType.empty() ? "" : " (" + op.sourceType + ")");
}

std::string placementText(Placement placement) {
  switch (placement) {
  case Placement::Npu:
    return "NPU";
  case Placement::Cpu:
    return "CPU";
  case Placement::Unplaced:
    break;
  }
  return "";
}

void writeJson(const Graph& graph, bool lowered, bool placed) {
  JsonWriter out;
  out.beginObject().field("model", graph.name).field("path", graph.sourcePath).field("lowered", lowered);
  out.key("subgraphs").beginArray();
  std::int64_t totalMacs = 0;
  std::int64_t totalWeights = 0;
  for (const Subgraph& subgraph : graph.subgraphs) {
    out.beginObject().field("name", subgraph.name).key("operators").beginArray();
    std::int64_t macs = 0;
    std::int64_t weights = 0;
    for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
      const Operation& op = subgraph.operations[i];
      const auto tensorList = [&](const std::vector<TensorId>& ids) {
        out.beginArray();
        for (TensorId id : ids) {
          const Tensor* tensor = subgraph.findTensor(id);
          out.beginObject();
          if (tensor != nullptr) {
            out.field("name", tensor->name).field("dtype", std::string(nameOf(tensor->type)));
            out.key("shape").beginArray();
            for (int d : tensor->shape.dims()) {
              out.value(d);
            }
            out.endArray();
          }
          out.endObject();
        }
        out.endArray();
      };
      const std::int64_t opMacs = countMacs(subgraph, op);
      const std::int64_t opWeights = weightBytes(subgraph, op);
      macs += opMacs;
      weights += opWeights;
      out.beginObject().field("index", static_cast<std::int64_t>(i)).field("name", op.name);
      out.field("type", op.sourceType.empty() ? std::string(nameOf(op.type)) : op.sourceType);
      out.field("ir_type", std::string(nameOf(op.type)));
      out.key("inputs");
      tensorList(variableInputs(subgraph, op));
      out.key("outputs");
      tensorList(op.outputs);
      out.field("macs", opMacs).field("weight_bytes", opWeights);
      if (placed) {
        out.field("placement", placementText(op.placement)).field("reason", op.placementReason);
      }
      out.endObject();
    }
    out.endArray();
    out.key("totals").beginObject().field("operators", static_cast<std::int64_t>(subgraph.operations.size()));
    out.field("macs", macs).field("weight_bytes", weights).endObject();
    out.endObject();
    totalMacs += macs;
    totalWeights += weights;
  }
  out.endArray();
  out.key("totals").beginObject().field("macs", totalMacs).field("weight_bytes", totalWeights).endObject();
  out.endObject();
  std::cout << out.str();
}

void writeTable(const Graph& graph, bool lowered, bool placed) {
  std::cout << "model " << graph.name << " (" << graph.sourcePath << ")" << (lowered ? ", lowered" : "") << "\n";
  std::int64_t totalMacs = 0;
  std::int64_t totalWeights = 0;
  for (const Subgraph& subgraph : graph.subgraphs) {
    std::cout << "\nsubgraph '" << subgraph.name << "': " << subgraph.operations.size() << " operators\n";
    std::cout << std::left << std::setw(6) << "index" << std::setw(lowered ? 40 : 26) << "type" << std::setw(34)
              << "inputs" << std::setw(22) << "outputs" << std::right << std::setw(14) << "MACs" << std::setw(14)
              << "weight bytes" << (placed ? "  placement" : "") << "\n";
    std::int64_t macs = 0;
    std::int64_t weights = 0;
    std::int64_t npu = 0;
    for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
      const Operation& op = subgraph.operations[i];
      std::string inputs;
      for (TensorId id : variableInputs(subgraph, op)) {
        inputs += (inputs.empty() ? "" : " ") + tensorText(subgraph, id);
      }
      std::string outputs;
      for (TensorId id : op.outputs) {
        outputs += (outputs.empty() ? "" : " ") + tensorText(subgraph, id);
      }
      const std::int64_t opMacs = countMacs(subgraph, op);
      const std::int64_t opWeights = weightBytes(subgraph, op);
      macs += opMacs;
      weights += opWeights;
      npu += op.placement == Placement::Npu ? 1 : 0;
      std::cout << std::left << std::setw(6) << i << std::setw(lowered ? 40 : 26) << typeText(op, lowered)
                << std::setw(34) << inputs << std::setw(22) << outputs << std::right << std::setw(14) << opMacs
                << std::setw(14) << opWeights;
      if (placed) {
        std::cout << "  " << placementText(op.placement);
        if (!op.placementReason.empty()) {
          std::cout << ": " << op.placementReason;
        }
      }
      std::cout << "\n";
    }
    std::cout << "total: " << subgraph.operations.size() << " operators";
    if (placed) {
      std::cout << " (" << npu << " NPU, " << subgraph.operations.size() - static_cast<std::size_t>(npu) << " CPU)";
    }
    std::cout << ", " << macs << " MACs, " << weights << " weight bytes\n";
    totalMacs += macs;
    totalWeights += weights;
  }
  if (graph.subgraphs.size() > 1) {
    std::cout << "\nmodel total: " << totalMacs << " MACs, " << totalWeights << " weight bytes\n";
  }
}

/// Marks every operation of the graph NPU or CPU by asking the accelerator.
void placeOperations(Graph& graph, const Accelerator& accelerator) {
  for (Subgraph& subgraph : graph.subgraphs) {
    for (Operation& op : subgraph.operations) {
      const SupportVerdict verdict = accelerator.support().check(subgraph, op);
      op.placement = verdict.supported ? Placement::Npu : Placement::Cpu;
      op.placementReason = verdict.supported ? "" : verdict.reason;
    }
  }
}

} // namespace

int inspectCommand(const std::vector<std::string>& arguments) {
  CommonOptions common;
  InspectOptions settings;
  po::options_description options("inspect options");
  addCommonOptions(options, common);
  options.add_options()("model", po::value(&settings.model), "model file")(
      "pipeline", po::value(&settings.pipeline), "pipeline whose frontend, accelerator and lowering to use")(
      "lowered", po::bool_switch(&settings.lowered), "show the graph after the pipeline's lowering")(
      "set", po::value(&settings.overrides)->composing(), "override a pipeline setting: key=value")(
      "json", po::bool_switch(&settings.json), "print as JSON (an `operators` list per subgraph)")(
      "commands", po::bool_switch(&settings.code.listCommands),
      "list the command streams of the model's accelerator operators (e.g. the ethos-u operators of a "
      "_vela.tflite, as Vela's --verbose-register-command-stream prints them)")(
      "check", po::bool_switch(&settings.code.check),
      "check the accelerator operators' command streams (memory accesses inside their tensors, reads after "
      "the writes they need, waits between the engines, SHRAM use); exit code 1 on a problem");
  po::positional_options_description positional;
  positional.add("model", 1);
  parseArguments(arguments, options, positional);
  if (common.help) {
    printHelp("npu-pipeline inspect MODEL [--pipeline P [--lowered]] [--json] [--commands] [--check]",
              "Lists every operator of a model: index, type, input and output shapes and types, MACs and "
              "weight bytes, with totals. With --pipeline, also where each operator runs (NPU or CPU) and why; "
              "with --lowered, the graph after the pipeline's lowering. With --commands and --check, the code of its "
              "accelerator operators, listed and checked by the code generator plugins.",
              options);
    return 0;
  }
  if (settings.model.empty()) {
    usageError("inspect", "missing MODEL");
  }
  if (settings.lowered && settings.pipeline.empty()) {
    usageError("inspect", "--lowered needs --pipeline (the lowering and accelerator come from it)");
  }
  PluginHost host = loadPlugins(common);
  if (settings.code.listCommands || settings.code.check) {
    return inspectCode(host, frontendForModel(host, settings.model).read(settings.model, {}), settings.code, std::cout);
  }
  Graph graph;
  bool placed = false;
  if (settings.pipeline.empty()) {
    graph = frontendForModel(host, settings.model).read(settings.model, {});
  } else {
    PipelineSpec spec = parsePipelineFile(settings.pipeline);
    for (const auto& assignment : settings.overrides) {
      applyOverride(spec, assignment);
    }
    const ResolvedPipeline pipeline = resolvePipeline(spec, host, defaultConfigSearchPath());
    const ResolvedStage* frontendStage = pipeline.stage(PluginKind::Frontend);
    if (frontendStage == nullptr) {
      usageError("inspect", "the pipeline has no frontend stage");
    }
    graph = static_cast<const FrontendPlugin*>(frontendStage->implementation)->read(settings.model, frontendStage->options);
    if (pipeline.accelerator) {
      const auto accelerator = pipeline.accelerator->implementation->create(pipeline.accelerator->config);
      const ResolvedStage* lowering = pipeline.stage(PluginKind::Lowering);
      if (settings.lowered) {
        if (lowering == nullptr) {
          usageError("inspect", "--lowered: the pipeline has no lowering stage");
        }
        graph = static_cast<const LoweringPlugin*>(lowering->implementation)
                    ->lower(std::move(graph), *accelerator, lowering->options);
      } else {
        placeOperations(graph, *accelerator);
      }
      placed = true;
    }
  }
  if (settings.json) {
    writeJson(graph, settings.lowered, placed);
  } else {
    writeTable(graph, settings.lowered, placed);
  }
  return 0;
}

} // namespace npu::cli
