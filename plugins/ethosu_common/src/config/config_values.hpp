#pragma once

// Number parsing with the rules of Python's float() and int(), which Vela applies to .ini values.

#include <cstdint>
#include <optional>
#include <string_view>

namespace ethosu {

/// "500e6", " 1.0 ", "0.125"; nullopt for anything else (including infinities and NaN).
[[nodiscard]] std::optional<double> parsePythonFloat(std::string_view text);
/// "32", "+32", " 64 "; nullopt for fractions or out-of-range values.
[[nodiscard]] std::optional<std::int64_t> parsePythonInt64(std::string_view text);
[[nodiscard]] std::optional<int> parsePythonInt(std::string_view text);

} // namespace ethosu
