// SPDX-License-Identifier: Apache-2.0
#include "generator/code_generator.hpp"

#include "checker/stream_check.hpp"
#include "codegen_ethosu/command_stream.hpp"
#include "generator/parallel_work.hpp"
#include "layout/read_only_area.hpp"
#include "operations/describe_region.hpp"
#include "program/region_program.hpp"

#include "ethosu/architecture/architecture.hpp"
#include "ethosu/weights/weight_encoder.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/ir/graph_algorithms.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <malloc.h>

#include <algorithm>
#include <exception>
#include <set>

namespace ethosu::codegen {

namespace {

constexpr int kDefaultMaxBlockDependency = 3;

/// Below this, the freed weight plans stay with malloc for the rest of the compile (a few megabytes).
constexpr std::size_t kTrimAfterReleasingBytes = std::size_t{16} << 20;

const VariantSpec& variantOf(const npu::Accelerator& accelerator) {
  const VariantSpec* variant = findVariant(accelerator.info().variant);
  if (variant == nullptr) {
    npu::throwConfigError("codegen_ethosu generates code for Ethos-U55 and Ethos-U65 only, not for the accelerator '" +
                              accelerator.info().variant + "'",
                          {}, "use the code generator of that accelerator's vendor, or leave out the codegen stage");
  }
  return *variant;
}

/// The bytes of every non-constant buffer of one memory, up to its highest address: what the runtime
/// must provide (Vela: the allocator's total size for the memory).
std::int64_t workingMemoryBytes(const npu::NetworkAddresses& addresses, npu::MemoryArea area) {
  std::int64_t bytes = 0;
  for (const npu::AllocationEntry& entry : addresses.entries) {
    if (entry.area == area && !entry.constant) {
      bytes = std::max(bytes, entry.address + entry.size);
    }
  }
  return bytes;
}

/// Where the stream of schedule `index` finds its inputs and must leave its outputs.
StreamMemory streamMemoryOf(const npu::CodegenRequest& request, std::size_t index, const GeneratedCode& code) {
  const npu::Schedule& schedule = request.schedules[index];
  const npu::MemorySystem& memory = request.accelerator.memory();
  const npu::Subgraph& subgraph = request.lowered.subgraphs.at(static_cast<std::size_t>(schedule.region.subgraph));
  StreamMemory result;
  result.regionBytes = {{region::kReadOnly, static_cast<std::int64_t>(code.readOnly->size())},
                        {region::kScratch, code.scratchBytes}};
  if (memory.fastStorageIsSeparate()) {
    result.regionBytes[region::kScratchFast] = code.fastScratchBytes;
  }
  const auto& placed = request.addresses.subgraphs.at(static_cast<std::size_t>(schedule.region.subgraph));
  const auto accessOf = [&](npu::TensorId tensor, bool write) -> std::optional<MemoryAccess> {
    const auto address = placed.find(tensor);
    if (address == placed.end()) {
      return std::nullopt;
    }
    const int region = regionOf(address->second.area, false, memory);
    return MemoryAccess{region, address->second.address, address->second.address + subgraph.tensor(tensor).byteSize(),
                        write};
  };
  const auto [inputs, outputs] = regionBoundary(subgraph, schedule.region);
  for (const npu::TensorId input : inputs) {
    if (const auto access = accessOf(input, false)) {
      result.inputs.push_back(*access);
    }
  }
  // A tensor other regions or CPU operators also write (e.g. a concatenation fed from both sides of a
  // CPU operator) is written here only in part: what the others wrote before counts as there.
  const npu::DataflowIndex dataflow(subgraph);
  const std::set<npu::OperationId> members(schedule.region.operations.begin(), schedule.region.operations.end());
  for (const npu::TensorId output : outputs) {
    const auto& producers = dataflow.producers(output);
    const bool sharedWithOthers = std::any_of(producers.begin(), producers.end(),
                                              [&](npu::OperationId producer) { return !members.contains(producer); });
    if (const auto access = accessOf(output, !sharedWithOthers)) {
      (sharedWithOthers ? result.inputs : result.outputs).push_back(*access);
    }
  }
  return result;
}

} // namespace

std::vector<npu::OptionSpec> codegenOptionSpecs() {
  return {
      {"max_block_dependency",
       npu::OptionType::Choice,
       std::to_string(kDefaultMaxBlockDependency),
       "how many blocks of an operation may start before the previous operation ends (Vela's "
       "--max-block-dependency); 0 runs operations strictly one after the other",
       {"0", "1", "2", "3"},
       false},
      {"file_suffix",
       npu::OptionType::String,
       "_vela",
       "the output model is written as <network><file_suffix>.tflite (Vela's name by default)",
       {},
       false},
      {"check",
       npu::OptionType::Boolean,
       "true",
       "check every generated command stream's memory accesses and SHRAM use before writing the model",
       {},
       false},
  };
}

CodegenOptions readCodegenOptions(const npu::OptionValues& values) {
  CodegenOptions options;
  if (values.has("max_block_dependency")) {
    options.maxBlockDependency = std::stoi(values.getString("max_block_dependency"));
  }
  if (values.has("file_suffix")) {
    options.fileSuffix = values.getString("file_suffix");
  }
  if (values.has("check")) {
    options.check = values.getBool("check");
  }
  return options;
}

GeneratedCode generateCode(const npu::CodegenRequest& request, const CodegenOptions& options) {
  const Architecture architecture(variantOf(request.accelerator), request.accelerator.memory());
  // A cache that overflowed holds the plans of the first part of a large network only, most of them
  // candidates the scheduler did not choose (50 MB of 64 at 10,001 layers): freed before the read-only
  // area grows, at the cost of planning again the few streams it would have given.
  if (const auto* encoder = dynamic_cast<const weights::EthosUWeightEncoder*>(&request.accelerator.weights());
      encoder != nullptr && encoder->cacheOverflowed()) {
    encoder->releaseCache();
#if defined(__GLIBC__)
    ::malloc_trim(0);
#endif
  }
  ReadOnlyArea readOnly(request.lowered, request.schedules, request.accelerator);
  const npu::MemorySystem& memory = request.accelerator.memory();
  GeneratedCode code;
  code.scratchBytes = workingMemoryBytes(request.addresses, memory.featureMapArea);
  code.fastScratchBytes = workingMemoryBytes(request.addresses, memory.fastStorageArea);
  code.commandStreams.resize(request.schedules.size());
  const RegisterStreamOptions streamOptions{options.maxBlockDependency, defaultRegionLimits(architecture)};
  // Every weight stream is written: the plans the encoder kept for the schedulers are of no more use.
  // Freeing them touches nothing the command streams read, so it runs beside their generation, and is done
  // before the model is written. Giving their pages back to the system (malloc_trim walks the whole heap,
  // and holds up every allocation meanwhile: 3 ms at 2 threads for MobileNet-v2) pays only for a cache
  // of large networks' size.
  tbb::task_group release;
  if (const auto* encoder = dynamic_cast<const weights::EthosUWeightEncoder*>(&request.accelerator.weights())) {
    release.run([encoder] {
      [[maybe_unused]] const std::size_t released = encoder->releaseCache();
#if defined(__GLIBC__)
      if (released >= kTrimAfterReleasingBytes) {
        ::malloc_trim(0); // the plans were many small blocks: give their pages back, not only to malloc
      }
#endif
    });
  }
  try {
    forEachInParallel(request.schedules.size(), [&](std::size_t index) {
      const RegionSources sources{
          request.lowered, request.schedules[index], index, request.allocations[index], request.addresses,
          readOnly,        request.accelerator};
      RegisterStreamGenerator generator(architecture, streamOptions);
      forEachNpuOperation(sources, architecture, [&](const NpuOperation& operation) { generator.add(operation); });
      code.commandStreams[index] = driverPayload(generator.finish(), architecture);
    });
  } catch (...) {
    release.wait();
    throw;
  }
  release.wait();
  // The streams are generated and nothing reads the area's bytes any more: they move, not copy.
  code.readOnly = std::make_shared<const std::vector<std::uint8_t>>(readOnly.releaseBytes());
  if (options.check) {
    forEachInParallel(code.commandStreams.size(), [&](std::size_t index) {
      const auto problems = checkCommandStream(code.commandStreams[index], streamMemoryOf(request, index, code));
      if (!problems.empty()) {
        npu::throwInternalError("the command stream generated for NPU region " + std::to_string(index + 1) +
                                " fails its check (" + std::to_string(problems.size()) +
                                " problems): " + problems.front());
      }
    });
  }
  return code;
}

} // namespace ethosu::codegen
