// SPDX-License-Identifier: Apache-2.0
#pragma once

// Test helper: reads what real Vela 3.10 runs wrote (/work/shared/reference/vela310/<config>/<model>/):
// schedule.txt (--verbose-schedule --verbose-allocation) and the per-layer CSV (--verbose-performance).
// Header-only so that every test area can use it.

#include "npu/core/shape.hpp"
#include "npu/ir/operation.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ethosu::test {

/// One operation of a schedule as Vela printed it.
struct ScheduledOperation {
  int index = 0;
  std::string name;
  std::string type;
  npu::Shape4 ofm;
  npu::Kernel kernel;
  std::array<int, 4> blockConfig{}; ///< [ofm height, ofm width, ifm depth, ofm depth]
  npu::Shape4 ofmBlock;
  npu::Shape4 ifmStripe;
  std::optional<npu::Shape4> ifm2Stripe;
  npu::Shape4 ofmStripe;
  std::optional<std::int64_t> encodedWeights;
  std::vector<std::int64_t> weightBuffers;
  std::vector<int> depthSlices;
  int cascade = 0;
};

struct ScheduleSection {
  std::string label; ///< e.g. "main_split_1_MAX_BUFFERED"
  std::vector<ScheduledOperation> operations;
};

struct ReferenceSchedule {
  std::vector<ScheduleSection> sections;
  /// Names of feature maps allocated in SRAM (fast storage or arena).
  std::set<std::string> sramFeatureMaps;
  /// Bytes allocated to each feature map in scratch memory (tells NHWC from NHCWB16 storage).
  std::map<std::string, std::int64_t> featureMapBytes;
};

/// One row of the per-layer CSV.
struct PerLayerRow {
  std::string sourceOperator;
  std::string operatorType;
  double opCycles = 0;
  double npu = 0;
  double sramAccess = 0;
  double dramAccess = 0;
  double onChipFlashAccess = 0;
  double offChipFlashAccess = 0;
  std::int64_t macs = 0;
  std::string name;
};

namespace detail {

inline npu::Shape4 parseShape4(const std::string& text) {
  static const std::regex pattern(R"(\[(\d+), (\d+), (\d+), (\d+)\])");
  std::smatch match;
  if (!std::regex_search(text, match, pattern)) {
    throw std::runtime_error("no Shape4D in '" + text + "'");
  }
  return {std::stoi(match[1]), std::stoi(match[2]), std::stoi(match[3]), std::stoi(match[4])};
}

inline std::vector<int> parseIntegerList(const std::string& text) {
  std::vector<int> values;
  static const std::regex number(R"(-?\d+)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number); it != std::sregex_iterator(); ++it) {
    values.push_back(std::stoi(it->str()));
  }
  return values;
}

inline std::string afterMarker(const std::string& line, const std::string& marker) {
  const auto at = line.find(marker);
  return at == std::string::npos ? std::string{} : line.substr(at + marker.size());
}

/// Splits one CSV line, honouring double quotes.
inline std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

} // namespace detail

inline ReferenceSchedule readSchedule(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) {
    throw std::runtime_error("cannot read " + file.string());
  }
  ReferenceSchedule schedule;
  ScheduledOperation* current = nullptr;
  bool inSramAllocation = false;
  bool inScratchAllocation = false;
  static const std::regex operationLine(R"(^\t(\d+): Operation (.*)  - OFM (<Shape4D .*>)$)");
  static const std::regex kernelLine(R"(w=(\d+), h=(\d+), stride=\((\d+), (\d+)\), dilation=\((\d+), (\d+)\))");
  for (std::string line; std::getline(in, line);) {
    std::smatch match;
    if (line.starts_with("Schedule: '")) {
      schedule.sections.push_back({line.substr(11, line.size() - 12), {}});
      current = nullptr;
      continue;
    }
    if (line.starts_with("Tensor Allocation for mem_area")) {
      inSramAllocation = line.starts_with("Tensor Allocation for mem_area Sram");
      inScratchAllocation = line.find("Scratch") != std::string::npos;
      current = nullptr;
      continue;
    }
    if (inScratchAllocation && line.find(": FeatureMap  : ") != std::string::npos) {
      const std::string name = detail::afterMarker(line, ": FeatureMap  : ");
      if (inSramAllocation) {
        schedule.sramFeatureMaps.insert(name);
      }
      // "start - end: address - address: size: usage: purpose: name"
      const auto fields = detail::parseIntegerList(line.substr(0, line.find(": FeatureMap")));
      if (fields.size() >= 3) {
        schedule.featureMapBytes.emplace(name, fields[fields.size() - 2]);
      }
      continue;
    }
    if (!schedule.sections.empty() && std::regex_match(line, match, operationLine)) {
      auto& operations = schedule.sections.back().operations;
      operations.push_back({});
      current = &operations.back();
      current->index = std::stoi(match[1]);
      current->name = match[2];
      current->ofm = detail::parseShape4(match[3]);
      continue;
    }
    if (current == nullptr) {
      continue;
    }
    if (line.find("\t\tType: ") == 0) {
      current->type = line.substr(8);
    } else if (line.find("\t\tKernel: ") == 0 && std::regex_search(line, match, kernelLine)) {
      current->kernel = npu::Kernel{std::stoi(match[1]), std::stoi(match[2]), std::stoi(match[3]),
                                    std::stoi(match[4]), std::stoi(match[5]), std::stoi(match[6])};
    } else if (line.find("\t\tBlock Config = ") == 0) {
      const auto values = detail::parseIntegerList(line);
      std::copy_n(values.begin(), 4, current->blockConfig.begin());
    } else if (line.find("\t\tOFM Block = ") == 0) {
      current->ofmBlock = detail::parseShape4(line);
    } else if (line.find("\t\tIFM Stripe ") == 0) {
      current->ifmStripe = detail::parseShape4(line);
    } else if (line.find("\t\tIFM2 Stripe ") == 0) {
      if (line.find("None") == std::string::npos) {
        current->ifm2Stripe = detail::parseShape4(line);
      }
    } else if (line.find("\t\tOFM Stripe ") == 0) {
      current->ofmStripe = detail::parseShape4(line);
    } else if (line.find("\t\tEncoded Weights = ") == 0) {
      const auto values = detail::parseIntegerList(line);
      if (!values.empty()) {
        current->encodedWeights = values.front();
      }
    } else if (line.find("\t\tWeight buffer") == 0) {
      current->weightBuffers.push_back(detail::parseIntegerList(detail::afterMarker(line, "=")).front());
    } else if (line.find("\t\tDepth slices = ") == 0) {
      current->depthSlices = detail::parseIntegerList(line);
    } else if (line.find("\t\tAssigned Cascade = ") == 0) {
      current->cascade = detail::parseIntegerList(line).front();
    }
  }
  return schedule;
}

/// Rows of the per-layer CSV, one group per NPU subgraph (Vela repeats the header for each).
inline std::vector<std::vector<PerLayerRow>> readPerLayerCsv(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) {
    throw std::runtime_error("cannot read " + file.string());
  }
  std::vector<std::vector<PerLayerRow>> groups;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line == "\r") {
      continue;
    }
    const auto fields = detail::splitCsv(line);
    if (fields.size() < 15) {
      continue;
    }
    if (fields[1] == "NNG Operator") {
      groups.emplace_back();
      continue;
    }
    if (groups.empty()) {
      groups.emplace_back();
    }
    PerLayerRow row;
    row.sourceOperator = fields[0];
    row.operatorType = fields[1];
    row.opCycles = std::stod(fields[4]);
    row.npu = std::stod(fields[6]);
    row.sramAccess = std::stod(fields[7]);
    row.dramAccess = std::stod(fields[8]);
    row.onChipFlashAccess = std::stod(fields[9]);
    row.offChipFlashAccess = std::stod(fields[10]);
    row.macs = std::stoll(fields[11]);
    row.name = fields[14];
    groups.back().push_back(row);
  }
  return groups;
}

/// Finds the per-layer CSV of a model folder.
inline std::optional<std::filesystem::path> perLayerCsvIn(const std::filesystem::path& folder) {
  if (!std::filesystem::is_directory(folder)) {
    return std::nullopt;
  }
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().string().ends_with("_per-layer.csv")) {
      return entry.path();
    }
  }
  return std::nullopt;
}

} // namespace ethosu::test
