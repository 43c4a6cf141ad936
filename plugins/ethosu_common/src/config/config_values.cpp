// SPDX-License-Identifier: Apache-2.0
#include "config_values.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>

namespace ethosu {

namespace {

std::string_view strip(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

} // namespace

std::optional<double> parsePythonFloat(std::string_view text) {
  text = strip(text);
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
  }
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::int64_t> parsePythonInt64(std::string_view text) {
  text = strip(text);
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
  }
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::optional<int> parsePythonInt(std::string_view text) {
  const auto value = parsePythonInt64(text);
  if (!value || *value < std::numeric_limits<int>::min() || *value > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return static_cast<int>(*value);
}

namespace {

std::string formatSetting(double value) {
  std::ostringstream out;
  out << std::setprecision(12) << value;
  return out.str();
}

} // namespace

void checkRange(const SettingRange& range, double value, std::string_view key, const npu::SourceLocation& where) {
  if (value >= range.minimum && value <= range.maximum) {
    return;
  }
  const std::string unit = range.unit.empty() ? std::string() : " " + std::string(range.unit);
  npu::throwConfigError(std::string(key) + " " + formatSetting(value) + unit + " is out of range", where,
                        std::string(key) + " must lie from " + formatSetting(range.minimum) + " to " +
                            formatSetting(range.maximum) + unit);
}

} // namespace ethosu
