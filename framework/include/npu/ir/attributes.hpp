// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace npu {

/// Value of an operator attribute: the options a frontend reads (axis, keep_dims, beta, ...) and the
/// annotations lowering adds. Kept deliberately small and ordered so graphs print deterministically.
using AttributeValue = std::variant<bool, std::int64_t, double, std::string, std::vector<std::int64_t>,
                                    std::vector<double>>;

class Attributes {
public:
  void set(std::string key, AttributeValue value) { values_[std::move(key)] = std::move(value); }
  [[nodiscard]] bool has(std::string_view key) const { return values_.find(key) != values_.end(); }
  void erase(std::string_view key) {
    if (auto it = values_.find(key); it != values_.end()) {
      values_.erase(it);
    }
  }
  [[nodiscard]] const AttributeValue* find(std::string_view key) const {
    auto it = values_.find(key);
    return it == values_.end() ? nullptr : &it->second;
  }
  /// The value if present and of type T (int64 also converts to double on request).
  template <typename T>
  [[nodiscard]] std::optional<T> get(std::string_view key) const {
    const AttributeValue* value = find(key);
    if (value == nullptr) {
      return std::nullopt;
    }
    if (const T* typed = std::get_if<T>(value)) {
      return *typed;
    }
    if constexpr (std::is_same_v<T, double>) {
      if (const auto* integer = std::get_if<std::int64_t>(value)) {
        return static_cast<double>(*integer);
      }
    }
    return std::nullopt;
  }
  template <typename T>
  [[nodiscard]] T getOr(std::string_view key, T fallback) const {
    return get<T>(key).value_or(std::move(fallback));
  }
  [[nodiscard]] const std::map<std::string, AttributeValue, std::less<>>& all() const { return values_; }
  friend bool operator==(const Attributes&, const Attributes&) = default;

private:
  std::map<std::string, AttributeValue, std::less<>> values_;
};

/// Renders a value for printing ("true", "3", "0.5", "[1, 2]", "\"text\"").
[[nodiscard]] std::string toString(const AttributeValue& value);

} // namespace npu
