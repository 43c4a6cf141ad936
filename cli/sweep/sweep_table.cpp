// SPDX-License-Identifier: Apache-2.0
#include "sweep_table.hpp"

#include "npu/core/json.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace npu::sweep {

std::optional<std::string> SweepRow::column(std::string_view name) const {
  for (const auto& [key, value] : summary) {
    if (key == name) {
      return value;
    }
  }
  return std::nullopt;
}

std::optional<double> SweepRow::number(std::string_view name) const {
  const auto text = column(name);
  if (!text || text->empty()) {
    return std::nullopt;
  }
  try {
    std::size_t used = 0;
    const double value = std::stod(*text, &used);
    if (used == text->size() && std::isfinite(value)) {
      return value;
    }
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::size_t SweepTable::count(std::string_view status) const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [&](const SweepRow& row) { return row.status == status; }));
}

void chooseColumns(SweepTable& table, const std::vector<std::string>& collect, const SourceLocation& where) {
  std::vector<std::string> reported;
  std::set<std::string> seen;
  for (const auto& row : table.rows) {
    for (const auto& [name, value] : row.summary) {
      if (seen.insert(name).second) {
        reported.push_back(name);
      }
    }
  }
  if (collect.empty()) {
    table.columns = reported;
    return;
  }
  for (const auto& name : collect) {
    if (!reported.empty() && !seen.contains(name)) {
      std::string known;
      for (const auto& candidate : reported) {
        known += (known.empty() ? "" : ", ") + candidate;
      }
      throwConfigError("collect names '" + name + "', which no point reports", where, "columns: " + known);
    }
  }
  table.columns = collect;
}

std::string csvField(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) {
    return std::string(text);
  }
  std::string quoted = "\"";
  for (const char c : text) {
    quoted += c == '"' ? "\"\"" : std::string(1, c);
  }
  return quoted + "\"";
}

std::vector<std::string> splitCsvLine(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

std::vector<Setting> summaryColumns(const std::string& summaryCsv) {
  const auto firstEnd = summaryCsv.find('\n');
  const std::string header = summaryCsv.substr(0, firstEnd);
  std::string values = firstEnd == std::string::npos ? std::string() : summaryCsv.substr(firstEnd + 1);
  while (!values.empty() && (values.back() == '\n' || values.back() == '\r')) {
    values.pop_back();
  }
  const auto names = splitCsvLine(header);
  const auto texts = splitCsvLine(values);
  std::vector<Setting> columns;
  for (std::size_t i = 0; i < names.size(); ++i) {
    columns.emplace_back(names[i], i < texts.size() ? texts[i] : std::string());
  }
  return columns;
}

std::string renderSweepCsv(const SweepTable& table) {
  std::string out = "network_file,configuration";
  for (const auto& axis : table.axisNames) {
    out += "," + csvField(axis);
  }
  out += ",status,reason";
  for (const auto& column : table.columns) {
    out += "," + csvField(column);
  }
  out += "\n";
  for (const auto& row : table.rows) {
    out += csvField(row.network) + "," + std::to_string(row.configuration);
    for (const auto& value : row.axisValues) {
      out += "," + csvField(value);
    }
    out += "," + row.status + "," + csvField(row.reason);
    for (const auto& column : table.columns) {
      out += "," + csvField(row.column(column).value_or(""));
    }
    out += "\n";
  }
  return out;
}

std::string renderSweepJson(const SweepTable& table) {
  JsonWriter json;
  json.beginObject();
  json.field("sweep", table.name);
  json.key("axes").beginArray();
  for (const auto& axis : table.axisNames) {
    json.value(axis);
  }
  json.endArray();
  json.key("columns").beginArray();
  for (const auto& column : table.columns) {
    json.value(column);
  }
  json.endArray();
  json.key("counts").beginObject();
  for (const char* status : {"ok", "failed", "error", "missing"}) {
    json.field(status, static_cast<std::int64_t>(table.count(status)));
  }
  json.endObject();
  json.key("rows").beginArray();
  for (const auto& row : table.rows) {
    json.beginObject();
    json.field("network_file", row.network);
    json.field("configuration", static_cast<std::int64_t>(row.configuration));
    json.key("settings").beginObject();
    for (std::size_t axis = 0; axis < table.axisNames.size() && axis < row.axisValues.size(); ++axis) {
      json.field(table.axisNames[axis], row.axisValues[axis]);
    }
    json.endObject();
    json.field("status", row.status);
    json.field("reason", row.reason);
    json.key("summary").beginObject();
    for (const auto& column : table.columns) {
      if (const auto text = row.column(column)) {
        json.field(column, *text);
      }
    }
    json.endObject();
    json.endObject();
  }
  json.endArray();
  json.endObject();
  return json.str() + "\n";
}

} // namespace npu::sweep
