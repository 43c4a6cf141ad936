// SPDX-License-Identifier: Apache-2.0
#include "decoder/command_decoder.hpp"

#include "codegen_ethosu/registers.hpp"

#include "npu/core/diagnostics.hpp"

#include <cstdio>
#include <sstream>

namespace ethosu::codegen {

namespace {

constexpr std::uint32_t kFourCc = 0x31504f43U; // "COP1"
constexpr std::uint32_t kNop = 0x00000005U;
constexpr std::uint16_t kConfigTag = 0x01;        // driver action CONFIG: the CONFIG and ID words follow
constexpr std::uint16_t kCommandStreamTag = 0x02; // driver action CMD_STREAM: the length, then the stream

[[noreturn]] void fail(const std::string& message) {
  npu::throwModelError("the command stream cannot be read: " + message);
}

std::string hex(std::uint64_t value, int digits) {
  char text[24];
  std::snprintf(text, sizeof text, "%0*llx", digits, static_cast<unsigned long long>(value));
  return text;
}

/// The accelerator a CONFIG word describes: product in bits 28-31 (0 Ethos-U55, 1 Ethos-U65) and
/// log2 of the MACs per cycle of all cores in bits 0-3.
const VariantSpec* variantOf(std::uint32_t config) {
  const std::uint32_t product = config >> 28;
  if (product > 1) {
    return nullptr;
  }
  const int macs = 1 << (config & 0xF);
  return findVariant(std::string(product == 0 ? "ethos-u55-" : "ethos-u65-") + std::to_string(macs));
}

std::optional<std::string_view> nameOfCode(std::uint16_t code) {
  return (code & kPayloadFlag) != 0 ? nameOf(static_cast<Cmd1>(code & kCommandMask))
                                    : nameOf(static_cast<Cmd0>(code & kCommandMask));
}

} // namespace

std::vector<std::uint32_t> littleEndianWords(std::span<const std::uint8_t> bytes) {
  std::vector<std::uint32_t> words(bytes.size() / 4);
  for (std::size_t i = 0; i < words.size(); ++i) {
    words[i] = static_cast<std::uint32_t>(bytes[i * 4]) | (static_cast<std::uint32_t>(bytes[i * 4 + 1]) << 8) |
               (static_cast<std::uint32_t>(bytes[i * 4 + 2]) << 16) |
               (static_cast<std::uint32_t>(bytes[i * 4 + 3]) << 24);
  }
  return words;
}

DriverPayloadView readDriverPayload(std::span<const std::uint8_t> bytes) {
  if (bytes.size() % 4 != 0) {
    fail("its size, " + std::to_string(bytes.size()) + " bytes, is not a whole number of 32-bit words");
  }
  const std::vector<std::uint32_t> words = littleEndianWords(bytes);
  if (words.empty() || words[0] != kFourCc) {
    fail("it does not start with the driver's \"COP1\" header");
  }
  DriverPayloadView view;
  std::size_t at = 1;
  while (at < words.size()) {
    const std::uint32_t word = words[at];
    const auto tag = static_cast<std::uint16_t>(word & 0xFF);
    if (word == kNop) {
      ++at;
    } else if (tag == kConfigTag) {
      if (at + 2 >= words.size()) {
        fail("the driver header ends inside its CONFIG action");
      }
      view.configWord = words[at + 1];
      view.idWord = words[at + 2];
      at += 3;
    } else if (tag == kCommandStreamTag) {
      const std::size_t length = ((word >> 16) & 0xFFFF) | (((word >> 8) & 0xFF) << 16);
      ++at;
      if (length > words.size() - at) {
        fail("the header announces " + std::to_string(length) + " words of commands but " +
             std::to_string(words.size() - at) + " follow");
      }
      view.registerStream.assign(words.begin() + static_cast<std::ptrdiff_t>(at),
                                 words.begin() + static_cast<std::ptrdiff_t>(at + length));
      view.variant = variantOf(view.configWord);
      return view;
    } else {
      fail("unknown driver action 0x" + hex(word, 8) + " at byte " + std::to_string(at * 4));
    }
  }
  fail("the driver header has no command stream");
}

std::vector<DecodedCommand> decodeCommands(std::span<const std::uint32_t> words) {
  std::vector<DecodedCommand> commands;
  for (std::size_t at = 0; at < words.size();) {
    DecodedCommand command;
    command.offset = at * 4;
    command.code = static_cast<std::uint16_t>(words[at] & 0xFFFF);
    command.param = static_cast<std::uint16_t>(words[at] >> 16);
    command.hasPayload = (command.code & kPayloadFlag) != 0;
    if ((command.code & ~(kPayloadFlag | kCommandMask)) != 0 || !nameOfCode(command.code)) {
      fail("unknown command code 0x" + hex(command.code, 4) + " at offset 0x" + hex(command.offset, 6));
    }
    if (command.hasPayload) {
      if (at + 1 >= words.size()) {
        fail("the command at offset 0x" + hex(command.offset, 6) + " misses its payload word");
      }
      command.payload = words[at + 1];
    }
    at += command.hasPayload ? 2 : 1;
    commands.push_back(command);
  }
  return commands;
}

// The layout of Vela's CommandStreamEmitter.print_cmds.
std::string formatCommands(const std::vector<DecodedCommand>& commands) {
  std::ostringstream out;
  out << "  Offset: Payload Param Code - Command                        Param\n";
  std::size_t bytes = 0;
  for (const DecodedCommand& command : commands) {
    char line[160];
    const std::string name = std::string(command.hasPayload ? "cmd1." : "cmd0.") +
                             std::string(nameOfCode(command.code).value_or("UNKNOWN"));
    std::snprintf(line, sizeof line, "0x%06zx: %8s %04x %04x - %-30s %5u\n", command.offset,
                  command.hasPayload ? hex(command.payload, 8).c_str() : "", command.param, command.code,
                  name.c_str(), static_cast<unsigned>(command.param));
    out << line;
    bytes = command.offset + (command.hasPayload ? 8 : 4);
  }
  out << "Number of commands = " << commands.size() << "\n";
  out << "Command stream length = " << bytes << " bytes\n";
  return out.str();
}

} // namespace ethosu::codegen
