// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/core/file_bytes.hpp"
#include "npu/core/progress.hpp"
#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"
#include "npu/plugin/plugin.hpp"
#include "npu/schedule/schedule.hpp"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace npu {

/// Where the whole-network allocation put one tensor.
struct TensorAddress {
  MemoryArea area = MemoryArea::Unknown;
  std::int64_t address = 0;
};

/// One buffer of the whole-network allocation, as Vela's --verbose-allocation lists it.
struct AllocationEntry {
  MemoryArea area = MemoryArea::Unknown;
  bool constant = false;    ///< laid out in the memory's constant area
  std::string name;
  std::int64_t start = 0;   ///< live range, in the network's time steps
  std::int64_t end = 0;
  std::int64_t size = 0;
  std::int64_t address = 0; ///< within its area (constants and the rest are addressed separately)
};

/// Addresses of every allocated tensor of the network (feature maps of NPU regions and of CPU
/// operators, constants), per subgraph: what a code generator needs beyond each schedule's own buffers
/// (e.g. the arena offsets a runtime is told about).
struct NetworkAddresses {
  std::vector<std::map<TensorId, TensorAddress>> subgraphs;
  std::array<std::int64_t, kMemoryAreaCount> peak{}; ///< bytes used per memory
  std::vector<AllocationEntry> entries;               ///< every buffer, memory by memory
};

/// What a code generator is given: every stage's result.
struct CodegenRequest {
  const Graph& lowered;                   ///< after lowering and placement (its sourcePath: the model read)
  std::span<const Schedule> schedules;    ///< one per NPU region, in execution order
  std::span<const Allocation> allocations; ///< the addresses of each schedule's buffers
  const NetworkAddresses& addresses;
  const Accelerator& accelerator;
  const OptionValues& options; ///< the code generator's own, resolved
  Progress& progress;
};

/// Figures of the generated code, for reports.
struct CodegenStatistics {
  int npuOperators = 0;                 ///< accelerator operators in the output model (one per NPU region)
  int cpuOperators = 0;                 ///< operators left to the CPU
  std::int64_t commandStreamBytes = 0;  ///< all command streams, with their driver headers
  std::int64_t readOnlyBytes = 0;       ///< the read-only data the accelerator reads (weights, LUTs, ...)
  std::int64_t scratchBytes = 0;        ///< working memory the runtime must provide
  std::int64_t fastScratchBytes = 0;    ///< working memory in the fast storage, when separate
};

/// The deployable output of a compilation.
struct GeneratedModel {
  std::string fileName;             ///< file name for it, e.g. "<network>_vela.tflite"
  FileBytes bytes;                  ///< the whole file, in pieces (large constants are not copied into it)
  CodegenStatistics statistics;
};

/// What a code generator finds of its accelerator's code in a model: an optimised model it wrote, or one
/// another tool wrote for the same accelerator (e.g. Vela's `ethos-u` operators).
struct CodeInspection {
  int operators = 0;                 ///< accelerator operators found
  std::string listing;               ///< their commands, listed for people to read
  std::vector<std::string> problems; ///< what checking the code found wrong; empty when it is sound
};

/// Turns a scheduled and allocated graph into what a device runs: command streams, the layout of the
/// read-only and scratch areas, and the output model holding them. Throws a Compile error naming the
/// operation when something cannot be encoded (e.g. an address or stride a register cannot hold).
class NPU_API CodegenPlugin : public Plugin {
public:
  [[nodiscard]] virtual GeneratedModel generate(const CodegenRequest& request) const = 0;
  /// Decodes and checks the accelerator code in a model read by a frontend (`npu-pipeline inspect
  /// --commands/--check`). Code generators that cannot read code back find none.
  [[nodiscard]] virtual CodeInspection inspect(const Graph& model) const {
    static_cast<void>(model);
    return {};
  }
};

} // namespace npu
