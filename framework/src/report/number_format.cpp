// SPDX-License-Identifier: Apache-2.0
#include "number_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <sstream>

namespace npu::detail {

std::string pythonFloat(double value) {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  if (value == 0.0) {
    return std::signbit(value) ? "-0.0" : "0.0";
  }
  // Shortest round-trip digits, then laid out the way repr() does: positional for exponents in
  // [-4, 16), scientific otherwise.
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific).ptr;
  const std::string scientific(buffer, end);
  const auto ePos = scientific.find('e');
  std::string mantissa = scientific.substr(0, ePos);
  const int exponent = std::atoi(scientific.c_str() + ePos + 1);
  const bool negative = mantissa.front() == '-';
  if (negative) {
    mantissa.erase(0, 1);
  }
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') {
      digits += c;
    }
  }
  std::string text;
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      text = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    } else if (static_cast<int>(digits.size()) <= exponent + 1) {
      text = digits + std::string(static_cast<std::size_t>(exponent + 1) - digits.size(), '0') + ".0";
    } else {
      text = digits.substr(0, static_cast<std::size_t>(exponent + 1)) + "." +
             digits.substr(static_cast<std::size_t>(exponent + 1));
    }
  } else {
    text = digits.substr(0, 1);
    if (digits.size() > 1) {
      text += "." + digits.substr(1);
    }
    const int magnitude = std::abs(exponent);
    text += std::string(exponent < 0 ? "e-" : "e+") + (magnitude < 10 ? "0" : "") + std::to_string(magnitude);
  }
  return negative ? "-" + text : text;
}

double percentage(double part, double whole) {
  return whole == 0.0 ? 100.0 : part / whole * 100.0;
}

std::string fixed(double value, int decimals) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << value;
  return out.str();
}

std::string signedPercent(double a, double b) {
  if (a == 0.0) {
    return b == 0.0 ? "0.0%" : "n/a";
  }
  const double delta = (b - a) / a * 100.0;
  return (delta > 0 ? "+" : "") + fixed(delta, 1) + "%";
}

} // namespace npu::detail
