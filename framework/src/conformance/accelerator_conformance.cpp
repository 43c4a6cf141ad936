// SPDX-License-Identifier: Apache-2.0
#include "npu/conformance/accelerator_conformance.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace npu {

namespace {

/// One probe: an operation with everything needed to ask every question about it.
struct Probe {
  OperationId op = 0;
  std::optional<BlockConfig> block;
  CostQuery query;
};

/// Everything an accelerator answered about the probes, compared bit for bit across repetitions.
struct Answers {
  std::vector<SupportVerdict> verdicts;
  std::vector<std::optional<BlockConfig>> blocks;
  std::vector<std::int64_t> encodedBytes;
  std::vector<CycleCost> cycles;
  std::vector<OperationPerformance> estimates;

  bool operator==(const Answers& other) const {
    const auto sameVerdicts = std::equal(verdicts.begin(), verdicts.end(), other.verdicts.begin(), other.verdicts.end(),
                                         [](const SupportVerdict& a, const SupportVerdict& b) {
                                           return a.supported == b.supported && a.reason == b.reason;
                                         });
    const auto sameCycles =
        std::equal(cycles.begin(), cycles.end(), other.cycles.begin(), other.cycles.end(),
                   [](const CycleCost& a, const CycleCost& b) { return a.macs == b.macs && a.cycles == b.cycles; });
    const auto sameEstimates =
        std::equal(estimates.begin(), estimates.end(), other.estimates.begin(), other.estimates.end(),
                   [](const OperationPerformance& a, const OperationPerformance& b) {
                     return a.cycles == b.cycles && a.macs == b.macs && a.bytes == b.bytes;
                   });
    return sameVerdicts && blocks == other.blocks && encodedBytes == other.encodedBytes && sameCycles && sameEstimates;
  }
};

class Checker {
public:
  explicit Checker(ConformanceReport& report) : report_(report) {}

  void check(const std::string& name, bool passed, const std::string& detail = {}) {
    report_.checks.push_back({name, passed, passed ? std::string() : detail});
  }

  /// Runs a check body; any exception fails the check with its message instead of escaping.
  template <typename Body>
  void guarded(const std::string& name, Body body) {
    try {
      body();
    } catch (const std::exception& error) {
      check(name, false, std::string("threw: ") + error.what());
    }
  }

private:
  ConformanceReport& report_;
};

bool finiteNonNegative(double value) {
  return std::isfinite(value) && value >= 0.0;
}

Answers ask(const Accelerator& accelerator, const Subgraph& subgraph, const std::vector<Probe>& probes) {
  Answers answers;
  for (const Probe& probe : probes) {
    const Operation& op = subgraph.operation(probe.op);
    answers.verdicts.push_back(accelerator.support().check(subgraph, op));
    const OperationShapes shapes{subgraph.ifmShape(op), std::nullopt, subgraph.ofmShape(op)};
    answers.blocks.push_back(probe.block ? accelerator.blockConfigs().choose(subgraph, op, shapes) : std::nullopt);
    if (!probe.block) {
      continue;
    }
    const int depth = shapes.ofm.depth;
    const std::vector<int> slices{0, depth};
    answers.encodedBytes.push_back(
        subgraph.validTensorId(op.weights())
            ? accelerator.weights().encode(subgraph, op, *probe.block, slices, false).totalBytes
            : 0);
    answers.cycles.push_back(accelerator.costModel().cycles(subgraph, op, probe.query));
    PerformanceContext context;
    context.query = probe.query;
    answers.estimates.push_back(accelerator.costModel().estimate(subgraph, op, context));
  }
  return answers;
}

void checkDescription(const Accelerator& accelerator, Checker& checker) {
  const AcceleratorInfo& info = accelerator.info();
  checker.check("info: variant, display name, MACs per cycle and cores are set",
                !info.variant.empty() && !info.displayName.empty() && info.macsPerCycle > 0 && info.cores > 0,
                "variant='" + info.variant + "' displayName='" + info.displayName +
                    "' macsPerCycle=" + std::to_string(info.macsPerCycle) + " cores=" + std::to_string(info.cores));
  const MemorySystem& memory = accelerator.memory();
  std::string problems;
  for (auto area : {memory.constantArea, memory.featureMapArea, memory.fastStorageArea}) {
    const MemoryProperties& properties = memory.area(area);
    if (area == MemoryArea::Unknown || !properties.present || !(properties.bandwidthBytesPerCycle > 0.0)) {
      problems += " " + std::string(nameOf(area)) + " is not a present memory with bandwidth;";
    }
  }
  if (!(memory.coreClockHz > 0.0)) {
    problems += " core clock is not positive;";
  }
  if (memory.allocationAlignment <= 0 || (memory.allocationAlignment & (memory.allocationAlignment - 1)) != 0) {
    problems += " allocation alignment is not a power of two;";
  }
  if (memory.arenaCacheSize <= 0) {
    problems += " arena cache size is not positive;";
  }
  checker.check("memory system: clock, alignment and the constant, feature-map and fast-storage memories are usable",
                problems.empty(), problems);
  const Shape4 shape{1, 7, 9, 13};
  const std::int64_t bytes = accelerator.layout().storageBytes(shape, DataType::Int8, TensorFormat::NHWC);
  checker.check("layout: NHWC is supported and storage holds every element, aligned",
                accelerator.layout().supportsFormat(TensorFormat::NHWC) && bytes >= shape.elements() &&
                    bytes % memory.allocationAlignment == 0,
                "storageBytes(1x7x9x13 int8, NHWC) = " + std::to_string(bytes));
  const double small = accelerator.costModel().transferCycles(memory.constantArea, memory.fastStorageArea, 1024);
  const double large = accelerator.costModel().transferCycles(memory.constantArea, memory.fastStorageArea, 65536);
  checker.check("transfer cycles are finite, non-negative and grow with the bytes moved",
                finiteNonNegative(small) && finiteNonNegative(large) && large >= small,
                "1 KiB: " + std::to_string(small) + " cycles, 64 KiB: " + std::to_string(large) + " cycles");
}

std::vector<Probe> prepareProbes(const Accelerator& accelerator, const Subgraph& subgraph, Checker& checker) {
  std::vector<Probe> probes;
  const MemorySystem& memory = accelerator.memory();
  int supported = 0;
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const auto id = static_cast<OperationId>(i);
    const Operation& op = subgraph.operation(id);
    const std::string what = subgraph.describe(id);
    Probe probe;
    probe.op = id;
    const SupportVerdict verdict = accelerator.support().check(subgraph, op);
    if (!verdict.supported) {
      checker.check("unsupported operations come with a reason: " + what, !verdict.reason.empty(), "empty reason");
      probes.push_back(probe);
      continue;
    }
    ++supported;
    const OperationShapes shapes{subgraph.ifmShape(op), std::nullopt, subgraph.ofmShape(op)};
    probe.block = accelerator.blockConfigs().choose(subgraph, op, shapes);
    const auto candidates = accelerator.blockConfigs().candidates(subgraph, op, shapes);
    const bool chosenIsCandidate =
        probe.block && std::find(candidates.begin(), candidates.end(), *probe.block) != candidates.end();
    checker.check("a supported operation has a block config, and it is one of the candidates: " + what,
                  probe.block.has_value() && chosenIsCandidate,
                  probe.block ? "the chosen config is not among " + std::to_string(candidates.size()) + " candidates"
                              : "choose() returned nothing");
    if (!probe.block) {
      probes.push_back(probe);
      continue;
    }
    const Shape4 area = accelerator.blockConfigs().requiredIfmArea(subgraph, op, shapes.ofm);
    checker.check("the IFM area needed for the whole output is positive: " + what, area.height > 0 && area.width > 0,
                  "requiredIfmArea = " + area.str());
    probe.query.ifm =
        FeatureMapQuery{shapes.ifm, subgraph.tensor(op.ifm()).type, TensorFormat::NHWC, memory.featureMapArea};
    if (subgraph.validTensorId(op.ifm2())) {
      probe.query.ifm2 = FeatureMapQuery{subgraph.ifmShape(op, 1), subgraph.tensor(op.ifm2()).type, TensorFormat::NHWC,
                                         memory.featureMapArea};
    }
    probe.query.ofm =
        FeatureMapQuery{shapes.ofm, subgraph.tensor(op.ofm()).type, TensorFormat::NHWC, memory.featureMapArea};
    probe.query.hasScalesBiases = subgraph.validTensorId(op.bias());
    probe.query.constantArea = memory.constantArea;
    probe.query.block = nullptr; // set after the probes vector is final (pointers must stay valid)
    probes.push_back(probe);
  }
  checker.check("at least one probe operation is supported", supported > 0,
                "the accelerator supports none of the probe operations, so nothing else can be checked");
  for (Probe& probe : probes) {
    if (probe.block) {
      probe.query.block = &*probe.block;
    }
  }
  return probes;
}

void checkAnswers(const Accelerator& accelerator, const Subgraph& subgraph, const std::vector<Probe>& probes,
                  Checker& checker) {
  for (const Probe& probe : probes) {
    if (!probe.block) {
      continue;
    }
    const Operation& op = subgraph.operation(probe.op);
    const std::string what = subgraph.describe(probe.op);
    checker.guarded("costs of " + what, [&] {
      const CycleCost cost = accelerator.costModel().cycles(subgraph, op, probe.query);
      checker.check("cycles and MACs are finite and non-negative: " + what,
                    finiteNonNegative(cost.cycles) && cost.macs >= 0,
                    "cycles=" + std::to_string(cost.cycles) + " macs=" + std::to_string(cost.macs));
      PerformanceContext context;
      context.query = probe.query;
      const OperationPerformance estimate = accelerator.costModel().estimate(subgraph, op, context);
      bool sane = estimate.macs >= 0;
      std::string components;
      for (std::size_t component = 0; component < estimate.cycles.size(); ++component) {
        const double cycles = estimate.cycles[component];
        sane =
            sane && finiteNonNegative(cycles) && cycles <= estimate.cycle(CycleComponent::Total) * (1.0 + 1e-9) + 1e-9;
        components += (component == 0 ? "" : " ") + std::to_string(cycles);
      }
      checker.check("the full estimate is finite, non-negative, and its total is at least every component: " + what,
                    sane, "cycles (NPU, SRAM, DRAM, on-chip flash, off-chip flash access, total) = " + components);
      // The bound the reports show: the cost model's own or the generic one (operationBound).
      const OperationBound bound = operationBound(accelerator, subgraph, op, context);
      const double total = estimate.cycle(CycleComponent::Total);
      checker.check("the lower bound is finite, non-negative and at most the estimate: " + what,
                    std::all_of(bound.cycles.begin(), bound.cycles.end(), finiteNonNegative) &&
                        bound.total() <= total * (1.0 + 1e-9) + 1e-6,
                    "bound=" + std::to_string(bound.total()) + " (" + nameOf(bound.boundBy()) +
                        ") estimate=" + std::to_string(total));
    });
    if (!subgraph.validTensorId(op.weights())) {
      continue;
    }
    checker.guarded("weights of " + what, [&] {
      const int depth = subgraph.ofmShape(op).depth;
      const std::vector<int> whole{0, depth};
      const std::vector<int> halves{0, depth / 2, depth};
      const EncodedWeights one = accelerator.weights().encode(subgraph, op, *probe.block, whole, false);
      const EncodedWeights two = accelerator.weights().encode(subgraph, op, *probe.block, halves, false);
      const bool coversOne = one.slices.size() == 1 && one.slices[0].depthStart == 0 && one.slices[0].depthEnd == depth;
      const bool coversTwo = two.slices.size() == 2 && two.slices[0].depthEnd == two.slices[1].depthStart &&
                             two.slices[1].depthEnd == depth;
      checker.check("encoded weights are non-empty and their slices cover every output channel: " + what,
                    one.totalBytes > 0 && coversOne && coversTwo,
                    "totalBytes=" + std::to_string(one.totalBytes) + " slices=" + std::to_string(one.slices.size()) +
                        "/" + std::to_string(two.slices.size()));
    });
  }
}

} // namespace

bool ConformanceReport::passed() const {
  return std::all_of(checks.begin(), checks.end(), [](const ConformanceCheck& check) { return check.passed; });
}

std::string ConformanceReport::render() const {
  std::ostringstream out;
  std::size_t failed = 0;
  for (const auto& check : checks) {
    failed += check.passed ? 0 : 1;
  }
  out << plugin << " " << variant << ": " << (checks.size() - failed) << "/" << checks.size() << " checks passed\n";
  for (const auto& check : checks) {
    if (!check.passed) {
      out << "  FAILED " << check.name << "\n         " << check.detail << "\n";
    }
  }
  return out.str();
}

ConformanceReport checkAccelerator(const Accelerator& accelerator) {
  ConformanceReport report;
  report.variant = accelerator.info().variant;
  Checker checker(report);
  checker.guarded("describes itself", [&] { checkDescription(accelerator, checker); });
  const Graph graph = conformanceProbeGraph();
  const Subgraph& subgraph = graph.subgraphs.front();
  std::vector<Probe> probes;
  checker.guarded("answers questions about the probe operations", [&] {
    probes = prepareProbes(accelerator, subgraph, checker);
    checkAnswers(accelerator, subgraph, probes, checker);
  });
  checker.guarded("is deterministic and thread-safe", [&] {
    const Answers serial = ask(accelerator, subgraph, probes);
    checker.check("identical questions get identical answers", ask(accelerator, subgraph, probes) == serial,
                  "a second serial round of the same questions gave different answers");
    constexpr std::size_t kRounds = 32;
    std::vector<Answers> parallel(kRounds);
    tbb::parallel_for(std::size_t{0}, kRounds,
                      [&](std::size_t round) { parallel[round] = ask(accelerator, subgraph, probes); });
    const bool same = std::all_of(parallel.begin(), parallel.end(), [&](const Answers& a) { return a == serial; });
    checker.check("answers from many threads at once equal the serial answers", same,
                  "concurrent calls gave answers that differ from serial calls");
  });
  return report;
}

std::vector<ConformanceReport> checkAcceleratorPlugin(const AcceleratorPlugin& plugin, const std::string& pluginId,
                                                      const std::vector<std::filesystem::path>& configSearchPath) {
  std::vector<ConformanceReport> reports;
  ConformanceReport pluginReport;
  pluginReport.plugin = pluginId;
  pluginReport.variant = "(plugin)";
  Checker checker(pluginReport);
  const auto variants = plugin.variants();
  checker.check("the plugin lists at least one variant", !variants.empty(), "variants() is empty");
  AcceleratorConfig bogus;
  bogus.variant = "no-such-variant";
  bogus.options = resolveOptions(plugin.options(), {}, pluginId);
  bogus.configSearchPath = configSearchPath;
  std::string failure = "create() accepted 'no-such-variant'";
  try {
    (void)plugin.create(bogus);
  } catch (const Error&) {
    failure.clear();
  } catch (const std::exception& error) {
    failure = std::string("threw another exception: ") + error.what();
  }
  checker.check("an unknown variant is refused with an npu::Error", failure.empty(), failure);
  reports.push_back(pluginReport);
  for (const auto& variant : variants) {
    AcceleratorConfig config;
    config.variant = variant;
    config.configSearchPath = configSearchPath;
    try {
      config.options = resolveOptions(plugin.options(), {}, pluginId);
      const auto accelerator = plugin.create(config);
      ConformanceReport report = checkAccelerator(*accelerator);
      report.plugin = pluginId;
      reports.push_back(std::move(report));
    } catch (const std::exception& error) {
      ConformanceReport report;
      report.plugin = pluginId;
      report.variant = variant;
      report.checks.push_back({"the variant can be created with default options", false, error.what()});
      reports.push_back(std::move(report));
    }
  }
  return reports;
}

} // namespace npu
