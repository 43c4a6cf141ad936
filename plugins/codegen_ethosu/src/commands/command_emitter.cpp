// SPDX-License-Identifier: Apache-2.0
#include "commands/command_emitter.hpp"

namespace ethosu::codegen {

namespace {

bool isDma(Cmd0 command) {
  return command == Cmd0::Dma0SrcRegion || command == Cmd0::Dma0DstRegion || command == Cmd0::Dma0Size0 ||
         command == Cmd0::Dma0Size1 || command == Cmd0::OpDmaStart || command == Cmd0::OpDmaWait;
}

bool isDma(Cmd1 command) {
  return command == Cmd1::Dma0Src || command == Cmd1::Dma0Dst || command == Cmd1::Dma0Len ||
         command == Cmd1::Dma0Skip0 || command == Cmd1::Dma0Skip1;
}

std::uint32_t low16(std::int64_t value) { return static_cast<std::uint32_t>(value) & 0xFFFFU; }

} // namespace

bool CommandEmitter::changes(bool dma, std::uint32_t code, std::uint32_t command, std::uint32_t value) {
  auto& registers = registers_[dma ? 1 : 0];
  const auto it = registers.find(code);
  if (it != registers.end() && it->second == std::pair{command, value}) {
    return false;
  }
  registers[code] = {command, value};
  return true;
}

void CommandEmitter::set(Cmd0 command, std::int64_t parameter) {
  const auto code = static_cast<std::uint32_t>(command);
  const std::uint32_t word = code | (low16(parameter) << 16);
  if (changes(isDma(command), code, word, low16(parameter))) {
    words_.push_back(word);
  }
}

void CommandEmitter::setPayload(Cmd1 command, std::int64_t payload, std::int64_t parameter) {
  const std::uint32_t code = static_cast<std::uint32_t>(command) | kPayloadFlag;
  const std::uint32_t word = code | (low16(parameter) << 16);
  const auto value = static_cast<std::uint32_t>(payload & 0xFFFFFFFF);
  if (changes(isDma(command), code, word, value)) {
    words_.push_back(word);
    words_.push_back(value);
  }
}

void CommandEmitter::wait(Cmd0 command, int outstanding) {
  words_.push_back(static_cast<std::uint32_t>(command) | (low16(outstanding) << 16));
}

void CommandEmitter::operation(Cmd0 command, std::int64_t parameter) {
  words_.push_back(static_cast<std::uint32_t>(command) | (low16(parameter) << 16));
}

} // namespace ethosu::codegen
