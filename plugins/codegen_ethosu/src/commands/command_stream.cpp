// SPDX-License-Identifier: Apache-2.0
#include "codegen_ethosu/command_stream.hpp"

#include "commands/command_emitter.hpp"
#include "commands/dependencies.hpp"
#include "commands/operation_registers.hpp"

#include "npu/core/diagnostics.hpp"

#include <cmath>
#include <optional>

namespace ethosu::codegen {

namespace {

constexpr std::int64_t kStreamByteLimit = std::int64_t{1} << 24; // the hardware's 16 MiB
constexpr std::uint32_t kArchitectureVersion = 0x10060000;       // NPU ID: architecture 1.0.6

std::string describe(const NpuOperation& operation, std::size_t index) {
  if (const auto* dma = std::get_if<DmaOperation>(&operation)) {
    return "NPU operation " + std::to_string(index) + " (DMA to '" + dma->name + "')";
  }
  return "NPU operation " + std::to_string(index) + " of '" + std::get<BlockOperation>(operation).name + "'";
}

// Vela: check_mem_limits.
void checkLimits(const MemoryAccesses& accesses, const std::map<int, std::int64_t>& limits) {
  for (const auto* set : {&accesses.reads, &accesses.writes}) {
    for (const auto& [region, ranges] : *set) {
      const auto limit = limits.find(region);
      if (limit == limits.end()) {
        npu::throwCompileError("it addresses region " + std::to_string(region) + ", which does not exist");
      }
      for (const auto& [start, end] : ranges) {
        if (start < 0 || end > limit->second) {
          npu::throwCompileError("it addresses bytes [" + std::to_string(start) + ", " + std::to_string(end) +
                                 ") of region " + std::to_string(region) + ", beyond its " +
                                 std::to_string(limit->second) + " bytes");
        }
      }
    }
  }
}

} // namespace

std::map<int, std::int64_t> defaultRegionLimits(const Architecture& architecture) {
  const std::int64_t addressable = architecture.variant().maxAddressOffset();
  std::map<int, std::int64_t> limits{{region::kReadOnly, addressable}, {region::kScratch, addressable}};
  if (architecture.memory().fastStorageIsSeparate()) {
    limits[region::kScratchFast] = architecture.memory().arenaCacheSize;
  }
  limits[region::kMemoryToMemory] = std::int64_t{architecture.variant().shramBanks} * CommonArchitecture::kShramBankBytes;
  return limits;
}

struct RegisterStreamGenerator::State {
  State(const Architecture& target, const RegisterStreamOptions& streamOptions)
      : architecture(target), options(streamOptions), waits(target) {}

  const Architecture& architecture;
  RegisterStreamOptions options;
  CommandEmitter emitter;
  WaitTracker waits;
  std::optional<BlockOperation> previous; ///< the last kernel operation, for BLOCKDEP
  std::size_t index = 0;                  ///< of the next operation, for error messages
};

// Vela: register_command_stream_generator.generate_command_stream.
RegisterStreamGenerator::RegisterStreamGenerator(const Architecture& architecture,
                                                 const RegisterStreamOptions& options) {
  if (options.maxBlockDependency < 0 || options.maxBlockDependency > kMaxBlockDependency) {
    npu::throwConfigError("max_block_dependency must be 0 to 3, not " + std::to_string(options.maxBlockDependency));
  }
  state_ = std::make_unique<State>(architecture, options);
  if (architecture.variant().isEthosU65()) {
    state_->emitter.set(Cmd0::ParallelMode, architecture.cores() - 1);
  }
}

RegisterStreamGenerator::~RegisterStreamGenerator() = default;

void RegisterStreamGenerator::add(const NpuOperation& operation) {
  State& state = *state_;
  const std::size_t index = state.index++;
  const auto* block = std::get_if<BlockOperation>(&operation);
  MemoryAccesses accesses = accessesOf(operation, state.architecture);
  try {
    checkLimits(accesses, state.options.regionLimits);
    const Waits wait = state.waits.before(block == nullptr, std::move(accesses));
    emitOperationRegisters(state.emitter, operation, state.architecture);
    if (block != nullptr) {
      const BlockOperation* previous = state.previous ? &*state.previous : nullptr;
      state.emitter.set(Cmd0::BlockDep, std::min(blockDependency(state.architecture, previous, *block),
                                                 state.options.maxBlockDependency));
      state.previous = *block;
    }
    if (wait.kernels >= 0) {
      state.emitter.wait(Cmd0::OpKernelWait, wait.kernels);
    }
    if (wait.dma >= 0) {
      state.emitter.wait(Cmd0::OpDmaWait, wait.dma);
    }
    emitOperationStart(state.emitter, operation);
  } catch (const npu::Error& error) {
    if (error.kind() != npu::ErrorKind::Compile) {
      throw;
    }
    npu::throwCompileError(describe(operation, index) + " cannot be encoded: " + error.message(), {}, error.hint());
  }
}

std::vector<std::uint32_t> RegisterStreamGenerator::finish() {
  CommandEmitter& emitter = state_->emitter;
  emitter.operation(Cmd0::OpStop, 0xFFFF);
  if (emitter.bytes() >= kStreamByteLimit) {
    npu::throwCompileError("the command stream takes " + std::to_string(emitter.bytes()) +
                               " bytes, over the hardware's limit of 16 MiB",
                           {}, "split the network, or schedule it with fewer stripes");
  }
  return emitter.releaseWords();
}

std::vector<std::uint32_t> generateRegisterStream(std::span<const NpuOperation> operations,
                                                  const Architecture& architecture,
                                                  const RegisterStreamOptions& options) {
  RegisterStreamGenerator generator(architecture, options);
  for (const NpuOperation& operation : operations) {
    generator.add(operation);
  }
  return generator.finish();
}

// Vela: driver_actions.create_driver_payload.
std::vector<std::uint8_t> driverPayload(std::span<const std::uint32_t> registerStream,
                                        const Architecture& architecture) {
  const VariantSpec& variant = architecture.variant();
  const auto macsPerCycle = static_cast<double>(variant.macsPerCycle) * architecture.cores();
  const auto log2Macs = static_cast<std::uint32_t>(std::log2(macsPerCycle) + 0.5);
  const auto shramKiB = static_cast<std::uint32_t>(architecture.cores() * variant.shramBanks *
                                                   CommonArchitecture::kShramBankBytes / 1024);
  const std::uint32_t config = (variant.isEthosU65() ? 1U << 28 : 0U) | (shramKiB << 8) | log2Macs;
  std::vector<std::uint32_t> words{0x31504f43U /* "COP1" */, 0x00100001U /* config, patch 1 */, config,
                                   kArchitectureVersion};
  const auto length = static_cast<std::uint32_t>(registerStream.size());
  while ((words.size() + 1) % 4 != 0) {
    words.push_back(0x00000005U); // NOP: the register stream starts at a 16-byte boundary
  }
  words.push_back(0x00000002U | (((length >> 16) & 0xFFU) << 8) | ((length & 0xFFFFU) << 16));
  words.insert(words.end(), registerStream.begin(), registerStream.end());
  std::vector<std::uint8_t> bytes;
  bytes.reserve(words.size() * 4);
  for (const std::uint32_t word : words) {
    for (int shift = 0; shift < 32; shift += 8) {
      bytes.push_back(static_cast<std::uint8_t>(word >> shift));
    }
  }
  return bytes;
}

} // namespace ethosu::codegen
