// SPDX-License-Identifier: Apache-2.0
#include "codegen_ethosu/registers.hpp"

#include <array>
#include <utility>

namespace ethosu::codegen {

namespace {

constexpr std::array<std::pair<Cmd0, std::string_view>, 61> kCmd0Names{{
    {Cmd0::OpStop, "NPU_OP_STOP"},
    {Cmd0::OpIrq, "NPU_OP_IRQ"},
    {Cmd0::OpConv, "NPU_OP_CONV"},
    {Cmd0::OpDepthwise, "NPU_OP_DEPTHWISE"},
    {Cmd0::OpPool, "NPU_OP_POOL"},
    {Cmd0::OpElementwise, "NPU_OP_ELEMENTWISE"},
    {Cmd0::OpDmaStart, "NPU_OP_DMA_START"},
    {Cmd0::OpDmaWait, "NPU_OP_DMA_WAIT"},
    {Cmd0::OpKernelWait, "NPU_OP_KERNEL_WAIT"},
    {Cmd0::OpPmuMask, "NPU_OP_PMU_MASK"},
    {Cmd0::IfmPadTop, "NPU_SET_IFM_PAD_TOP"},
    {Cmd0::IfmPadLeft, "NPU_SET_IFM_PAD_LEFT"},
    {Cmd0::IfmPadRight, "NPU_SET_IFM_PAD_RIGHT"},
    {Cmd0::IfmPadBottom, "NPU_SET_IFM_PAD_BOTTOM"},
    {Cmd0::IfmDepthM1, "NPU_SET_IFM_DEPTH_M1"},
    {Cmd0::IfmPrecision, "NPU_SET_IFM_PRECISION"},
    {Cmd0::IfmUpscale, "NPU_SET_IFM_UPSCALE"},
    {Cmd0::IfmZeroPoint, "NPU_SET_IFM_ZERO_POINT"},
    {Cmd0::IfmWidth0M1, "NPU_SET_IFM_WIDTH0_M1"},
    {Cmd0::IfmHeight0M1, "NPU_SET_IFM_HEIGHT0_M1"},
    {Cmd0::IfmHeight1M1, "NPU_SET_IFM_HEIGHT1_M1"},
    {Cmd0::IfmIbEnd, "NPU_SET_IFM_IB_END"},
    {Cmd0::IfmRegion, "NPU_SET_IFM_REGION"},
    {Cmd0::OfmWidthM1, "NPU_SET_OFM_WIDTH_M1"},
    {Cmd0::OfmHeightM1, "NPU_SET_OFM_HEIGHT_M1"},
    {Cmd0::OfmDepthM1, "NPU_SET_OFM_DEPTH_M1"},
    {Cmd0::OfmPrecision, "NPU_SET_OFM_PRECISION"},
    {Cmd0::OfmBlkWidthM1, "NPU_SET_OFM_BLK_WIDTH_M1"},
    {Cmd0::OfmBlkHeightM1, "NPU_SET_OFM_BLK_HEIGHT_M1"},
    {Cmd0::OfmBlkDepthM1, "NPU_SET_OFM_BLK_DEPTH_M1"},
    {Cmd0::OfmZeroPoint, "NPU_SET_OFM_ZERO_POINT"},
    {Cmd0::OfmWidth0M1, "NPU_SET_OFM_WIDTH0_M1"},
    {Cmd0::OfmHeight0M1, "NPU_SET_OFM_HEIGHT0_M1"},
    {Cmd0::OfmHeight1M1, "NPU_SET_OFM_HEIGHT1_M1"},
    {Cmd0::OfmRegion, "NPU_SET_OFM_REGION"},
    {Cmd0::KernelWidthM1, "NPU_SET_KERNEL_WIDTH_M1"},
    {Cmd0::KernelHeightM1, "NPU_SET_KERNEL_HEIGHT_M1"},
    {Cmd0::KernelStride, "NPU_SET_KERNEL_STRIDE"},
    {Cmd0::ParallelMode, "NPU_SET_PARALLEL_MODE"},
    {Cmd0::AccFormat, "NPU_SET_ACC_FORMAT"},
    {Cmd0::Activation, "NPU_SET_ACTIVATION"},
    {Cmd0::ActivationMin, "NPU_SET_ACTIVATION_MIN"},
    {Cmd0::ActivationMax, "NPU_SET_ACTIVATION_MAX"},
    {Cmd0::WeightRegion, "NPU_SET_WEIGHT_REGION"},
    {Cmd0::ScaleRegion, "NPU_SET_SCALE_REGION"},
    {Cmd0::AbStart, "NPU_SET_AB_START"},
    {Cmd0::BlockDep, "NPU_SET_BLOCKDEP"},
    {Cmd0::Dma0SrcRegion, "NPU_SET_DMA0_SRC_REGION"},
    {Cmd0::Dma0DstRegion, "NPU_SET_DMA0_DST_REGION"},
    {Cmd0::Dma0Size0, "NPU_SET_DMA0_SIZE0"},
    {Cmd0::Dma0Size1, "NPU_SET_DMA0_SIZE1"},
    {Cmd0::Ifm2Broadcast, "NPU_SET_IFM2_BROADCAST"},
    {Cmd0::Ifm2Scalar, "NPU_SET_IFM2_SCALAR"},
    {Cmd0::Ifm2Precision, "NPU_SET_IFM2_PRECISION"},
    {Cmd0::Ifm2ZeroPoint, "NPU_SET_IFM2_ZERO_POINT"},
    {Cmd0::Ifm2Width0M1, "NPU_SET_IFM2_WIDTH0_M1"},
    {Cmd0::Ifm2Height0M1, "NPU_SET_IFM2_HEIGHT0_M1"},
    {Cmd0::Ifm2Height1M1, "NPU_SET_IFM2_HEIGHT1_M1"},
    {Cmd0::Ifm2IbStart, "NPU_SET_IFM2_IB_START"},
    {Cmd0::Ifm2Region, "NPU_SET_IFM2_REGION"},
}};

constexpr std::array<std::pair<Cmd1, std::string_view>, 37> kCmd1Names{{
    {Cmd1::IfmBase0, "NPU_SET_IFM_BASE0"},
    {Cmd1::IfmBase1, "NPU_SET_IFM_BASE1"},
    {Cmd1::IfmBase2, "NPU_SET_IFM_BASE2"},
    {Cmd1::IfmBase3, "NPU_SET_IFM_BASE3"},
    {Cmd1::IfmStrideX, "NPU_SET_IFM_STRIDE_X"},
    {Cmd1::IfmStrideY, "NPU_SET_IFM_STRIDE_Y"},
    {Cmd1::IfmStrideC, "NPU_SET_IFM_STRIDE_C"},
    {Cmd1::OfmBase0, "NPU_SET_OFM_BASE0"},
    {Cmd1::OfmBase1, "NPU_SET_OFM_BASE1"},
    {Cmd1::OfmBase2, "NPU_SET_OFM_BASE2"},
    {Cmd1::OfmBase3, "NPU_SET_OFM_BASE3"},
    {Cmd1::OfmStrideX, "NPU_SET_OFM_STRIDE_X"},
    {Cmd1::OfmStrideY, "NPU_SET_OFM_STRIDE_Y"},
    {Cmd1::OfmStrideC, "NPU_SET_OFM_STRIDE_C"},
    {Cmd1::WeightBase, "NPU_SET_WEIGHT_BASE"},
    {Cmd1::WeightLength, "NPU_SET_WEIGHT_LENGTH"},
    {Cmd1::ScaleBase, "NPU_SET_SCALE_BASE"},
    {Cmd1::ScaleLength, "NPU_SET_SCALE_LENGTH"},
    {Cmd1::OfmScale, "NPU_SET_OFM_SCALE"},
    {Cmd1::OpaScale, "NPU_SET_OPA_SCALE"},
    {Cmd1::OpbScale, "NPU_SET_OPB_SCALE"},
    {Cmd1::Dma0Src, "NPU_SET_DMA0_SRC"},
    {Cmd1::Dma0Dst, "NPU_SET_DMA0_DST"},
    {Cmd1::Dma0Len, "NPU_SET_DMA0_LEN"},
    {Cmd1::Dma0Skip0, "NPU_SET_DMA0_SKIP0"},
    {Cmd1::Dma0Skip1, "NPU_SET_DMA0_SKIP1"},
    {Cmd1::Ifm2Base0, "NPU_SET_IFM2_BASE0"},
    {Cmd1::Ifm2Base1, "NPU_SET_IFM2_BASE1"},
    {Cmd1::Ifm2Base2, "NPU_SET_IFM2_BASE2"},
    {Cmd1::Ifm2Base3, "NPU_SET_IFM2_BASE3"},
    {Cmd1::Ifm2StrideX, "NPU_SET_IFM2_STRIDE_X"},
    {Cmd1::Ifm2StrideY, "NPU_SET_IFM2_STRIDE_Y"},
    {Cmd1::Ifm2StrideC, "NPU_SET_IFM2_STRIDE_C"},
    {Cmd1::Weight1Base, "NPU_SET_WEIGHT1_BASE"},
    {Cmd1::Weight1Length, "NPU_SET_WEIGHT1_LENGTH"},
    {Cmd1::Scale1Base, "NPU_SET_SCALE1_BASE"},
    {Cmd1::Scale1Length, "NPU_SET_SCALE1_LENGTH"},
}};

template <typename Command, std::size_t N>
std::optional<std::string_view> lookup(const std::array<std::pair<Command, std::string_view>, N>& table,
                                       Command command) {
  for (const auto& [candidate, name] : table) {
    if (candidate == command) {
      return name;
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string_view> nameOf(Cmd0 command) { return lookup(kCmd0Names, command); }
std::optional<std::string_view> nameOf(Cmd1 command) { return lookup(kCmd1Names, command); }

} // namespace ethosu::codegen
