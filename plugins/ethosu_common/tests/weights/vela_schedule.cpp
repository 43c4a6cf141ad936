// SPDX-License-Identifier: Apache-2.0
#include "vela_schedule.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ethosu::weights::test {
namespace {

std::vector<int> integersIn(const std::string& text) {
  std::vector<int> values;
  std::string digits;
  for (const char character : text + ' ') {
    if ((character >= '0' && character <= '9') || (character == '-' && digits.empty())) {
      digits += character;
    } else if (!digits.empty()) {
      if (digits != "-") {
        values.push_back(std::stoi(digits));
      }
      digits.clear();
    }
  }
  return values;
}

std::string afterPrefix(const std::string& line, const std::string& prefix) {
  const auto start = line.find(prefix);
  return start == std::string::npos ? std::string() : line.substr(start + prefix.size());
}

std::vector<std::string> splitCsvLine(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream stream(line);
  std::string cell;
  while (std::getline(stream, cell, ',')) {
    cells.push_back(cell);
  }
  return cells;
}

} // namespace

std::vector<ScheduledOperation> readSchedule(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) {
    throw std::runtime_error("cannot read " + file.string());
  }
  std::vector<ScheduledOperation> operations;
  std::string line;
  while (std::getline(in, line)) {
    if (const auto marker = line.find(": Operation "); marker != std::string::npos && line.rfind('\t', 0) == 0) {
      ScheduledOperation op;
      const std::string rest = line.substr(marker + 12);
      op.name = rest.substr(0, rest.rfind("  - OFM"));
      operations.push_back(op);
      continue;
    }
    if (operations.empty()) {
      continue;
    }
    ScheduledOperation& op = operations.back();
    if (line.find("\t\tType: ") == 0) {
      op.type = afterPrefix(line, "Type: ");
    } else if (line.find("\t\tKernel: ") == 0) {
      const std::vector<int> values = integersIn(afterPrefix(line, "Kernel: "));
      if (values.size() == 6) {
        op.kernelWidth = values[0];
        op.kernelHeight = values[1];
        op.strideX = values[2];
        op.strideY = values[3];
        op.dilationX = values[4];
        op.dilationY = values[5];
      }
    } else if (line.find("\t\tBlock Config = ") == 0) {
      const std::vector<int> values = integersIn(afterPrefix(line, "Block Config = "));
      if (values.size() == 4) {
        op.blockConfig = {values[0], values[1], values[2], values[3]};
      }
    } else if (line.find("\t\tEncoded Weights = ") == 0) {
      const std::vector<int> values = integersIn(afterPrefix(line, "Encoded Weights = "));
      if (!values.empty()) {
        op.encodedWeights = values.front();
      }
    } else if (line.find("\t\tDepth slices = ") == 0) {
      op.depthSlices = integersIn(afterPrefix(line, "Depth slices = "));
    }
  }
  return operations;
}

std::optional<std::string> summaryValue(const std::filesystem::path& file, const std::string& column) {
  std::ifstream in(file);
  std::string header;
  std::string row;
  if (!std::getline(in, header) || !std::getline(in, row)) {
    return std::nullopt;
  }
  const std::vector<std::string> names = splitCsvLine(header);
  const std::vector<std::string> values = splitCsvLine(row);
  for (std::size_t index = 0; index < names.size() && index < values.size(); ++index) {
    if (names[index] == column) {
      return values[index];
    }
  }
  return std::nullopt;
}

} // namespace ethosu::weights::test
