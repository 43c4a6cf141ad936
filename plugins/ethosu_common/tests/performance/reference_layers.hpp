// SPDX-License-Identifier: Apache-2.0
#pragma once

// Layers of real models with what Vela 3.10 reported for them (the per-layer CSV of the reference runs in
// /work/shared/reference/vela310: C1 = U55-128 High-End Embedded, C3 = U65-256 High-End with
// Dedicated_Sram, C4 = U55-64 Deep Embedded), rebuilt by hand so that the tests need no shared files.
// Shapes, kernels and encoded weight sizes are those of Vela's schedule.txt; data types, activations and
// storage formats those of the model; the block config is the one Vela's schedule.txt shows (C4 has no
// schedule.txt: its block configs are not checked). `previousSlack` is the NPU cycles of the layer
// before, as Vela reported them (0 for the first layer of a subgraph).

#include "ethosu/accelerator/accelerator.hpp"

#include "npu/ir/graph.hpp"

#include "test_support.hpp"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace ethosu::test {

struct ReferenceSystem {
  const char* name;
  const char* variant;
  const char* system;
  const char* memoryMode;
};

inline constexpr ReferenceSystem kC1{"C1", "ethos-u55-128", "ethos_u55_high_end_embedded", "shared_sram"};
inline constexpr ReferenceSystem kC3{"C3", "ethos-u65-256", "ethos_u65_high_end", "dedicated_sram"};
inline constexpr ReferenceSystem kC4{"C4", "ethos-u55-64", "ethos_u55_deep_embedded", "shared_sram"};

/// How the second input is given.
struct Operand {
  bool constant = false;
  bool scalar = false; ///< a rank-0 tensor
};

/// The columns of Vela's per-layer CSV.
struct Expected {
  double total = 0;
  double npu = 0;
  double sramAccess = 0;
  double dramAccess = 0;
  double onChipFlashAccess = 0;
  double offChipFlashAccess = 0;
  std::int64_t macs = 0;
};

struct ReferenceLayer {
  const char* source;
  ReferenceSystem system;
  npu::OpType type;
  npu::FeatureMapQuery ifm;
  std::optional<npu::FeatureMapQuery> ifm2;
  npu::FeatureMapQuery ofm;
  Operand ifm2Operand;
  npu::Kernel kernel;
  std::optional<npu::OpType> activation;
  int lutBytes = 0;
  bool hasBias = false;
  std::int64_t weightElements = 0;
  std::int64_t encodedWeights = 0; ///< Vela's "Encoded Weights"
  bool weightsBuffered = false;    ///< copied into one SRAM buffer by DMA ("Weight buffer1")
  double previousSlack = 0;
  std::array<int, 4> velaBlockConfig{}; ///< [ofm h, ofm w, ifm depth, ofm depth]; zeros: not recorded
  Expected expected;
  /// Set for a layer of a cascade: the stripes its block config was chosen for. Vela's estimate still
  /// covers the whole layer, and a cascaded layer's weights count no separate transfer time.
  std::optional<std::pair<npu::Shape4, npu::Shape4>> cascadeStripes; ///< IFM and OFM stripe
};

// clang-format off
inline const std::vector<ReferenceLayer>& referenceLayers() {
  using npu::DataType;
  using npu::FeatureMapQuery;
  using npu::Kernel;
  using npu::MemoryArea;
  using npu::OpType;
  using npu::TensorFormat;
  static const std::vector<ReferenceLayer> layers{
    {"C1 mlperf_tiny_ic_resnet8_int8 #0.0: 3x3 convolution, int8, ReLU, first layer", kC1, OpType::Conv2DBias,
     {{1, 32, 32, 3}, DataType::Int8, TensorFormat::NHWC, MemoryArea::Sram},
     std::nullopt,
     {{1, 32, 32, 16}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{3, 3, 1, 1, 1, 1}, OpType::Relu, 0, true, 432, 768, true, 0,
     {4, 32, 8, 16}, Expected{14144, 14144, 4352, 0, 0, 0, 442368}, std::nullopt},
    {"C1 mlperf_tiny_ic_resnet8_int8 #0.4: 3x3 convolution, stride 2", kC1, OpType::Conv2DBias,
     {{1, 32, 32, 16}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 16, 16, 32}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{3, 3, 2, 2, 1, 1}, OpType::Relu, 0, true, 4608, 5472, true, 24576,
     {4, 16, 16, 16}, Expected{12992, 12992, 5632, 0, 0, 0, 1179648}, std::nullopt},
    {"C1 mlperf_tiny_ic_resnet8_int8 #0.6: 1x1 convolution, stride 2", kC1, OpType::Conv2DBias,
     {{1, 32, 32, 16}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 16, 16, 32}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 2, 2, 1, 1}, std::nullopt, 0, true, 512, 992, true, 19284,
     {1, 16, 16, 32}, Expected{4240, 4240, 2048, 0, 0, 0, 131072}, std::nullopt},
    {"C1 tflm_micro_speech_int8 #0.1: 8x10 convolution in two sub-kernels, stride 2", kC1, OpType::Conv2DBias,
     {{1, 49, 40, 1}, DataType::Int8, TensorFormat::NHWC, MemoryArea::Sram},
     std::nullopt,
     {{1, 25, 20, 8}, DataType::Int8, TensorFormat::NHWC, MemoryArea::Sram},
     Operand{false, false}, Kernel{8, 10, 2, 2, 1, 1}, OpType::Relu, 0, true, 640, 1056, true, 0,
     {11, 10, 8, 8}, Expected{28947, 28947, 6368, 0, 0, 0, 320000}, std::nullopt},
    {"C1 coral_mobilenet_v1_025_128_uint8 #0.1: 3x3 depthwise, uint8, ReLU6", kC1, OpType::DepthwiseConv2DBias,
     {{1, 64, 64, 8}, DataType::UInt8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 64, 64, 8}, DataType::UInt8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{3, 3, 1, 1, 1, 1}, OpType::Relu6, 0, true, 72, 160, true, 18021,
     {14, 14, 8, 8}, Expected{30184, 30184, 20992, 0, 0, 0, 294912}, std::nullopt},
    {"C1 coral_mobilenet_v1_025_128_uint8 #0.3: 3x3 depthwise, stride 2", kC1, OpType::DepthwiseConv2DBias,
     {{1, 64, 64, 16}, DataType::UInt8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 32, 32, 16}, DataType::UInt8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{3, 3, 2, 2, 1, 1}, OpType::Relu6, 0, true, 144, 336, true, 33280,
     {4, 16, 16, 16}, Expected{12809, 12809, 11840, 0, 0, 0, 147456}, std::nullopt},
    {"C1 coral_deeplabv3_mnv2_dm05_pascal_uint8 #0.51: 3x3 depthwise, dilation 2", kC1, OpType::DepthwiseConv2DBias,
     {{1, 33, 33, 480}, DataType::UInt8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 33, 33, 480}, DataType::UInt8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{3, 3, 1, 1, 2, 2}, OpType::Relu6, 0, true, 4320, 8976, true, 454608,
     {8, 8, 16, 16}, Expected{576512, 576512, 281340, 0, 0, 0, 4704480}, std::nullopt},
    {"C1 mlperf_tiny_ic_resnet8_int8 #0.13: fully connected, weights read from flash", kC1, OpType::FullyConnected,
     {{1, 1, 1, 64}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 1, 1, 10}, DataType::Int8, TensorFormat::NHWC, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, std::nullopt, 0, true, 640, 848, false, 794,
     {1, 2, 32, 16}, Expected{848, 183, 10.5, 0, 0, 848, 640}, std::nullopt},
    {"C1 tflm_mnist_lstm_int8 #0.0: fully connected, int8 in, int16 out", kC1, OpType::FullyConnected,
     {{1, 1, 1, 20}, DataType::Int8, TensorFormat::NHWC, MemoryArea::Sram},
     std::nullopt,
     {{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, std::nullopt, 0, true, 400, 704, false, 0,
     {1, 2, 24, 24}, Expected{704, 149, 11.333333333333332, 0, 0, 704, 400}, std::nullopt},
    {"C1 mlperf_tiny_ic_resnet8_int8 #0.12: 8x8 average pooling", kC1, OpType::AvgPool,
     {{1, 8, 8, 64}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 1, 1, 64}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{8, 8, 1, 1, 1, 1}, std::nullopt, 0, false, 0, 0, false, 6144,
     {1, 2, 64, 64}, Expected{794, 794, 520, 0, 0, 0, 4096}, std::nullopt},
    {"C1 tflm_mnist_lstm_int8 #0.15: average pooling, int16", kC1, OpType::AvgPool,
     {{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHWC, MemoryArea::Sram},
     std::nullopt,
     {{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, OpType::Tanh, 0, false, 0, 0, false, 30,
     {1, 2, 24, 24}, Expected{56, 56, 13, 0, 0, 0, 20}, std::nullopt},
    {"C1 mlperf_tiny_ic_resnet8_int8 #0.14: 10x1 max pooling", kC1, OpType::MaxPool,
     {{1, 1, 10, 1}, DataType::Int8, TensorFormat::NHWC, MemoryArea::Sram},
     std::nullopt,
     {{1, 1, 1, 1}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{10, 1, 1, 1, 1, 1}, std::nullopt, 0, false, 0, 0, false, 183,
     {1, 2, 8, 8}, Expected{43, 43, 12, 0, 0, 0, 10}, std::nullopt},
    {"C1 mlperf_tiny_ic_resnet8_int8 #0.3: elementwise add, int8, ReLU", kC1, OpType::Add,
     {{1, 32, 32, 16}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::optional<FeatureMapQuery>{{{1, 32, 32, 16}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram}},
     {{1, 32, 32, 16}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, OpType::Relu, 0, false, 0, 0, false, 27639,
     {8, 32, 16, 16}, Expected{24576, 24576, 6144, 0, 0, 0, 0}, std::nullopt},
    {"C1 tflm_mnist_lstm_int8 #0.2: elementwise add, int16, sigmoid", kC1, OpType::Add,
     {{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::optional<FeatureMapQuery>{{{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram}},
     {{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, OpType::Sigmoid, 0, false, 0, 0, false, 150,
     {1, 2, 24, 24}, Expected{48, 48, 24, 0, 0, 0, 0}, std::nullopt},
    {"C1 tflm_mnist_lstm_int8 #0.9: elementwise multiply, int16", kC1, OpType::Mul,
     {{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::optional<FeatureMapQuery>{{{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram}},
     {{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, std::nullopt, 0, false, 0, 0, false, 48,
     {1, 2, 24, 24}, Expected{24, 24, 24, 0, 0, 0, 0}, std::nullopt},
    {"C1 mlperf_tiny_ic_resnet8_int8 #0.15: elementwise subtract with a LUT loaded by DMA", kC1, OpType::Sub,
     {{1, 1, 1, 10}, DataType::Int8, TensorFormat::NHWC, MemoryArea::Sram},
     std::optional<FeatureMapQuery>{{{1, 1, 1, 1}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram}},
     {{1, 1, 1, 10}, DataType::Int32, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, OpType::LUT, 1024, false, 0, 0, false, 43,
     {1, 2, 16, 16}, Expected{1069, 1069, 10.5, 0, 0, 0, 0}, std::nullopt},
    {"C1 coral_mobilenet_v1_025_128_uint8 #0.31: shift right by a constant in flash, int32", kC1, OpType::SHR,
     {{1, 1, 1, 1001}, DataType::Int32, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::optional<FeatureMapQuery>{{{1, 1, 1, 1}, DataType::Int32, TensorFormat::NHWC, MemoryArea::OffChipFlash}},
     {{1, 1, 1, 1001}, DataType::Int32, TensorFormat::NHWC, MemoryArea::Sram},
     Operand{true, false}, Kernel{1, 1, 1, 1, 1, 1}, OpType::Clip, 0, false, 0, 0, false, 1512,
     {1, 2, 128, 128}, Expected{1004.5, 751, 1004.5, 0, 0, 64, 0}, std::nullopt},
    {"C1 coral_mobilenet_v1_025_128_uint8 #0.33: count leading zeros, int32 scalar", kC1, OpType::CLZ,
     {{1, 1, 1, 1}, DataType::Int32, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 1, 1, 1}, DataType::Int32, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, OpType::Clip, 0, false, 0, 0, false, 1377,
     {1, 2, 8, 8}, Expected{22, 22, 16, 0, 0, 0, 0}, std::nullopt},
    {"C1 mlperf_tiny_ic_resnet8_int8 #0.17: reduce sum, int32", kC1, OpType::ReduceSum,
     {{1, 1, 1, 10}, DataType::Int32, TensorFormat::NHWC, MemoryArea::Sram},
     std::nullopt,
     {{1, 1, 1, 1}, DataType::Int32, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, OpType::Clip, 0, false, 0, 0, false, 8,
     {1, 2, 16, 8}, Expected{59, 59, 13, 0, 0, 0, 10}, std::nullopt},
    {"C1 tflm_micro_speech_int8 #0.0: memory copy", kC1, OpType::Memcpy,
     {{1, 1, 1, 1960}, DataType::Int8, TensorFormat::NHWC, MemoryArea::Sram},
     std::nullopt,
     {{1, 49, 40, 1}, DataType::Int8, TensorFormat::NHWC, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, std::nullopt, 0, false, 0, 0, false, 0,
     {1, 38, 32, 8}, Expected{0, 0, 0, 0, 0, 0, 0}, std::nullopt},
    {"C3 coral_mobilenet_v1_025_128_uint8 #0.0: 3x3 convolution, stride 2, IFM in DRAM", kC3, OpType::Conv2DBias,
     {{1, 128, 64, 6}, DataType::UInt8, TensorFormat::NHWC, MemoryArea::Dram},
     std::nullopt,
     {{1, 64, 64, 8}, DataType::UInt8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{2, 3, 1, 2, 1, 1}, OpType::Relu6, 0, true, 288, 352, true, 0,
     {8, 32, 8, 8}, Expected{250675.20000000001, 74335, 4096, 250675.20000000001, 0, 0, 1179648}, std::nullopt},
    {"C3 coral_mobilenet_v1_025_128_uint8 #0.1: 3x3 depthwise", kC3, OpType::DepthwiseConv2DBias,
     {{1, 64, 64, 8}, DataType::UInt8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 64, 64, 8}, DataType::UInt8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{3, 3, 1, 1, 1, 1}, OpType::Relu6, 0, true, 72, 160, true, 74335,
     {16, 26, 8, 8}, Expected{15808, 15808, 10144, 0, 0, 0, 294912}, std::nullopt},
    {"C3 coral_deeplabv3_mnv2_dm05_pascal_uint8 #0.51: 3x3 depthwise, dilation 2", kC3, OpType::DepthwiseConv2DBias,
     {{1, 33, 33, 480}, DataType::UInt8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 33, 33, 480}, DataType::UInt8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{3, 3, 1, 1, 2, 2}, OpType::Relu6, 0, true, 4320, 8976, true, 197775,
     {2, 34, 16, 16}, Expected{205451, 205451, 133650, 0, 0, 0, 4704480},
     std::pair{npu::Shape4{1, 6, 33, 480}, npu::Shape4{1, 2, 33, 480}}},
    {"C3 mlperf_tiny_ic_resnet8_int8 #0.13: fully connected, weights read from DRAM", kC3, OpType::FullyConnected,
     {{1, 1, 1, 64}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 1, 1, 10}, DataType::Int8, TensorFormat::NHWC, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, std::nullopt, 0, true, 640, 848, false, 725,
     {2, 2, 32, 16}, Expected{323, 323, 5.25, 226.13333333333333, 0, 0, 640}, std::nullopt},
    {"C3 mlperf_tiny_ic_resnet8_int8 #0.12: 8x8 average pooling", kC3, OpType::AvgPool,
     {{1, 8, 8, 64}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 1, 1, 64}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{8, 8, 1, 1, 1, 1}, std::nullopt, 0, false, 0, 0, false, 3072,
     {2, 2, 64, 64}, Expected{725, 725, 260, 0, 0, 0, 4096}, std::nullopt},
    {"C3 mlperf_tiny_ic_resnet8_int8 #0.3: elementwise add", kC3, OpType::Add,
     {{1, 32, 32, 16}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::optional<FeatureMapQuery>{{{1, 32, 32, 16}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram}},
     {{1, 32, 32, 16}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, OpType::Relu, 0, false, 0, 0, false, 14719,
     {16, 32, 16, 16}, Expected{12288, 12288, 3072, 0, 0, 0, 0}, std::nullopt},
    {"C3 tflm_mnist_lstm_int8 #0.9: elementwise multiply, int16", kC3, OpType::Mul,
     {{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::optional<FeatureMapQuery>{{{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram}},
     {{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, std::nullopt, 0, false, 0, 0, false, 32,
     {2, 2, 24, 24}, Expected{12, 12, 12, 0, 0, 0, 0}, std::nullopt},
    {"C4 mlperf_tiny_ic_resnet8_int8 #0.12: 8x8 average pooling", kC4, OpType::AvgPool,
     {{1, 8, 8, 64}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::nullopt,
     {{1, 1, 1, 64}, DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{8, 8, 1, 1, 1, 1}, std::nullopt, 0, false, 0, 0, false, 12288,
     {0, 0, 0, 0}, Expected{804, 804, 528, 0, 0, 0, 4096}, std::nullopt},
    {"C4 coral_deeplabv3_mnv2_dm05_pascal_uint8 #1.2: max pooling, int16 (part of an ArgMax)", kC4, OpType::MaxPool,
     {{1, 65151, 21, 1}, DataType::Int16, TensorFormat::NHWC, MemoryArea::Sram},
     std::nullopt,
     {{1, 65151, 1, 1}, DataType::Int16, TensorFormat::NHWC, MemoryArea::Sram},
     Operand{false, false}, Kernel{21, 1, 1, 1, 1, 1}, OpType::LUT, 2048, false, 0, 0, false, 2736905,
     {0, 0, 0, 0}, Expected{2736905, 2736905, 814495.5, 0, 0, 0, 1368171}, std::nullopt},
    {"C4 coral_mobilenet_v1_025_128_uint8 #0.39: elementwise add", kC4, OpType::Add,
     {{1, 1, 1, 1}, DataType::Int32, TensorFormat::NHWC, MemoryArea::Sram},
     std::optional<FeatureMapQuery>{{{1, 1, 1, 1}, DataType::Int32, TensorFormat::NHWC, MemoryArea::OffChipFlash}},
     {{1, 1, 1, 1}, DataType::Int32, TensorFormat::NHWC, MemoryArea::Sram},
     Operand{true, false}, Kernel{1, 1, 1, 1, 1, 1}, OpType::Clip, 0, false, 0, 0, false, 3,
     {0, 0, 0, 0}, Expected{32, 3, 1, 0, 0, 32, 0}, std::nullopt},
    {"C4 tflm_mnist_lstm_int8 #0.9: elementwise multiply, int16", kC4, OpType::Mul,
     {{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram},
     std::optional<FeatureMapQuery>{{{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram}},
     {{1, 1, 1, 20}, DataType::Int16, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, std::nullopt, 0, false, 0, 0, false, 96,
     {0, 0, 0, 0}, Expected{48, 48, 24, 0, 0, 0, 0}, std::nullopt},
    {"C4 coral_mobilenet_v1_025_128_uint8 #0.32: reduce sum, int32", kC4, OpType::ReduceSum,
     {{1, 1, 1, 1001}, DataType::Int32, TensorFormat::NHWC, MemoryArea::Sram},
     std::nullopt,
     {{1, 1, 1, 1}, DataType::Int32, TensorFormat::NHCWB16, MemoryArea::Sram},
     Operand{false, false}, Kernel{1, 1, 1, 1, 1, 1}, OpType::Clip, 0, false, 0, 0, false, 1001,
     {0, 0, 0, 0}, Expected{1377, 1377, 508.5, 0, 0, 0, 1001}, std::nullopt},
  };
  return layers;
}
// clang-format on

/// The accelerator of a reference system. All three are built on first use (a thread-safe static), so
/// concurrent tests only read.
inline const Accelerator& acceleratorFor(const ReferenceSystem& system) {
  static const auto accelerators = [] {
    std::map<std::string, std::unique_ptr<Accelerator>, std::less<>> built;
    for (const auto& reference : {kC1, kC3, kC4}) {
      npu::AcceleratorConfig config;
      config.variant = reference.variant;
      config.system = reference.system;
      config.memoryMode = reference.memoryMode;
      config.configSearchPath = {npu::test::sourceDir() / "configs"};
      built.emplace(reference.name, makeAccelerator(config));
    }
    return built;
  }();
  return *accelerators.find(system.name)->second;
}

/// A one-operation subgraph holding the layer, with constant weights, biases and LUT where it has them.
struct LayerGraph {
  npu::Subgraph subgraph;
  [[nodiscard]] const npu::Operation& op() const { return subgraph.operations.front(); }
};

inline npu::Tensor featureMapTensor(const std::string& name, const npu::FeatureMapQuery& query) {
  npu::Tensor tensor;
  tensor.name = name;
  tensor.shape = npu::Shape{query.shape.batch, query.shape.height, query.shape.width, query.shape.depth};
  tensor.type = query.type;
  tensor.format = query.format;
  tensor.purpose = npu::TensorPurpose::FeatureMap;
  tensor.quantisation.scale = {1.0};
  tensor.quantisation.zeroPoint = {0};
  return tensor;
}

inline npu::Tensor constantTensor(const std::string& name, npu::Shape shape, npu::DataType type,
                                  npu::TensorPurpose purpose) {
  npu::Tensor tensor;
  tensor.name = name;
  tensor.shape = std::move(shape);
  tensor.type = type;
  tensor.purpose = purpose;
  tensor.data = std::make_shared<const std::vector<std::uint8_t>>(
      static_cast<std::size_t>(std::max<std::int64_t>(tensor.byteSize(), 1)), std::uint8_t{0});
  return tensor;
}

inline LayerGraph buildLayer(const ReferenceLayer& layer) {
  LayerGraph graph;
  npu::Subgraph& subgraph = graph.subgraph;
  npu::Operation op;
  op.type = layer.type;
  op.name = layer.source;
  op.kernel = layer.kernel;
  const npu::TensorId ifm = subgraph.addTensor(featureMapTensor("ifm", layer.ifm));
  op.inputs.push_back(ifm);
  if (layer.ifm2) {
    npu::Tensor ifm2 = featureMapTensor("ifm2", *layer.ifm2);
    if (layer.ifm2Operand.scalar) {
      ifm2.shape = npu::Shape{};
    }
    if (layer.ifm2Operand.constant) {
      ifm2.data =
          std::make_shared<const std::vector<std::uint8_t>>(static_cast<std::size_t>(ifm2.byteSize()), std::uint8_t{0});
    }
    op.inputs.push_back(subgraph.addTensor(ifm2));
  }
  if (layer.weightElements > 0) {
    op.inputs.push_back(subgraph.addTensor(constantTensor("weights", npu::Shape{static_cast<int>(layer.weightElements)},
                                                          npu::DataType::Int8, npu::TensorPurpose::Weights)));
  }
  if (layer.hasBias) {
    op.inputs.push_back(subgraph.addTensor(constantTensor("bias", npu::Shape{layer.ofm.shape.depth},
                                                          npu::DataType::Int32, npu::TensorPurpose::ScalesBiases)));
  }
  op.outputs.push_back(subgraph.addTensor(featureMapTensor("ofm", layer.ofm)));
  if (layer.activation) {
    npu::Activation activation;
    activation.type = *layer.activation;
    if (layer.lutBytes > 0) {
      activation.lut = subgraph.addTensor(
          constantTensor("lut", npu::Shape{layer.lutBytes / 4}, npu::DataType::Int32, npu::TensorPurpose::Lut));
    }
    op.activation = activation;
  }
  subgraph.addOperation(std::move(op));
  return graph;
}

/// The framework query of the layer with a given block config.
inline npu::CostQuery costQueryOf(const ReferenceLayer& layer, const npu::MemorySystem& memory,
                                  const npu::BlockConfig& block) {
  npu::CostQuery query;
  query.ifm = layer.ifm;
  query.ifm2 = layer.ifm2;
  query.ofm = layer.ofm;
  query.hasScalesBiases = layer.hasBias;
  query.constantArea = layer.weightsBuffered ? memory.fastStorageArea : memory.constantArea;
  query.block = &block;
  return query;
}

/// The performance context of the final estimate: weights buffered or read in place, the LUT loaded
/// into SHRAM by DMA, the previous layer's slack.
inline npu::PerformanceContext contextOf(const ReferenceLayer& layer, const npu::Accelerator& accelerator,
                                         const npu::BlockConfig& block) {
  const npu::MemorySystem& memory = accelerator.memory();
  npu::PerformanceContext context;
  context.query = costQueryOf(layer, memory, block);
  context.previousSlackCycles = layer.previousSlack;
  if (layer.encodedWeights > 0) {
    context.weights.present = true;
    context.weights.encodedBytes = layer.encodedWeights;
    context.weights.sourceArea = memory.constantArea;
    if (layer.weightsBuffered) {
      context.weights.bufferArea = memory.fastStorageArea;
      context.weights.firstTransferBytes = layer.encodedWeights;
      if (!layer.cascadeStripes) {
        context.weights.fullTransferCycles =
            accelerator.costModel().transferCycles(memory.constantArea, memory.fastStorageArea, layer.encodedWeights);
      }
    }
  }
  if (layer.lutBytes > 0) {
    context.lutTransfer =
        npu::ConstantTransfer{memory.constantArea, npu::MemoryArea::Shram, layer.lutBytes, npu::TensorPurpose::Lut};
  }
  return context;
}

} // namespace ethosu::test
