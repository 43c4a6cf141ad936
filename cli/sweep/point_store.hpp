// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "sweep_spec.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu::sweep {

/// What one compile of one network with one configuration gave: the summary columns when it
/// compiled, the reason when it did not.
struct PointResult {
  std::string key;
  std::string network;           ///< as tables name it
  std::vector<Setting> settings; ///< the configuration's settings, for whoever reads the file alone
  std::string status;            ///< "ok", "failed" (the model does not compile) or "error" (a bug)
  std::string reason;            ///< one line; empty when ok
  std::vector<Setting> summary;  ///< column name and text, in the summary CSV's order
};

/// SHA-256 of a network file's bytes, as hex.
[[nodiscard]] std::string contentHash(std::string_view bytes);

/// The content key of a point: SHA-256 over the tool version, the network's content hash and the
/// resolved pipeline (which names every plugin version and option value), so a changed input is a new
/// point.
[[nodiscard]] std::string pointKey(std::string_view toolVersion, std::string_view networkHash,
                                   std::string_view resolvedPipeline);

[[nodiscard]] std::string renderPointFile(const PointResult& result);
/// Reads a point file back; nullopt when it is not one (e.g. damaged by hand).
[[nodiscard]] std::optional<PointResult> parsePointFile(const std::string& text);

/// Writes a file so that readers see either nothing or all of it: a uniquely named temporary beside
/// it, then a rename. Throws a Usage error when the folder cannot be written.
void writeFileAtomically(const std::filesystem::path& file, std::string_view content);

/// One small file per point, `<key>.json`, in a folder shared by every process of a sweep.
class PointStore {
public:
  explicit PointStore(std::filesystem::path directory);
  [[nodiscard]] std::filesystem::path fileFor(const std::string& key) const;
  /// The stored result with this key, if one was written (and is readable, with the same key).
  [[nodiscard]] std::optional<PointResult> load(const std::string& key) const;
  void save(const PointResult& result) const;

private:
  std::filesystem::path directory_;
};

} // namespace npu::sweep
