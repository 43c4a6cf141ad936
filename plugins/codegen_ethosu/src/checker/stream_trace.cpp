// SPDX-License-Identifier: Apache-2.0
#include "checker/stream_trace.hpp"

#include "codegen_ethosu/npu_operation.hpp"
#include "codegen_ethosu/registers.hpp"

#include "ethosu/architecture/architecture.hpp"
#include "ethosu/blocks/block_config.hpp"

#include "npu/core/shape.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <optional>

namespace ethosu::codegen {

namespace {

std::string at(const DecodedCommand& command) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%06zx", command.offset);
  return text;
}

/// The register file: the last value written to every register.
class Registers {
public:
  void write(const DecodedCommand& command) {
    values_[command.code] = command.hasPayload ? command.address() : command.param;
  }
  [[nodiscard]] std::int64_t get(Cmd0 command) const { return value(static_cast<std::uint16_t>(command)); }
  [[nodiscard]] std::int64_t get(Cmd1 command) const {
    return value(static_cast<std::uint16_t>(static_cast<std::uint16_t>(command) | kPayloadFlag));
  }

private:
  [[nodiscard]] std::int64_t value(std::uint16_t code) const {
    const auto found = values_.find(code);
    return found == values_.end() ? 0 : found->second;
  }
  std::map<std::uint16_t, std::int64_t> values_;
};

/// A feature map as its registers describe it.
struct FeatureMapRegisters {
  Cmd0 region;
  Cmd1 base0;
  Cmd0 height0, height1, width0;
  Cmd1 strideX, strideY, strideC;
  Cmd0 precision;
  int precisionShift; ///< where the element size field starts (IFM: bit 2, OFM: bit 1)
};

constexpr FeatureMapRegisters kIfm{Cmd0::IfmRegion,    Cmd1::IfmBase0,   Cmd0::IfmHeight0M1, Cmd0::IfmHeight1M1,
                                   Cmd0::IfmWidth0M1,  Cmd1::IfmStrideX, Cmd1::IfmStrideY,   Cmd1::IfmStrideC,
                                   Cmd0::IfmPrecision, 2};
constexpr FeatureMapRegisters kIfm2{Cmd0::Ifm2Region,    Cmd1::Ifm2Base0,   Cmd0::Ifm2Height0M1, Cmd0::Ifm2Height1M1,
                                    Cmd0::Ifm2Width0M1,  Cmd1::Ifm2StrideX, Cmd1::Ifm2StrideY,   Cmd1::Ifm2StrideC,
                                    Cmd0::Ifm2Precision, 2};
constexpr FeatureMapRegisters kOfm{Cmd0::OfmRegion,    Cmd1::OfmBase0,   Cmd0::OfmHeight0M1, Cmd0::OfmHeight1M1,
                                   Cmd0::OfmWidth0M1,  Cmd1::OfmStrideX, Cmd1::OfmStrideY,   Cmd1::OfmStrideC,
                                   Cmd0::OfmPrecision, 1};

struct Box {
  std::int64_t height = 1;
  std::int64_t width = 1;
  std::int64_t depth = 1;
};

/// The byte ranges a box of a feature map covers: one per tile it reaches (tile 0 top left, 1 top
/// right, 2 bottom left, 3 bottom right), each the hull from the tile's first byte to its last.
std::vector<MemoryAccess> accessesOf(const Registers& registers, const FeatureMapRegisters& map, const Box& box,
                                     bool write) {
  const std::int64_t elementBytes = std::int64_t{1} << ((registers.get(map.precision) >> map.precisionShift) & 3);
  const bool bricks = ((registers.get(map.precision) >> 6) & 1) != 0;
  const std::int64_t strideX = registers.get(map.strideX);
  const std::int64_t strideY = registers.get(map.strideY);
  const std::int64_t strideC = registers.get(map.strideC);
  // In bricks of 16 channels, a write is taken to cover its last brick whole: the channels past the
  // depth are padding nobody reads, and a later read of the rows then finds no gap between them.
  const std::int64_t lastBrickChannels = write ? 16 : (box.depth - 1) % 16 + 1;
  const std::int64_t channels = bricks ? ((box.depth - 1) / 16) * strideC + lastBrickChannels * elementBytes
                                       : box.depth * elementBytes;
  const std::int64_t height0 = registers.get(map.height0) + 1;
  const std::int64_t height1 = registers.get(map.height1) + 1;
  const std::int64_t width0 = registers.get(map.width0) + 1;
  const int region = static_cast<int>(registers.get(map.region) & 0x7);
  std::vector<MemoryAccess> accesses;
  const auto tile = [&](int index, std::int64_t rows, std::int64_t columns) {
    if (rows <= 0 || columns <= 0) {
      return;
    }
    const std::int64_t base = registers.get(static_cast<Cmd1>(static_cast<std::uint16_t>(map.base0) + index));
    std::int64_t end = base + (rows - 1) * strideY + (columns - 1) * strideX + channels;
    if (write) {
      // Buffers are allocated in whole 16-byte units, and a DMA copying the buffer reads its padding:
      // a write counts up to the end of its last unit.
      end = npu::roundUp(end, kAllocationUnit);
    }
    accesses.push_back({region, base, end, write});
  };
  const std::int64_t left = std::min(box.width, width0);
  const std::int64_t right = box.width - left;
  tile(0, std::min(box.height, height0), left);
  tile(1, std::min(box.height, height1), right);
  tile(2, box.height - std::min(box.height, height0), left);
  tile(3, box.height - std::min(box.height, height1), right);
  return accesses;
}

void append(std::vector<MemoryAccess>& to, const std::vector<MemoryAccess>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

/// A weight or scale stream, per core.
void appendStreams(std::vector<MemoryAccess>& to, const Registers& registers, Cmd0 region,
                   std::array<std::pair<Cmd1, Cmd1>, 2> perCore, int cores) {
  for (int core = 0; core < cores; ++core) {
    const std::int64_t base = registers.get(perCore[static_cast<std::size_t>(core)].first);
    const std::int64_t length = registers.get(perCore[static_cast<std::size_t>(core)].second);
    if (length > 0) {
      to.push_back({static_cast<int>(registers.get(region) & 0x7), base, base + length, false});
    }
  }
}

bool isUnaryElementwise(std::int64_t mode) { return mode == 5 || mode == 6 || mode == 7; } // LRELU, ABS, CLZ

/// The IFM rows and columns a convolution or pooling reads for its OFM (Vela: the IFM box of a stripe).
Box ifmBoxOf(const Registers& registers, const Box& ofm) {
  const std::int64_t stride = registers.get(Cmd0::KernelStride);
  const std::int64_t strideX = ((stride & 1) | (((stride >> 6) & 1) << 1)) + 1;
  const std::int64_t strideY = (((stride >> 1) & 1) | (((stride >> 9) & 1) << 1)) + 1;
  const std::int64_t kernelHeight = registers.get(Cmd0::KernelHeightM1) + 1; // dilation included
  const std::int64_t kernelWidth = registers.get(Cmd0::KernelWidthM1) + 1;
  Box box;
  box.height = (ofm.height - 1) * strideY + kernelHeight - registers.get(Cmd0::IfmPadTop) -
               registers.get(Cmd0::IfmPadBottom);
  box.width = (ofm.width - 1) * strideX + kernelWidth - registers.get(Cmd0::IfmPadLeft) -
              registers.get(Cmd0::IfmPadRight);
  if (registers.get(Cmd0::IfmUpscale) != 0) { // the IFM is upscaled by two before the kernel reads it
    box.height = (box.height + 1) / 2;
    box.width = (box.width + 1) / 2;
  }
  box.height = std::max<std::int64_t>(box.height, 1);
  box.width = std::max<std::int64_t>(box.width, 1);
  box.depth = registers.get(Cmd0::IfmDepthM1) + 1;
  return box;
}

class StreamTracer {
public:
  explicit StreamTracer(const VariantSpec& variant) : variant_(variant), shram_(variant, npu::MemorySystem{}) {}

  void command(const DecodedCommand& command) {
    if (command.hasPayload || command.command() >= 0x100) {
      registers_.write(command);
      const auto code = command.command();
      scaleStreamSet_ = scaleStreamSet_ || (!command.hasPayload && code == static_cast<std::uint16_t>(Cmd0::ScaleRegion)) ||
                        (command.hasPayload && (code == static_cast<std::uint16_t>(Cmd1::ScaleBase) ||
                                                code == static_cast<std::uint16_t>(Cmd1::ScaleLength)));
      return;
    }
    switch (static_cast<Cmd0>(command.command())) {
    case Cmd0::OpConv:
    case Cmd0::OpDepthwise:
    case Cmd0::OpPool:
    case Cmd0::OpElementwise: kernel(command); break;
    case Cmd0::OpDmaStart: dma(command); break;
    case Cmd0::OpKernelWait: trace_.events.push_back(waitFor(Engine::Kernel, command.param)); break;
    case Cmd0::OpDmaWait: trace_.events.push_back(waitFor(Engine::Dma, command.param)); break;
    case Cmd0::OpStop: stopped_ = true; break;
    default: break;
    }
  }

  StreamTrace finish(const std::vector<DecodedCommand>& commands) {
    if (!stopped_) {
      trace_.problems.push_back("the stream does not end with NPU_OP_STOP");
    } else if (commands.empty() || static_cast<Cmd0>(commands.back().command()) != Cmd0::OpStop ||
               commands.back().hasPayload) {
      trace_.problems.push_back("commands follow NPU_OP_STOP");
    }
    return std::move(trace_);
  }

private:
  void kernel(const DecodedCommand& command) {
    const auto operation = static_cast<Cmd0>(command.command());
    const Box ofm{registers_.get(Cmd0::OfmHeightM1) + 1, registers_.get(Cmd0::OfmWidthM1) + 1,
                  registers_.get(Cmd0::OfmDepthM1) + 1};
    TraceEvent event{Engine::Kernel, false, 0, std::string(nameOf(operation).value_or("NPU_OP")) + " at " + at(command),
                     {}};
    const bool elementwise = operation == Cmd0::OpElementwise;
    Box ifm = elementwise ? Box{ofm.height, ofm.width, registers_.get(Cmd0::IfmDepthM1) + 1} : ifmBoxOf(registers_, ofm);
    append(event.accesses, accessesOf(registers_, kIfm, ifm, false));
    if (elementwise && !isUnaryElementwise(command.param)) {
      const std::int64_t broadcast = registers_.get(Cmd0::Ifm2Broadcast);
      if ((broadcast & (1 << 7)) == 0) { // not a scalar
        const Box ifm2{(broadcast & 1) != 0 ? 1 : ofm.height, (broadcast & 2) != 0 ? 1 : ofm.width,
                       (broadcast & 4) != 0 ? 1 : ofm.depth};
        append(event.accesses, accessesOf(registers_, kIfm2, ifm2, false));
      }
    }
    const int cores = variant_.cores;
    if (operation == Cmd0::OpConv || operation == Cmd0::OpDepthwise) {
      appendStreams(event.accesses, registers_, Cmd0::WeightRegion,
                    {{{Cmd1::WeightBase, Cmd1::WeightLength}, {Cmd1::Weight1Base, Cmd1::Weight1Length}}}, cores);
    }
    // Convolutions always read a scale stream; a pooling only when one was given for it (a per-channel
    // rescale): the registers keep the last convolution's otherwise.
    if (operation == Cmd0::OpConv || operation == Cmd0::OpDepthwise || (operation == Cmd0::OpPool && scaleStreamSet_)) {
      appendStreams(event.accesses, registers_, Cmd0::ScaleRegion,
                    {{{Cmd1::ScaleBase, Cmd1::ScaleLength}, {Cmd1::Scale1Base, Cmd1::Scale1Length}}}, cores);
    }
    append(event.accesses, accessesOf(registers_, kOfm, ofm, true));
    checkShram(command, elementwise);
    scaleStreamSet_ = false;
    trace_.events.push_back(std::move(event));
  }

  // The SHRAM layout registers against the block (architecture_allocator's bank arithmetic).
  void checkShram(const DecodedCommand& command, bool elementwise) {
    const Architecture& shape = shram_;
    const std::int64_t activation = registers_.get(Cmd0::Activation) & 0xFF;
    const bool lookupTable = activation >= 16 && activation < 24;
    const int usable = shape.variant().shramBanks - std::max(lookupTable ? 2 : 0, shape.shramReservedEndBanks());
    const std::int64_t ifmEnd = registers_.get(Cmd0::IfmIbEnd);
    const std::int64_t accumulatorStart = registers_.get(Cmd0::AbStart);
    std::string problem;
    if (ifmEnd > accumulatorStart) {
      problem = "the IFM buffer (to bank " + std::to_string(ifmEnd) + ") overlaps the accumulators (from bank " +
                std::to_string(accumulatorStart) + ")";
    } else if (accumulatorStart > usable) {
      problem = "the accumulators start at bank " + std::to_string(accumulatorStart) + ", beyond the " +
                std::to_string(usable) + " banks SHRAM has for them";
    } else if (!elementwise) {
      const std::int64_t format = registers_.get(Cmd0::AccFormat);
      const ShramElement accumulator = format == 2   ? ShramElement::Accumulator16
                                       : format == 1 ? ShramElement::Accumulator40
                                                     : ShramElement::Accumulator32;
      // The 256/512-MAC variants run a one-row OFM with a one-row kernel in one-row blocks
      // (architecture_allocator.fit_block_for_ofm).
      std::int64_t blockHeight = registers_.get(Cmd0::OfmBlkHeightM1) + 1;
      if (registers_.get(Cmd0::OfmHeightM1) == 0 && registers_.get(Cmd0::KernelHeightM1) == 0 &&
          variant_.ofmMicroBlock.height == 2) {
        blockHeight = 1;
      }
      const std::int64_t bytes = blockHeight * (registers_.get(Cmd0::OfmBlkWidthM1) + 1) *
                                 npu::roundUp(registers_.get(Cmd0::OfmBlkDepthM1) + 1, 8) *
                                 accumulatorBits(accumulator) / 8;
      const std::int64_t banks = npu::roundUp(npu::divRoundUp(bytes, CommonArchitecture::kShramBankBytes) * 2,
                                              static_cast<std::int64_t>(shape.accumulatorGranule(accumulator)));
      if (accumulatorStart + banks > usable) {
        problem = "the block's accumulators need " + std::to_string(banks) + " banks from bank " +
                  std::to_string(accumulatorStart) + ", beyond the " + std::to_string(usable) + " banks of SHRAM";
      }
    }
    if (!problem.empty()) {
      trace_.problems.push_back(std::string(nameOf(static_cast<Cmd0>(command.command())).value_or("NPU_OP")) +
                                " at " + at(command) + ": the block config does not fit SHRAM: " + problem);
    }
  }

  void dma(const DecodedCommand& command) {
    const std::int64_t length = registers_.get(Cmd1::Dma0Len);
    const std::int64_t source = registers_.get(Cmd1::Dma0Src);
    const std::int64_t destination = registers_.get(Cmd1::Dma0Dst);
    const auto sourceRegion = static_cast<int>(registers_.get(Cmd0::Dma0SrcRegion) & 0x307);
    const auto destinationRegion = static_cast<int>(registers_.get(Cmd0::Dma0DstRegion) & 0x307);
    trace_.events.push_back(TraceEvent{Engine::Dma,
                                       false,
                                       0,
                                       "NPU_OP_DMA_START at " + at(command),
                                       {{sourceRegion, source, source + length, false},
                                        {destinationRegion, destination, destination + length, true}}});
  }

  const VariantSpec& variant_;
  Architecture shram_; ///< for its SHRAM bank arithmetic only
  Registers registers_;
  StreamTrace trace_;
  bool stopped_ = false;
  bool scaleStreamSet_ = false; ///< a scale stream register was written since the last kernel operation
};

} // namespace

StreamTrace traceStream(const std::vector<DecodedCommand>& commands, const VariantSpec& variant) {
  StreamTracer tracer(variant);
  for (const DecodedCommand& command : commands) {
    tracer.command(command);
  }
  return tracer.finish(commands);
}

} // namespace ethosu::codegen
