// SPDX-License-Identifier: Apache-2.0
#pragma once

// Number parsing with the rules of Python's float() and int(), which Vela applies to .ini values, and
// the range every numeric setting of a system config or memory mode must lie in. Both the YAML and the
// .ini readers check the ranges where a value is written, so a zero clock or a negative latency is
// refused at load instead of making the scheduler loop or report infinite cycles.

#include "npu/core/diagnostics.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace ethosu {

/// "500e6", " 1.0 ", "0.125"; nullopt for anything else (including infinities and NaN).
[[nodiscard]] std::optional<double> parsePythonFloat(std::string_view text);
/// "32", "+32", " 64 "; nullopt for fractions or out-of-range values.
[[nodiscard]] std::optional<std::int64_t> parsePythonInt64(std::string_view text);
[[nodiscard]] std::optional<int> parsePythonInt(std::string_view text);

/// The accepted values of one setting, bounds included. Vela's own configs lie well inside: clocks of
/// 200 MHz to 1 GHz, clock scales of 0.0625 to 1, bursts of 32 and 128 bytes, latencies up to 500 cycles.
struct SettingRange {
  double minimum;
  double maximum;
  std::string_view unit; ///< "Hz", "bytes", "cycles" or empty
};
inline constexpr SettingRange kCoreClockRange{1e6, 1e10, "Hz"};
inline constexpr SettingRange kClockScaleRange{0.001, 100.0, ""};
inline constexpr SettingRange kBurstLengthRange{1, 4096, "bytes"};
inline constexpr SettingRange kLatencyRange{0, 100'000, "cycles"};
/// The widest NPU address space (Ethos-U65's 40 bits); each variant's own bound is checked when the
/// memory system is built.
inline constexpr SettingRange kArenaCacheSizeRange{0, 1099511627776.0, "bytes"};

/// Throws a Config error at `where` when `value` lies outside `range`.
void checkRange(const SettingRange& range, double value, std::string_view key, const npu::SourceLocation& where);

} // namespace ethosu
