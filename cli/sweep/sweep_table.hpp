// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "sweep_spec.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu::sweep {

/// One network × configuration of a sweep, as the table shows it.
struct SweepRow {
  std::string network;
  std::size_t configuration = 0;
  std::vector<std::string> axisValues; ///< the label of each axis's value, in axis order
  std::string status;                  ///< ok, failed, error, or missing (no result yet)
  std::string reason;
  std::vector<Setting> summary; ///< every summary column the point reported

  /// The text of a summary column; nullopt when this row has none.
  [[nodiscard]] std::optional<std::string> column(std::string_view name) const;
  /// A summary column as a number; nullopt when absent or not a finite number.
  [[nodiscard]] std::optional<double> number(std::string_view name) const;
};

/// The tidy table of a sweep: rows in canonical order (network, then configuration), and the summary
/// columns every row is written with.
struct SweepTable {
  std::string name;
  std::vector<std::string> axisNames;
  std::vector<std::string> columns;
  std::vector<SweepRow> rows;

  [[nodiscard]] std::size_t count(std::string_view status) const;
};

/// Picks the summary columns: the `collect` list when given (a name no compiled row has is a Config
/// error listing those it could be), else every column in the order rows first report them.
void chooseColumns(SweepTable& table, const std::vector<std::string>& collect, const SourceLocation& where);

/// network, configuration, the axes, status, reason, then the summary columns; one line per row.
[[nodiscard]] std::string renderSweepCsv(const SweepTable& table);
/// The same as JSON: the axes and columns, then one object per row (numbers stay as their CSV text).
[[nodiscard]] std::string renderSweepJson(const SweepTable& table);

/// A CSV field, quoted when it has a comma, quote or line break.
[[nodiscard]] std::string csvField(std::string_view text);
/// Splits one CSV line (quoted fields allowed) into its fields.
[[nodiscard]] std::vector<std::string> splitCsvLine(std::string_view line);
/// The columns of a one-row summary CSV (header line, value line) as name/text pairs.
[[nodiscard]] std::vector<Setting> summaryColumns(const std::string& summaryCsv);

} // namespace npu::sweep
