// SPDX-License-Identifier: Apache-2.0
// The shell and small formatting helpers shared by the HTML reports (run and compare).
#pragma once

#include "number_format.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace npu::html {

using detail::fixed;
using detail::signedPercent;

[[nodiscard]] std::string escape(std::string_view text);
/// An integer with thousands separators, e.g. 1,234,567.
[[nodiscard]] std::string grouped(double value);
/// The start of a page: doctype, inline style sheet, title and heading.
[[nodiscard]] std::string pageOpen(const std::string& title);
[[nodiscard]] std::string pageClose();

/// Series colours, also used by the tables' legends.
inline constexpr const char* kColourA = "#2f6db5";
inline constexpr const char* kColourB = "#e0812c";

} // namespace npu::html
