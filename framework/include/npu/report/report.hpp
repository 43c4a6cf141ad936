// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"
#include "npu/plugin/codegen.hpp"
#include "npu/plugin/options.hpp"
#include "npu/plugin/performance.hpp"
#include "npu/schedule/schedule.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npu {

/// Final figures of one scheduled NPU operation.
struct LayerReport {
  int subgraph = 0;
  std::string region; ///< e.g. "main_split_1"
  OperationId op = 0;
  std::string name;
  std::string sourceType; ///< TFLite operator it came from
  std::string irType;     ///< IR operation type ("Conv2DBias", ...)
  ScheduledOperation schedule;
  OperationPerformance performance;
  OperationBound bound; ///< the least cycles any schedule of the operation could take (CostModel::bound)
  std::int64_t memoryUsage = 0; ///< fast-storage bytes live while the operation runs
};

/// A network's lower bound: each resource's demand summed over the layers, and the largest sum. Layers run
/// one after another, but a resource's work may overlap other layers' (weights stream under earlier
/// layers, and a schedule that cascades layers overlaps one's memory traffic with another's compute), so
/// the bound does not add the layers' own bounds: no schedule of the network takes fewer cycles than its
/// busiest resource needs.
struct NetworkBound {
  std::array<double, kBoundResourceCount> cycles{}; ///< summed demand, indexed by BoundResource
  NetworkBound& operator+=(const OperationBound& layer);
  [[nodiscard]] double total() const;
  [[nodiscard]] BoundResource boundBy() const; ///< the busiest resource (the first one on ties)
};

/// The resolved pipeline that produced a report, as data (the JSON report writes it as an object).
struct PipelineRecord {
  struct Stage {
    std::string kind; ///< "frontend", "scheduler", ...
    std::string plugin;
    std::string pluginVersion;
    OptionValues options;
  };
  std::string name;
  std::string description;
  std::string acceleratorPlugin; ///< empty when the pipeline has no accelerator
  std::string acceleratorPluginVersion;
  std::string variant;
  std::string system;
  std::string memoryMode;
  OptionValues acceleratorOptions;
  std::vector<Stage> stages;
  std::vector<std::string> reportFormats;
};

/// Wall-clock time one stage of a compilation took.
struct StageTime {
  std::string stage; ///< "reading", "lowering", "scheduling", "allocating", "evaluating", "generating code"
  double seconds = 0.0;
};

/// Final figures of a whole network: what every report format prints.
struct NetworkReport {
  std::string network;
  std::string pipelineYaml; ///< the resolved pipeline that produced the report
  PipelineRecord pipeline;  ///< the same, as data
  AcceleratorInfo accelerator;
  MemorySystem memory;
  std::vector<LayerReport> layers;
  OperationPerformance total;
  NetworkBound bound; ///< the least cycles any schedule of the network's NPU operations could take
  std::array<std::int64_t, kMemoryAreaCount> memoryUsed{}; ///< bytes per memory (allocation peaks, constants)
  std::int64_t originalWeightBytes = 0;
  std::int64_t encodedWeightBytes = 0;
  int npuOperations = 0; ///< after lowering
  int cpuOperations = 0;
  int subgraphs = 1;     ///< of the lowered graph
  std::vector<std::string> cpuOperationReasons; ///< "name (TYPE): reason" per CPU operation
  /// What the user must know about the result: e.g. a schedule over its SRAM limit (on_sram_overflow:
  /// warn). Every report format shows them.
  std::vector<std::string> warnings;
  /// Where every buffer of the network was placed, with its live range (the allocation).
  std::vector<AllocationEntry> allocation;
  /// Time per compilation stage; empty unless the caller asked for it (times differ run to run, and the
  /// reports are otherwise byte-identical for identical input).
  std::vector<StageTime> stageTimes;

  [[nodiscard]] double totalCycles() const { return total.cycle(CycleComponent::Total); }
  [[nodiscard]] double inferenceSeconds() const {
    return memory.coreClockHz > 0 ? totalCycles() / memory.coreClockHz : 0.0;
  }
};

/// Computes the final per-operation figures through the accelerator's cost model, with the memory
/// homing, weight buffering and allocation the schedules chose (Vela: calc_new_performance_for_network).
[[nodiscard]] NPU_API NetworkReport evaluateNetwork(const Graph& lowered, const std::vector<Schedule>& schedules,
                                                    const std::vector<Allocation>& allocations,
                                                    const Accelerator& accelerator);

} // namespace npu
