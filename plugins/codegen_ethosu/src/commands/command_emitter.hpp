// SPDX-License-Identifier: Apache-2.0
#pragma once

// Writes command words and leaves out a register setting that would not change the register (Vela's
// CommandStreamEmitter): the DMA's registers and all the others are tracked apart.

#include "codegen_ethosu/registers.hpp"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ethosu::codegen {

class CommandEmitter {
public:
  /// A 16-bit register setting (cmd0); the parameter is truncated to 16 bits as the hardware does.
  void set(Cmd0 command, std::int64_t parameter);
  /// A 32-bit payload (cmd1) with an optional 16-bit parameter.
  void setPayload(Cmd1 command, std::int64_t payload, std::int64_t parameter = 0);
  /// An address: low 32 bits as payload, the bits above in the parameter.
  void setAddress(Cmd1 command, std::int64_t address) { setPayload(command, address, address >> 32); }
  /// KERNEL_WAIT or DMA_WAIT: always written.
  void wait(Cmd0 command, int outstanding);
  /// An operation (NPU_OP_*): always written.
  void operation(Cmd0 command, std::int64_t parameter = 0);

  [[nodiscard]] const std::vector<std::uint32_t>& words() const { return words_; }
  /// The words moved out; the emitter must not be used afterwards.
  [[nodiscard]] std::vector<std::uint32_t> releaseWords() { return std::move(words_); }
  [[nodiscard]] std::int64_t bytes() const { return static_cast<std::int64_t>(words_.size()) * 4; }

private:
  bool changes(bool dma, std::uint32_t code, std::uint32_t command, std::uint32_t value);

  std::vector<std::uint32_t> words_;
  std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> registers_[2]; ///< [dma] code -> last value
};

} // namespace ethosu::codegen
