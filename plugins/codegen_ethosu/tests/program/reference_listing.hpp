// SPDX-License-Identifier: Apache-2.0
#pragma once

// Vela 3.10's register command stream listings (shared/reference/codegen/vela310/<config>/<model>/
// register_command_stream.txt.gz), split per NPU subgraph into the "Input" part (NPU operations) and
// the "Output" part (commands), with the details that legitimately differ (names) taken out.

#include <filesystem>
#include <string>
#include <vector>

namespace ethosu::codegen::test {

struct ListingPart {
  std::vector<std::string> input;  ///< operation lines, names removed
  std::vector<std::string> output; ///< command lines
};

/// The parts of a listing, one per NPU subgraph; empty when the file is missing.
[[nodiscard]] std::vector<ListingPart> readReferenceListing(const std::filesystem::path& file);

/// An operation listing (ours or Vela's) as comparable lines: names and Vela's trailing high-level
/// command text removed.
[[nodiscard]] std::vector<std::string> comparableLines(const std::string& listing);

} // namespace ethosu::codegen::test
