#include "lut_tables.hpp"

#include "ethosu_lowering/rewrite_support.hpp"

#include <algorithm>
#include <cmath>

namespace ethosu::lowering {

using namespace npu;

TensorId addLutTable(Subgraph& subgraph, const std::string& name, const LutTable& table) {
  const auto size = static_cast<int>(table.values.size());
  return addConstant(subgraph, name, Shape{1, 1, 1, size}, table.type, table.values, {}, TensorPurpose::Lut);
}

LutTable lut8(const std::function<double(double)>& fn, const Quantisation& ifm, const Quantisation& ofm, DataType type) {
  const int first = type == DataType::UInt8 ? 0 : -128;
  const std::int64_t low = quantisedMin(type);
  const std::int64_t high = quantisedMax(type);
  LutTable table{{}, type};
  for (int x = first; x < first + 256; ++x) {
    const double real = ifm.scaleAt(0) * static_cast<double>(x - ifm.zeroPointAt(0));
    // Vela convert_to_lut8: round away from zero, then clamp to the type's range.
    const double quantised = static_cast<double>(ofm.zeroPointAt(0)) + fn(real) / ofm.scaleAt(0);
    const auto rounded = static_cast<std::int64_t>(std::round(quantised));
    table.values.push_back(std::clamp(rounded, low, high));
  }
  return table;
}

namespace {
/// Packs 512 samples of a 16-bit function as Vela's interpolation table: slope in the top 16 bits,
/// base in the bottom 16 bits of each uint32 entry.
LutTable interpolationTable(const std::function<double(int)>& sample) {
  LutTable table{{}, DataType::UInt32};
  for (int i = 0; i < 512; ++i) {
    const auto base = static_cast<std::int64_t>(std::clamp(std::round(sample(i)), -32768.0, 32767.0));
    const auto next = static_cast<std::int64_t>(std::clamp(std::round(sample(i + 1)), -32768.0, 32767.0));
    const std::int64_t slope = next - base;
    table.values.push_back(((slope & 0xFFFF) << 16) | (base & 0xFFFF));
  }
  return table;
}
} // namespace

LutTable lut16(const std::function<double(double)>& fn, const Quantisation& ifm, const Quantisation& ofm) {
  const double inputMin = ifm.scaleAt(0) * static_cast<double>(-32768 - ifm.zeroPointAt(0));
  const double inputMax = ifm.scaleAt(0) * static_cast<double>(32767 - ifm.zeroPointAt(0));
  const double step = (inputMax - inputMin) / 512.0;
  return interpolationTable([&](int i) {
    return static_cast<double>(ofm.zeroPointAt(0)) + fn(inputMin + step * i) / ofm.scaleAt(0);
  });
}

LutTable softmaxExpTable(double beta, double inputScale) {
  // Vela SoftMax.generate_exp_table: exp(beta * scale * (x - 255)) in Q0.31 for the 256 differences.
  LutTable table{{}, DataType::UInt32};
  for (int x = 0; x < 256; ++x) {
    const double value = std::exp(beta * inputScale * static_cast<double>(x - 255));
    table.values.push_back(static_cast<std::int64_t>(std::llround(value * 2147483647.0)));
  }
  return table;
}

LutTable softmaxInt16ExpTable() {
  // exp(x) for x in [-10, 0] (Vela: mul2_out_range = 10 / 65535) scaled to int16.
  return interpolationTable([](int i) { return std::exp(-10.0 + 10.0 * i / 512.0) * 32767.0 - 32768.0 * 0.0; });
}

LutTable softmaxInt16ReciprocalTable() {
  // 1 / (1 + x) for x in [0, 1) scaled to int16.
  return interpolationTable([](int i) { return 32767.0 / (1.0 + i / 512.0); });
}

} // namespace ethosu::lowering
