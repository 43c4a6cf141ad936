// SPDX-License-Identifier: Apache-2.0
#pragma once

// The register command stream of a list of NPU operations, and the driver payload that carries it in
// the `ethos-u` operator (Vela 3.10's register_command_stream_generator.py and driver_actions.py).

#include "codegen_ethosu/npu_operation.hpp"

#include "ethosu/architecture/architecture.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

namespace ethosu::codegen {

struct RegisterStreamOptions {
  /// Largest BLOCKDEP the stream may use: how many blocks of the next kernel may start before the
  /// previous one ends (Vela's --max-block-dependency, 0..3).
  int maxBlockDependency = 3;
  /// Bytes each region may be addressed up to; every access is checked against it. Regions absent here
  /// are not allowed.
  std::map<int, std::int64_t> regionLimits;
};

/// The limits Vela checks accesses against (get_mem_limits_for_regions): every region up to the
/// largest address the NPU forms, the fast scratch region (when it is separate) up to the arena size,
/// and SHRAM for lookup tables.
[[nodiscard]] std::map<int, std::int64_t> defaultRegionLimits(const Architecture& architecture);

/// Generates a register command stream one NPU operation at a time, holding only what the next
/// operations look back at (the operations still in flight, the previous kernel), so that a region of
/// hundreds of thousands of operations never has them all in memory.
class RegisterStreamGenerator {
public:
  /// Throws a Config error when the options are out of range.
  RegisterStreamGenerator(const Architecture& architecture, const RegisterStreamOptions& options);
  RegisterStreamGenerator(const RegisterStreamGenerator&) = delete;
  RegisterStreamGenerator& operator=(const RegisterStreamGenerator&) = delete;
  ~RegisterStreamGenerator();

  /// Appends the next operation's commands; the errors of generateRegisterStream.
  void add(const NpuOperation& operation);
  /// The command words, ending with NPU_OP_STOP; the generator must not be used afterwards.
  [[nodiscard]] std::vector<std::uint32_t> finish();

private:
  struct State;
  std::unique_ptr<State> state_;
};

/// The command words, ending with NPU_OP_STOP. Throws a Compile error naming the operation (its name
/// and position) when something cannot be encoded: a misaligned or out-of-range address, stride or
/// length, a block config that does not fit SHRAM, a stream over 16 MiB.
[[nodiscard]] std::vector<std::uint32_t> generateRegisterStream(std::span<const NpuOperation> operations,
                                                                const Architecture& architecture,
                                                                const RegisterStreamOptions& options);

/// The `ethos-u` operator's command stream tensor: the driver header ("COP1", the NPU configuration
/// and ID registers, padding to 16 bytes, the stream's length) followed by the register stream.
[[nodiscard]] std::vector<std::uint8_t> driverPayload(std::span<const std::uint32_t> registerStream,
                                                      const Architecture& architecture);

} // namespace ethosu::codegen
