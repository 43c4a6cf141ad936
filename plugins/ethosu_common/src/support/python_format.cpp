// SPDX-License-Identifier: Apache-2.0
#include "python_format.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace ethosu::support {

namespace {

template <typename Number> std::string joinedList(std::span<const Number> values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) {
      text += ", ";
    }
    text += std::to_string(values[i]);
  }
  return text + "]";
}

/// Lays out the shortest round-trip digits of a value the way Python's repr does (and numpy's str of a
/// float scalar): positional between 1e-4 and 1e16, else "d.ddde+XX".
template <typename Float> std::string shortestRepr(Float value) {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value < 0 ? "-inf" : "inf";
  }
  std::array<char, 64> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::scientific);
  const std::string scientific(buffer.data(), result.ptr);
  const std::size_t exponentAt = scientific.find('e');
  const bool negative = scientific.front() == '-';
  std::string digits;
  for (std::size_t i = negative ? 1 : 0; i < exponentAt; ++i) {
    if (scientific[i] != '.') {
      digits += scientific[i];
    }
  }
  const int exponent = std::atoi(scientific.c_str() + exponentAt + 1);
  const std::string sign = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    std::string mantissa = digits.substr(0, 1);
    if (digits.size() > 1) {
      mantissa += "." + digits.substr(1);
    }
    const std::string exponentDigits = std::to_string(std::abs(exponent));
    return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (exponentDigits.size() < 2 ? "0" : "") + exponentDigits;
  }
  const int pointPosition = exponent + 1; // digits before the decimal point
  std::string integerPart;
  std::string fractionPart;
  if (pointPosition <= 0) {
    integerPart = "0";
    fractionPart = std::string(static_cast<std::size_t>(-pointPosition), '0') + digits;
  } else if (static_cast<std::size_t>(pointPosition) >= digits.size()) {
    integerPart = digits + std::string(static_cast<std::size_t>(pointPosition) - digits.size(), '0');
  } else {
    integerPart = digits.substr(0, static_cast<std::size_t>(pointPosition));
    fractionPart = digits.substr(static_cast<std::size_t>(pointPosition));
  }
  return sign + integerPart + "." + (fractionPart.empty() ? "0" : fractionPart);
}

std::string numpyRow(std::span<const std::int64_t> values, std::size_t width) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) {
      text += ' ';
    }
    const std::string number = std::to_string(values[i]);
    text += std::string(width - std::min(width, number.size()), ' ') + number;
  }
  return text + "]";
}

} // namespace

std::string pythonList(std::span<const int> values) { return joinedList(values); }
std::string pythonList(std::span<const std::int64_t> values) { return joinedList(values); }
std::string pythonList(const npu::Shape& shape) { return joinedList(shape.dims()); }

std::string numpyArray(std::span<const std::int64_t> values, const npu::Shape& shape) {
  if (shape.rank() == 0 && values.size() == 1) {
    return std::to_string(values.front());
  }
  std::size_t width = 0;
  for (const std::int64_t value : values) {
    width = std::max(width, std::to_string(value).size());
  }
  if (shape.rank() == 2 && shape[1] > 0 && values.size() == static_cast<std::size_t>(shape.elements())) {
    const auto columns = static_cast<std::size_t>(shape[1]);
    std::string text = "[";
    for (std::size_t row = 0; row * columns < values.size(); ++row) {
      if (row > 0) {
        text += "\n ";
      }
      text += numpyRow(values.subspan(row * columns, columns), width);
    }
    return text + "]";
  }
  return numpyRow(values, width);
}

std::string numpyArrayOrNone(const std::optional<std::vector<std::int64_t>>& values, const npu::Shape& shape) {
  return values ? numpyArray(*values, shape) : "None";
}

std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      text += separator;
    }
    text += parts[i];
  }
  return text;
}

std::string pythonBool(bool value) { return value ? "True" : "False"; }

std::string pythonFloat(double value) { return shortestRepr(value); }

std::string numpyFloat32(std::span<const double> values) {
  if (values.size() == 1) {
    return shortestRepr(static_cast<float>(values.front()));
  }
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += (i > 0 ? " " : "") + shortestRepr(static_cast<float>(values[i]));
  }
  return text + "]";
}

} // namespace ethosu::support
