// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npu {

/// A small streaming JSON writer with deterministic formatting (shortest round-trip numbers, keys in
/// the order written, two-space indentation), so reports are byte-identical for identical input.
class NPU_API JsonWriter {
public:
  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(bool flag);
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(double number);
  JsonWriter& null();
  /// Inserts pre-rendered JSON as a value.
  JsonWriter& raw(std::string_view json);
  template <typename T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }
  [[nodiscard]] const std::string& str() const { return out_; }

private:
  void beforeValue();
  void newline();
  std::string out_;
  std::vector<bool> hasItems_; ///< per open container: has it got an item yet
  bool afterKey_ = false;
};

[[nodiscard]] NPU_API std::string jsonEscape(std::string_view text);
/// Shortest text that reads back as the same double ("1.5", "0.1", "1e+20"); NaN/inf become null.
[[nodiscard]] NPU_API std::string formatNumber(double number);

} // namespace npu
