// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/diagnostics.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace npu {

/// Types of plugin options as they appear in pipeline YAML.
enum class OptionType : std::uint8_t {
  Boolean, ///< true/false
  Integer, ///< whole number
  Number,  ///< real number
  String,
  Bytes,  ///< size in bytes: 524288, 512KiB, 1MiB, 2MB
  Choice, ///< one of OptionSpec::choices
};
[[nodiscard]] std::string_view nameOf(OptionType type);

/// One option a plugin accepts. Options are validated strictly: unknown names are errors.
struct OptionSpec {
  std::string name;
  OptionType type = OptionType::String;
  std::string defaultValue; ///< textual default, parsed like YAML input; empty with `required`
  std::string description;
  std::vector<std::string> choices; ///< for OptionType::Choice
  bool required = false;
};

using OptionValue = std::variant<bool, std::int64_t, double, std::string>;

/// Resolved option values of one plugin (every declared option has a value after resolution).
class OptionValues {
public:
  void set(std::string name, OptionValue value) { values_[std::move(name)] = std::move(value); }
  [[nodiscard]] bool has(std::string_view name) const { return values_.find(name) != values_.end(); }
  [[nodiscard]] bool getBool(std::string_view name) const;
  [[nodiscard]] std::int64_t getInt(std::string_view name) const; ///< Integer and Bytes options
  [[nodiscard]] double getNumber(std::string_view name) const;
  [[nodiscard]] const std::string& getString(std::string_view name) const; ///< String and Choice
  [[nodiscard]] const std::map<std::string, OptionValue, std::less<>>& all() const { return values_; }
  friend bool operator==(const OptionValues&, const OptionValues&) = default;

private:
  [[nodiscard]] const OptionValue& at(std::string_view name) const;
  std::map<std::string, OptionValue, std::less<>> values_;
};

/// Parses the text of one option according to its spec; throws a Config error at `where` naming the
/// option, the expected type and, for choices, the accepted values.
[[nodiscard]] OptionValue parseOptionValue(const OptionSpec& spec, std::string_view text,
                                           const SourceLocation& where);
/// Renders a value the way it would be written in YAML (bytes as plain integers).
[[nodiscard]] std::string renderOptionValue(const OptionValue& value);
/// Parses "524288", "512KiB", "512 KiB", "1MiB", "2MB" (MB/KB are powers of ten), "1GiB".
[[nodiscard]] std::optional<std::int64_t> parseByteSize(std::string_view text);

/// Fills every option of `specs` from `given` (name -> text with its YAML location) or its default;
/// unknown names, bad values and missing required options are Config errors.
[[nodiscard]] OptionValues resolveOptions(const std::vector<OptionSpec>& specs,
                                          const std::map<std::string, std::pair<std::string, SourceLocation>>& given,
                                          std::string_view owner);

} // namespace npu
