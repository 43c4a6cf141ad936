// SPDX-License-Identifier: Apache-2.0
#pragma once

// Values printed the way Vela (Python and numpy) prints them in its constraint messages, so that our
// reasons read exactly like Vela's log lines: lists as "[1, 2, 3]", numpy arrays as "[0 4]", booleans
// as "True", floats as Python's repr.

#include "npu/core/shape.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ethosu::support {

/// Python list: "[1, 33, 33, 21]", "[]".
[[nodiscard]] std::string pythonList(std::span<const int> values);
[[nodiscard]] std::string pythonList(std::span<const std::int64_t> values);
[[nodiscard]] std::string pythonList(const npu::Shape& shape);

/// numpy's str() of an integer array of the given shape: "3" (0-d), "[-1  2]" (1-d, columns padded to
/// the widest value), "[[0 0]\n [0 4]]" (2-d). Falls back to 1-d for other ranks.
[[nodiscard]] std::string numpyArray(std::span<const std::int64_t> values, const npu::Shape& shape);
/// numpyArray of constant values, or "None" when the tensor has none.
[[nodiscard]] std::string numpyArrayOrNone(const std::optional<std::vector<std::int64_t>>& values,
                                           const npu::Shape& shape);

/// Python's separator.join(parts).
[[nodiscard]] std::string joined(const std::vector<std::string>& parts, std::string_view separator = ", ");

[[nodiscard]] std::string pythonBool(bool value);
/// Python's repr of a float: "1.0", "-0.5", "1e-05", "inf".
[[nodiscard]] std::string pythonFloat(double value);
/// numpy's str() of a float32 value or array of them: "0.5", "[0.5 0.25]".
[[nodiscard]] std::string numpyFloat32(std::span<const double> values);

} // namespace ethosu::support
