// SPDX-License-Identifier: Apache-2.0
// Real Vela 3.10 allocations: every HillClimb block of --verbose-allocation in the reference outputs
// (schedule.txt) rebuilt into live ranges and allocated again. Needs the shared reference data
// (NPU_PIPELINE_REFERENCE or NPU_PIPELINE_MODELS); skipped without it.
#include "allocator_common/hill_climb_allocation.hpp"

#include "test_support.hpp"

#include <boost/algorithm/string.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace {

namespace utf = boost::unit_test;

boost::test_tools::assertion_result referenceAvailable(utf::test_unit_id) {
  const auto directory = npu::test::sharedReferenceDir();
  boost::test_tools::assertion_result result{directory && std::filesystem::exists(*directory / "vela310")};
  result.message() << "the Vela reference outputs are not available (set NPU_PIPELINE_MODELS)";
  return result;
}

/// One "Tensor Allocation for ..." table: the live ranges (tensors sharing one merged) and Vela's result.
struct ReferenceAllocation {
  std::string where; ///< file and memory, for messages
  std::vector<npu::LiveRange> ranges;
  std::vector<std::int64_t> addresses;
  std::int64_t peak = 0;
};

/// The text after the first `count` colons.
std::string textAfterColumns(const std::string& line, int count) {
  std::size_t position = 0;
  for (int column = 0; column < count; ++column) {
    position = line.find(':', position) + 1;
  }
  return line.substr(position);
}

/// "  0 -  3:  0x0 -  0x7b0:  1968:  1968: FeatureMap  : name" -> start, end, address, size, name.
std::tuple<npu::LiveRange, std::int64_t> parseRow(const std::string& line) {
  std::vector<std::string> fields;
  boost::split(fields, line, boost::is_any_of(":"));
  BOOST_TEST_REQUIRE(fields.size() >= 6U, "not an allocation row: " << line);
  std::vector<std::string> times;
  std::vector<std::string> addresses;
  boost::split(times, fields[0], boost::is_any_of("-"));
  boost::split(addresses, fields[1], boost::is_any_of("-"));
  npu::LiveRange range;
  range.start = std::stoll(boost::trim_copy(times.at(0)));
  range.end = std::stoll(boost::trim_copy(times.at(1)));
  range.size = std::stoll(boost::trim_copy(fields[2]));
  range.alignment = 16; // Vela's Tensor.AllocationQuantum; the reference runs use the default alignment
  range.name = boost::trim_copy(textAfterColumns(line, 5)); // names may contain ':' themselves
  return {range, std::stoll(boost::trim_copy(addresses.at(0)), nullptr, 16)};
}

/// Tensors printed with the same lifetime, address and size are one live range (Vela prints each
/// tensor of a merged range). Ranges are ordered by lifetime, size and name: Vela's own order is not
/// printed.
ReferenceAllocation mergeRows(const std::string& where, const std::vector<std::string>& rows, std::int64_t peak) {
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>, npu::LiveRange> merged;
  for (const std::string& row : rows) {
    const auto [range, address] = parseRow(row);
    merged.try_emplace({range.start, range.end, address, range.size}, range);
  }
  std::vector<std::pair<npu::LiveRange, std::int64_t>> entries;
  for (const auto& [key, range] : merged) {
    entries.emplace_back(range, std::get<2>(key));
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first.start, a.first.end, a.first.size, a.first.name) <
           std::tie(b.first.start, b.first.end, b.first.size, b.first.name);
  });
  ReferenceAllocation allocation{where, {}, {}, peak};
  for (const auto& [range, address] : entries) {
    allocation.ranges.push_back(range);
    allocation.addresses.push_back(address);
  }
  return allocation;
}

/// Every HillClimb table of one schedule.txt.
std::vector<ReferenceAllocation> readHillClimbAllocations(const std::filesystem::path& file) {
  std::ifstream stream(file);
  std::vector<ReferenceAllocation> allocations;
  std::string line;
  while (std::getline(stream, line)) {
    if (!line.starts_with("Tensor Allocation for ") || line.find("using allocator HillClimb") == std::string::npos) {
      continue;
    }
    const std::string where = file.string() + ": " + line.substr(0, line.find(", using"));
    std::getline(stream, line); // column titles
    std::vector<std::string> rows;
    while (std::getline(stream, line) && !line.starts_with("Allocation Peak Tensor Size")) {
      rows.push_back(line);
    }
    std::getline(stream, line); // "Allocation Peak Memory Usage:    74464 (   0x122e0) Bytes ..."
    const std::int64_t peak = std::stoll(line.substr(line.find(':') + 1));
    allocations.push_back(mergeRows(where, rows, peak));
  }
  return allocations;
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela_reference, *utf::precondition(referenceAvailable))

BOOST_AUTO_TEST_CASE(hill_climb_gives_vela_addresses_for_every_reference_allocation) {
  const std::filesystem::path root = *npu::test::sharedReferenceDir() / "vela310";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().filename() == "schedule.txt") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::size_t tables = 0;
  std::size_t ranges = 0;
  for (const auto& file : files) {
    for (const ReferenceAllocation& reference : readHillClimbAllocations(file)) {
      BOOST_TEST_CONTEXT(reference.where) {
        const auto outcome = allocation::allocateByHillClimb(reference.ranges);
        BOOST_TEST(outcome.addresses == reference.addresses, boost::test_tools::per_element());
        BOOST_TEST(npu::allocationPeak(reference.ranges, outcome.addresses) == reference.peak);
        ++tables;
        ranges += reference.ranges.size();
      }
    }
  }
  BOOST_TEST_MESSAGE(tables << " Vela allocations of " << ranges << " live ranges reproduced");
  BOOST_TEST(tables > 0U);
}

BOOST_AUTO_TEST_SUITE_END()
