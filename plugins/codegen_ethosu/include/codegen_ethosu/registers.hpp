// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Ethos-U55/U65 command set: commands without payload (cmd0: operations and 16-bit register
// settings) and commands with a 32-bit payload word (cmd1: addresses, lengths, strides, scales). Codes
// from the Ethos-U register description (Vela's ethos_u55_regs.py); a command word holds the code in
// its low 16 bits (bit 14 set for cmd1) and a 16-bit parameter in its high 16 bits.

#include <cstdint>
#include <optional>
#include <string_view>

namespace ethosu::codegen {

enum class Cmd0 : std::uint16_t {
  OpStop = 0x000,
  OpIrq = 0x001,
  OpConv = 0x002,
  OpDepthwise = 0x003,
  OpPool = 0x005,
  OpElementwise = 0x006,
  OpDmaStart = 0x010,
  OpDmaWait = 0x011,
  OpKernelWait = 0x012,
  OpPmuMask = 0x013,
  IfmPadTop = 0x100,
  IfmPadLeft = 0x101,
  IfmPadRight = 0x102,
  IfmPadBottom = 0x103,
  IfmDepthM1 = 0x104,
  IfmPrecision = 0x105,
  IfmUpscale = 0x107,
  IfmZeroPoint = 0x109,
  IfmWidth0M1 = 0x10A,
  IfmHeight0M1 = 0x10B,
  IfmHeight1M1 = 0x10C,
  IfmIbEnd = 0x10D,
  IfmRegion = 0x10F,
  OfmWidthM1 = 0x111,
  OfmHeightM1 = 0x112,
  OfmDepthM1 = 0x113,
  OfmPrecision = 0x114,
  OfmBlkWidthM1 = 0x115,
  OfmBlkHeightM1 = 0x116,
  OfmBlkDepthM1 = 0x117,
  OfmZeroPoint = 0x118,
  OfmWidth0M1 = 0x11A,
  OfmHeight0M1 = 0x11B,
  OfmHeight1M1 = 0x11C,
  OfmRegion = 0x11F,
  KernelWidthM1 = 0x120,
  KernelHeightM1 = 0x121,
  KernelStride = 0x122,
  ParallelMode = 0x123,
  AccFormat = 0x124,
  Activation = 0x125,
  ActivationMin = 0x126,
  ActivationMax = 0x127,
  WeightRegion = 0x128,
  ScaleRegion = 0x129,
  AbStart = 0x12D,
  BlockDep = 0x12F,
  Dma0SrcRegion = 0x130,
  Dma0DstRegion = 0x131,
  Dma0Size0 = 0x132,
  Dma0Size1 = 0x133,
  Ifm2Broadcast = 0x180,
  Ifm2Scalar = 0x181,
  Ifm2Precision = 0x185,
  Ifm2ZeroPoint = 0x189,
  Ifm2Width0M1 = 0x18A,
  Ifm2Height0M1 = 0x18B,
  Ifm2Height1M1 = 0x18C,
  Ifm2IbStart = 0x18D,
  Ifm2Region = 0x18F,
};

enum class Cmd1 : std::uint16_t {
  IfmBase0 = 0x000,
  IfmBase1 = 0x001,
  IfmBase2 = 0x002,
  IfmBase3 = 0x003,
  IfmStrideX = 0x004,
  IfmStrideY = 0x005,
  IfmStrideC = 0x006,
  OfmBase0 = 0x010,
  OfmBase1 = 0x011,
  OfmBase2 = 0x012,
  OfmBase3 = 0x013,
  OfmStrideX = 0x014,
  OfmStrideY = 0x015,
  OfmStrideC = 0x016,
  WeightBase = 0x020,
  WeightLength = 0x021,
  ScaleBase = 0x022,
  ScaleLength = 0x023,
  OfmScale = 0x024,
  OpaScale = 0x025,
  OpbScale = 0x026,
  Dma0Src = 0x030,
  Dma0Dst = 0x031,
  Dma0Len = 0x032,
  Dma0Skip0 = 0x033,
  Dma0Skip1 = 0x034,
  Ifm2Base0 = 0x080,
  Ifm2Base1 = 0x081,
  Ifm2Base2 = 0x082,
  Ifm2Base3 = 0x083,
  Ifm2StrideX = 0x084,
  Ifm2StrideY = 0x085,
  Ifm2StrideC = 0x086,
  Weight1Base = 0x090,
  Weight1Length = 0x091,
  Scale1Base = 0x092,
  Scale1Length = 0x093,
};

inline constexpr std::uint32_t kPayloadFlag = 0x4000; ///< bit 14 of a command word: a cmd1 with payload
inline constexpr std::uint32_t kCommandMask = 0x03FF;

/// Vela's names, e.g. "NPU_OP_CONV", "NPU_SET_IFM_BASE0"; nullopt for an unknown code.
[[nodiscard]] std::optional<std::string_view> nameOf(Cmd0 command);
[[nodiscard]] std::optional<std::string_view> nameOf(Cmd1 command);

} // namespace ethosu::codegen
