// SPDX-License-Identifier: Apache-2.0
#include "point_store.hpp"

#include "npu/core/sha256.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/core/json.hpp"

#include <yaml-cpp/yaml.h>

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <iterator>

namespace npu::sweep {

namespace {

constexpr std::string_view kFormat = "npu-pipeline sweep point 1";

void writePairs(JsonWriter& json, std::string_view name, const std::vector<Setting>& pairs) {
  json.key(name).beginObject();
  for (const auto& [key, value] : pairs) {
    json.field(key, value);
  }
  json.endObject();
}

std::vector<Setting> readPairs(const YAML::Node& node) {
  std::vector<Setting> pairs;
  for (const auto& entry : node) {
    pairs.emplace_back(entry.first.as<std::string>(), entry.second.as<std::string>());
  }
  return pairs;
}

} // namespace

std::string contentHash(std::string_view bytes) {
  return Sha256().update(bytes).hexDigest();
}

std::string pointKey(std::string_view toolVersion, std::string_view networkHash, std::string_view resolvedPipeline) {
  Sha256 key;
  key.update(kFormat).update("\n").update(toolVersion).update("\nnetwork ").update(networkHash).update("\n");
  key.update(resolvedPipeline);
  return key.hexDigest();
}

std::string renderPointFile(const PointResult& result) {
  JsonWriter json;
  json.beginObject();
  json.field("format", kFormat);
  json.field("key", result.key);
  json.field("network", result.network);
  writePairs(json, "settings", result.settings);
  json.field("status", result.status);
  json.field("reason", result.reason);
  writePairs(json, "summary", result.summary);
  json.endObject();
  return json.str() + "\n";
}

std::optional<PointResult> parsePointFile(const std::string& text) {
  try {
    const YAML::Node root = YAML::Load(text);
    if (!root.IsMap() || !root["format"] || root["format"].as<std::string>() != kFormat) {
      return std::nullopt;
    }
    PointResult result;
    result.key = root["key"].as<std::string>();
    result.network = root["network"].as<std::string>();
    result.settings = readPairs(root["settings"]);
    result.status = root["status"].as<std::string>();
    result.reason = root["reason"].as<std::string>();
    result.summary = readPairs(root["summary"]);
    return result;
  } catch (const YAML::Exception&) {
    return std::nullopt;
  }
}

void writeFileAtomically(const std::filesystem::path& file, std::string_view content) {
  static std::atomic<unsigned> counter{0};
  std::filesystem::path temporary = file;
  temporary += ".partial-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  {
    std::ofstream out(temporary, std::ios::binary);
    out << content;
    out.flush();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw Error(ErrorKind::Usage, "cannot write the file", SourceLocation{file.string(), 0, 0, {}},
                  "check the output folder is writable and has space");
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, file, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    throw Error(ErrorKind::Usage, "cannot write the file: " + error.message(), SourceLocation{file.string(), 0, 0, {}});
  }
}

PointStore::PointStore(std::filesystem::path directory) : directory_(std::move(directory)) {
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error) {
    throw Error(ErrorKind::Usage, "cannot create the point folder: " + error.message(),
                SourceLocation{directory_.string(), 0, 0, {}});
  }
}

std::filesystem::path PointStore::fileFor(const std::string& key) const {
  return directory_ / (key + ".json");
}

std::optional<PointResult> PointStore::load(const std::string& key) const {
  std::ifstream in(fileFor(key), std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  auto result = parsePointFile({std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()});
  if (!result || result->key != key) {
    return std::nullopt;
  }
  return result;
}

void PointStore::save(const PointResult& result) const {
  writeFileAtomically(fileFor(result.key), renderPointFile(result));
}

} // namespace npu::sweep
