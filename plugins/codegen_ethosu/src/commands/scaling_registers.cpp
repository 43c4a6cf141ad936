// SPDX-License-Identifier: Apache-2.0
#include "commands/scaling_registers.hpp"

#include "npu/core/diagnostics.hpp"

#include <cfenv>
#include <cmath>
#include <limits>

namespace ethosu::codegen {

namespace {

std::optional<double> scaleOf(const std::optional<Quantisation>& quantisation) {
  return quantisation ? quantisation->scale : std::nullopt;
}

/// Python's len(bin(math.ceil(value))) - 2 for a non-negative value. A quotient of two scales can be far
/// beyond 64 bits (the IFM/OFM ratio is only checked to be finite in float32), so the bit length is read
/// off the double's exponent rather than from an integer.
int bitLengthOfCeiling(double value) {
  const double ceiling = std::ceil(value);
  if (!std::isfinite(ceiling)) {
    npu::throwCompileError("a pooling rescale factor is not finite: the IFM and OFM scales cannot be encoded");
  }
  if (ceiling < 2) {
    return 1; // bin(0) and bin(1) have one digit
  }
  int exponent = 0;
  std::frexp(ceiling, &exponent); // 2^(exponent - 1) <= ceiling < 2^exponent
  return exponent;
}

/// The 32-bit OFM_SCALE value of a rescaled scale; beyond 32 bits the register cannot hold it (and beyond
/// 64 bits no integer can), which a model's extreme IFM/OFM scale ratio can ask for.
/// Rounded away from zero, or truncated where Vela converts with int() (`truncate`).
std::int64_t scaleRegisterValue(double scale, double rescale, bool truncate = false) {
  const double rounded = truncate ? std::trunc(scale) : roundAwayFromZero(scale);
  constexpr double kLimit = 4294967296.0; // 2^32
  if (!(std::abs(rounded) < kLimit)) {
    npu::throwCompileError("a pooling's rescale factor " + std::to_string(rescale) + " gives the OFM scale " +
                           std::to_string(rounded) + ", which the 32-bit OFM_SCALE register cannot hold");
  }
  return static_cast<std::int64_t>(rounded);
}

FixedPointScale rescaledAverage(const NpuKernel& kernel, double rescale, int rescaleBits) {
  FixedPointScale scale = quantisePoolingScale(std::int64_t{kernel.height} * kernel.width, rescaleBits);
  scale.scale = scaleRegisterValue(static_cast<double>(scale.scale) * rescale, rescale);
  return scale;
}

/// Pooling with a fused sigmoid or tanh: the OFM scale is 1 / 0x3000 (the LUT's input range).
FixedPointScale activationScale(const BlockOperation& op, double ifmScale) {
  double rescale = 0x3000 * ifmScale;
  if (op.ifm.type != NpuDataType::Int16) {
    const int rescaleBits = bitLengthOfCeiling(rescale) + 1;
    return rescaledAverage(op.kernel.value_or(NpuKernel{}), rescale, rescaleBits);
  }
  const double log2 = std::log2(ifmScale);
  const auto rounded = static_cast<int>(std::nearbyint(log2)); // Python's round(): halves to even
  const bool powerOfTwo = std::abs(log2 - rounded) < 0.001;
  const int shift = rounded + 12;
  const bool tanh = op.activation->function == ActivationFunction::Tanh;
  if (powerOfTwo && ((tanh && (shift == 0 || shift == 1)) || (!tanh && shift == 0))) {
    return {std::int64_t{3} << shift, 0}; // input scale 1/2048 (tanh, sigmoid) or 1/4096 (tanh)
  }
  int shifted = 0;
  const double maxRescale = std::numeric_limits<std::int16_t>::max() / 2.0;
  while (rescale <= maxRescale && shifted <= 30) {
    ++shifted;
    rescale *= 2;
  }
  return {scaleRegisterValue(rescale, rescale, true), shifted}; // int(): truncated, not rounded
}

} // namespace

// Vela: generate_ofm_scaling_for_pooling.
void emitPoolingScale(CommandEmitter& emitter, const BlockOperation& op) {
  const NpuKernel kernel = op.kernel.value_or(NpuKernel{});
  const auto ifmScale = scaleOf(op.ifm.quantisation);
  const auto ofmScale = scaleOf(op.ofm.quantisation);
  FixedPointScale scale{1, 0};
  const bool sigmoidOrTanh = op.activation && (op.activation->function == ActivationFunction::Sigmoid ||
                                               op.activation->function == ActivationFunction::Tanh);
  if (sigmoidOrTanh) {
    if (!ifmScale) {
      npu::throwCompileError("a pooling with a fused sigmoid or tanh needs a quantised IFM");
    }
    scale = activationScale(op, *ifmScale);
  } else if (op.fusedQuantize) {
    scale = quantiseScale(ifmScale.value_or(1.0) / ofmScale.value_or(1.0));
  } else if (const auto* explicitScaling = std::get_if<ExplicitScaling>(&op.rescale)) {
    if (explicitScaling->perChannel || explicitScaling->multiplier.empty() || explicitScaling->shift.empty()) {
      npu::throwInternalError("per-channel explicit scaling on a pooling with a global scale");
    }
    scale = {explicitScaling->multiplier.front(), static_cast<int>(explicitScaling->shift.front())};
  } else if (const auto* factor = std::get_if<double>(&op.rescale)) {
    scale = rescaledAverage(kernel, *factor, bitLengthOfCeiling(*factor) + 1);
  } else if (ifmScale && ofmScale) {
    // A pooling fused with a memory operation may also rescale: keep the bits it needs.
    const double rescale = *ifmScale / *ofmScale;
    int rescaleBits = 0;
    if (kernel.height == 1 && kernel.width == 1) {
      if (rescale > 1) {
        rescaleBits = bitLengthOfCeiling(rescale) + 1;
      } else if (rescale < 1) {
        rescaleBits = -(bitLengthOfCeiling(1 / rescale) - 1);
      }
    }
    scale = rescaledAverage(kernel, rescale, rescaleBits);
  }
  emitter.setPayload(Cmd1::OfmScale, scale.scale, scale.shift);
}

// Vela: generate_scaling_for_elementwise.
int emitElementwiseScale(CommandEmitter& emitter, const BlockOperation& op) {
  int operandToScale = 0;
  FixedPointScale output{1, 0};
  const ElementwiseFunction function = op.elementwise;
  if (function == ElementwiseFunction::Add || function == ElementwiseFunction::Sub ||
      function == ElementwiseFunction::Mul) {
    const auto inputScale = scaleOf(op.ifm.quantisation);
    const auto input2Scale = op.ifm2 ? scaleOf(op.ifm2->quantisation) : std::nullopt;
    auto outputScale = scaleOf(op.ofm.quantisation);
    const bool fixedOutputScale = op.activation && (op.activation->function == ActivationFunction::Sigmoid ||
                                                    op.activation->function == ActivationFunction::Tanh);
    if (fixedOutputScale) {
      outputScale = 1.0 / 0x3000;
    }
    const auto* explicitScale = std::get_if<ScaleShift>(&op.rescale);
    const bool unscaled = !inputScale || !input2Scale || !outputScale;
    if (function == ElementwiseFunction::Mul) {
      if (explicitScale != nullptr) {
        output = {explicitScale->scale, static_cast<int>(explicitScale->shift)};
      } else if (!unscaled) {
        // Vela multiplies the scales as numpy float32 scalars (a tensor's scale is read as float32), so the
        // product and the quotient round to single precision; only the fixed Sigmoid/Tanh OFM scale is a
        // Python float, which makes the quotient double (scaling.elementwise_mul_scale).
        // Scales Vela computed itself (e.g. an int16 SOFTMAX's intermediate tensors) are Python floats, which
        // single precision cannot hold exactly: with one of those the arithmetic is double.
        const auto single = [](double scale) { return static_cast<double>(static_cast<float>(scale)) == scale; };
        if (single(*inputScale) && single(*input2Scale)) {
          const float product = static_cast<float>(*inputScale) * static_cast<float>(*input2Scale);
          const double rescale = fixedOutputScale || !single(*outputScale)
                                     ? static_cast<double>(product) / *outputScale
                                     : static_cast<double>(product / static_cast<float>(*outputScale));
          output = quantiseScale(rescale);
        } else {
          output = quantiseScale((*inputScale * *input2Scale) / *outputScale);
        }
      }
    } else {
      double operandA = 1;
      double operandB = 1;
      int shiftA = 0;
      bool advanced = false;
      if (explicitScale != nullptr) {
        output = {explicitScale->scale, static_cast<int>(explicitScale->shift)};
      } else if (unscaled) {
        output = {1, 0};
      } else if (*inputScale == *input2Scale) {
        const SimplifiedAddSubScale simplified = simplifiedAddSubScale(*inputScale, *input2Scale, *outputScale);
        operandA = simplified.operandA;
        operandB = simplified.operandB;
        output = simplified.output;
        if (bitsOf(op.ifm.type) == 16) {
          // Aligns the double rounding with advanced scaling's.
          operandA = std::floor(operandA / 2);
          operandB = std::floor(operandB / 2);
          output.shift -= 1;
        } else {
          // Simplified scaling rounds twice; only safe when the OFM scale's low bits are zero.
          advanced = (output.scale & 0xFFF) != 0;
        }
      } else {
        advanced = true;
      }
      if (advanced) {
        const AdvancedAddSubScale scale =
            advancedAddSubScale(*inputScale, *input2Scale, *outputScale, bitsOf(op.ifm.type));
        operandA = static_cast<double>(scale.operand.scale);
        shiftA = scale.operand.shift;
        output = scale.output;
        operandB = 0;
        operandToScale = scale.operandToScale;
        if (op.reversedOperands) {
          operandToScale = operandToScale == 1 ? 2 : 1;
        }
      }
      emitter.setPayload(Cmd1::OpaScale, static_cast<std::int64_t>(operandA), shiftA);
      emitter.setPayload(Cmd1::OpbScale, static_cast<std::int64_t>(operandB));
    }
  } else if (function == ElementwiseFunction::LeakyRelu || function == ElementwiseFunction::Abs) {
    output = quantiseScale(scaleOf(op.ofm.quantisation).value_or(1.0));
  }
  emitter.setPayload(Cmd1::OfmScale, output.scale, output.shift);
  return operandToScale;
}

int poolingMode(PoolingFunction function) {
  switch (function) {
  case PoolingFunction::Max:
    return 0;
  case PoolingFunction::Average:
    return 1;
  case PoolingFunction::ReduceSum:
    return 2;
  }
  return 0;
}

int elementwiseMode(ElementwiseFunction function) {
  switch (function) {
  case ElementwiseFunction::Mul:
    return 0;
  case ElementwiseFunction::Add:
    return 1;
  case ElementwiseFunction::Sub:
    return 2;
  case ElementwiseFunction::Min:
    return 3;
  case ElementwiseFunction::Max:
    return 4;
  case ElementwiseFunction::LeakyRelu:
    return 5;
  case ElementwiseFunction::Abs:
    return 6;
  case ElementwiseFunction::Clz:
    return 7;
  case ElementwiseFunction::Shr:
    return 8;
  case ElementwiseFunction::Shl:
    return 9;
  }
  return 0;
}

} // namespace ethosu::codegen
