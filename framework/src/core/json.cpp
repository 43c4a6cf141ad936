// SPDX-License-Identifier: Apache-2.0
#include "npu/core/json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace npu {

std::string jsonEscape(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size() + 2);
  for (const char c : text) {
    switch (c) {
    case '"':
      escaped += "\\\"";
      break;
    case '\\':
      escaped += "\\\\";
      break;
    case '\n':
      escaped += "\\n";
      break;
    case '\r':
      escaped += "\\r";
      break;
    case '\t':
      escaped += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof(buffer), "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
        escaped += buffer;
      } else {
        escaped += c;
      }
    }
  }
  return escaped;
}

std::string formatNumber(double number) {
  if (!std::isfinite(number)) {
    return "null";
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), number);
  return {buffer, result.ptr};
}

void JsonWriter::newline() {
  out_ += '\n';
  out_.append(hasItems_.size() * 2, ' ');
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!hasItems_.empty()) {
    if (hasItems_.back()) {
      out_ += ',';
    }
    hasItems_.back() = true;
    newline();
  }
}

JsonWriter& JsonWriter::beginObject() {
  beforeValue();
  out_ += '{';
  hasItems_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::endObject() {
  const bool had = hasItems_.back();
  hasItems_.pop_back();
  if (had) {
    newline();
  }
  out_ += '}';
  if (hasItems_.empty()) {
    out_ += '\n';
  }
  return *this;
}

JsonWriter& JsonWriter::beginArray() {
  beforeValue();
  out_ += '[';
  hasItems_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::endArray() {
  const bool had = hasItems_.back();
  hasItems_.pop_back();
  if (had) {
    newline();
  }
  out_ += ']';
  if (hasItems_.empty()) {
    out_ += '\n';
  }
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  beforeValue();
  out_ += '"' + jsonEscape(name) + "\": ";
  afterKey_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  beforeValue();
  out_ += '"' + jsonEscape(text) + '"';
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  beforeValue();
  out_ += flag ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
  beforeValue();
  out_ += std::to_string(number);
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  beforeValue();
  out_ += formatNumber(number);
  return *this;
}

JsonWriter& JsonWriter::null() {
  beforeValue();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  beforeValue();
  out_ += json;
  return *this;
}

} // namespace npu
