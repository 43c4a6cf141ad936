// SPDX-License-Identifier: Apache-2.0
#include "reference_listing.hpp"

#include <array>
#include <cstdio>
#include <memory>
#include <sstream>

namespace ethosu::codegen::test {

namespace {

std::string decompress(const std::filesystem::path& file) {
  const std::string command = "gzip -dc '" + file.string() + "'";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string text;
  if (!pipe) {
    return text;
  }
  std::array<char, 65536> buffer{};
  std::size_t read = 0;
  while ((read = std::fread(buffer.data(), 1, buffer.size(), pipe.get())) > 0) {
    text.append(buffer.data(), read);
  }
  return text;
}

/// Vela prints some activation limits as Python ints ("-255"), others as floats ("0.0").
std::string withoutTrailingZeroFractions(std::string line) {
  if (line.find("Activation:") == std::string::npos) {
    return line;
  }
  for (std::size_t at = line.find(".0,"); at != std::string::npos; at = line.find(".0,", at)) {
    line.erase(at, 2);
  }
  if (line.size() > 2 && line.compare(line.size() - 2, 2, ".0") == 0) {
    line.erase(line.size() - 2);
  }
  return line;
}

std::string withoutNames(const std::string& line) {
  const auto trimmed = line.find_first_not_of(' ');
  if (trimmed != std::string::npos && line.compare(trimmed, 5, "name=") == 0) {
    return {};
  }
  const auto name = line.find(" name=");
  if (name == std::string::npos) {
    return line;
  }
  // "<index> <kind> name=<name>: <command>" or "<index> Dma name=<name>, src=..., dest=...: <command>"
  const auto source = line.find(", src=", name);
  if (source != std::string::npos) {
    const auto end = line.find("):", source);
    return line.substr(0, name) + line.substr(source, end + 1 - source);
  }
  return line.substr(0, name);
}

} // namespace

std::vector<std::string> comparableLines(const std::string& listing) {
  std::vector<std::string> lines;
  std::istringstream in(listing);
  std::string line;
  while (std::getline(in, line)) {
    std::string kept = withoutTrailingZeroFractions(withoutNames(line));
    if (!kept.empty()) {
      lines.push_back(std::move(kept));
    }
  }
  return lines;
}

std::vector<ListingPart> readReferenceListing(const std::filesystem::path& file) {
  std::vector<ListingPart> parts;
  std::istringstream in(decompress(file));
  std::string line;
  std::string input;
  bool inInput = false;
  while (std::getline(in, line)) {
    if (line == "Register-Level Command Stream: Input") {
      parts.emplace_back();
      inInput = true;
      input.clear();
      continue;
    }
    if (line == "Register-Level Command Stream: Output") {
      parts.back().input = comparableLines(input);
      inInput = false;
      continue;
    }
    if (parts.empty()) {
      continue;
    }
    if (inInput) {
      input += line + "\n";
    } else {
      parts.back().output.push_back(line);
    }
  }
  return parts;
}

} // namespace ethosu::codegen::test
