// SPDX-License-Identifier: Apache-2.0
#include "npu/plugin/options.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

namespace npu {

std::string_view nameOf(OptionType type) {
  static constexpr std::array<std::string_view, 6> kNames{"boolean", "integer", "number", "string", "bytes", "choice"};
  return kNames.at(static_cast<std::size_t>(type));
}

namespace {
std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

std::optional<std::int64_t> parseInteger(std::string_view text) {
  text = trim(text);
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

std::optional<double> parseNumber(std::string_view text) {
  text = trim(text);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || text.empty() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<bool> parseBoolean(std::string_view text) {
  text = trim(text);
  if (text == "true" || text == "True" || text == "yes" || text == "on") {
    return true;
  }
  if (text == "false" || text == "False" || text == "no" || text == "off") {
    return false;
  }
  return std::nullopt;
}

std::string joinChoices(const std::vector<std::string>& choices) {
  std::string text;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    text += (i == 0 ? "" : ", ") + choices[i];
  }
  return text;
}
} // namespace

std::optional<std::int64_t> parseByteSize(std::string_view text) {
  text = trim(text);
  struct Unit {
    std::string_view suffix;
    std::int64_t factor;
  };
  static constexpr std::array kUnits{Unit{"KiB", 1024}, Unit{"MiB", 1024 * 1024}, Unit{"GiB", 1024 * 1024 * 1024},
                                     Unit{"KB", 1000},  Unit{"MB", 1000 * 1000},  Unit{"GB", 1000 * 1000 * 1000},
                                     Unit{"B", 1}};
  std::int64_t factor = 1;
  for (const auto& unit : kUnits) {
    if (text.size() > unit.suffix.size() && text.ends_with(unit.suffix)) {
      factor = unit.factor;
      text.remove_suffix(unit.suffix.size());
      break;
    }
  }
  const auto value = parseInteger(text);
  if (!value || *value < 0 || *value > std::numeric_limits<std::int64_t>::max() / factor) {
    return std::nullopt;
  }
  return *value * factor;
}

OptionValue parseOptionValue(const OptionSpec& spec, std::string_view text, const SourceLocation& where) {
  const auto fail = [&](const std::string& expected) -> OptionValue {
    throwConfigError("option '" + spec.name + "' expects " + expected + ", got '" + std::string(text) + "'", where,
                     spec.description.empty() ? std::string{} : spec.name + ": " + spec.description);
  };
  switch (spec.type) {
  case OptionType::Boolean:
    if (auto value = parseBoolean(text)) {
      return *value;
    }
    return fail("true or false");
  case OptionType::Integer:
    if (auto value = parseInteger(text)) {
      return *value;
    }
    return fail("a whole number");
  case OptionType::Number:
    if (auto value = parseNumber(text)) {
      return *value;
    }
    return fail("a number");
  case OptionType::Bytes:
    if (auto value = parseByteSize(text)) {
      return *value;
    }
    return fail("a size in bytes (e.g. 524288, 512KiB, 1MiB)");
  case OptionType::Choice:
    for (const auto& choice : spec.choices) {
      if (choice == trim(text)) {
        return choice;
      }
    }
    return fail("one of: " + joinChoices(spec.choices));
  case OptionType::String:
    return std::string(text);
  }
  return fail("a value");
}

std::string renderOptionValue(const OptionValue& value) {
  std::ostringstream out;
  std::visit(
      [&out](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          out << (v ? "true" : "false");
        } else {
          out << v;
        }
      },
      value);
  return out.str();
}

const OptionValue& OptionValues::at(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) {
    throwInternalError("option '" + std::string(name) + "' was read but never declared");
  }
  return it->second;
}

bool OptionValues::getBool(std::string_view name) const {
  if (const auto* value = std::get_if<bool>(&at(name))) {
    return *value;
  }
  throwInternalError("option '" + std::string(name) + "' is not a boolean");
}

std::int64_t OptionValues::getInt(std::string_view name) const {
  if (const auto* value = std::get_if<std::int64_t>(&at(name))) {
    return *value;
  }
  throwInternalError("option '" + std::string(name) + "' is not an integer");
}

double OptionValues::getNumber(std::string_view name) const {
  const OptionValue& value = at(name);
  if (const auto* number = std::get_if<double>(&value)) {
    return *number;
  }
  if (const auto* integer = std::get_if<std::int64_t>(&value)) {
    return static_cast<double>(*integer);
  }
  throwInternalError("option '" + std::string(name) + "' is not a number");
}

const std::string& OptionValues::getString(std::string_view name) const {
  if (const auto* value = std::get_if<std::string>(&at(name))) {
    return *value;
  }
  throwInternalError("option '" + std::string(name) + "' is not a string");
}

OptionValues resolveOptions(const std::vector<OptionSpec>& specs,
                            const std::map<std::string, std::pair<std::string, SourceLocation>>& given,
                            std::string_view owner) {
  OptionValues values;
  for (const auto& [name, entry] : given) {
    // A named reference, not the structured binding: clang 14 cannot capture a binding in a lambda.
    const std::string& wanted = name;
    const auto spec =
        std::find_if(specs.begin(), specs.end(), [&wanted](const OptionSpec& s) { return s.name == wanted; });
    if (spec == specs.end()) {
      std::string known;
      for (const auto& s : specs) {
        known += (known.empty() ? "" : ", ") + s.name;
      }
      throwConfigError("unknown option '" + name + "' for " + std::string(owner), entry.second,
                       known.empty() ? std::string(owner) + " takes no options" : "known options: " + known);
    }
    values.set(name, parseOptionValue(*spec, entry.first, entry.second));
  }
  for (const auto& spec : specs) {
    if (values.has(spec.name)) {
      continue;
    }
    if (spec.required) {
      throwConfigError("missing required option '" + spec.name + "' for " + std::string(owner), {}, spec.description);
    }
    values.set(spec.name, parseOptionValue(spec, spec.defaultValue, SourceLocation{"<default>", 0, 0, {}}));
  }
  return values;
}

} // namespace npu
