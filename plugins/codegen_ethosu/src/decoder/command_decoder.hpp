// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading an `ethos-u` operator's command stream tensor back: the driver header, the register commands,
// and Vela's listing of them (--verbose-register-command-stream, "Output" part). Works on any stream,
// ours or Vela's; what does not decode is an npu::Error (Model kind) saying where.

#include "ethosu/architecture/variant.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ethosu::codegen {

/// The driver payload, split.
struct DriverPayloadView {
  std::uint32_t configWord = 0;           ///< the NPU CONFIG register value the stream was built for
  std::uint32_t idWord = 0;               ///< the NPU ID register value
  std::vector<std::uint32_t> registerStream;
  const VariantSpec* variant = nullptr;   ///< the accelerator the CONFIG word names; null when unknown
};

/// Little-endian 32-bit words; the size must be a multiple of 4.
[[nodiscard]] std::vector<std::uint32_t> littleEndianWords(std::span<const std::uint8_t> bytes);

/// Splits a command stream tensor ("COP1" header, CONFIG and ID words, NOPs, CMD_STREAM with the
/// stream's length, then the stream).
[[nodiscard]] DriverPayloadView readDriverPayload(std::span<const std::uint8_t> bytes);

/// One register command.
struct DecodedCommand {
  std::size_t offset = 0;   ///< bytes from the start of the register stream
  std::uint16_t code = 0;   ///< low 16 bits of the first word (with the payload flag)
  std::uint16_t param = 0;  ///< high 16 bits
  bool hasPayload = false;
  std::uint32_t payload = 0;

  /// The command's code without the mode bits (what Cmd0/Cmd1 hold).
  [[nodiscard]] std::uint16_t command() const { return static_cast<std::uint16_t>(code & 0x3FF); }
  /// A cmd1's 40-bit address: payload, with the parameter's bits above.
  [[nodiscard]] std::int64_t address() const {
    return static_cast<std::int64_t>(payload) | (static_cast<std::int64_t>(param & 0xFF) << 32);
  }
};

/// The commands of a register stream, in order. A cmd1 missing its payload word, or a code that is no
/// command of the Ethos-U command set, is an error naming its offset.
[[nodiscard]] std::vector<DecodedCommand> decodeCommands(std::span<const std::uint32_t> words);

/// The listing Vela prints for a stream: a header line, one line per command (offset, payload,
/// parameter, code, name, parameter in decimal), then the command count and the stream length.
[[nodiscard]] std::string formatCommands(const std::vector<DecodedCommand>& commands);

} // namespace ethosu::codegen
