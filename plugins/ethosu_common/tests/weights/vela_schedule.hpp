// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading Vela 3.10's --verbose-schedule output (schedule.txt of /work/shared/reference) and summary
// CSV, for the tests that compare encoded weight sizes with what Vela wrote.

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ethosu::weights::test {

struct ScheduledOperation {
  std::string name; ///< Vela's operation name (its OFM tensor's name, plus suffixes of rewrites)
  std::string type; ///< Vela's op type, e.g. "Conv2DBias"
  int kernelWidth = 1;
  int kernelHeight = 1;
  int strideX = 1;
  int strideY = 1;
  int dilationX = 1;
  int dilationY = 1;
  std::array<int, 4> blockConfig{}; ///< [ofm_h, ofm_w, ifm_depth, ofm_depth]
  std::optional<std::int64_t> encodedWeights;
  std::vector<int> depthSlices;
};

/// Every operation of every schedule in the file, in file order.
[[nodiscard]] std::vector<ScheduledOperation> readSchedule(const std::filesystem::path& file);

/// A column of the single data row of a Vela summary CSV; nullopt when absent.
[[nodiscard]] std::optional<std::string> summaryValue(const std::filesystem::path& file, const std::string& column);

} // namespace ethosu::weights::test
