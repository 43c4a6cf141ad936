// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

namespace npu {

/// Receives progress of long-running stages. Implementations are thread-safe: schedulers may report
/// from TBB tasks. Reporting never changes results.
class NPU_API Progress {
public:
  virtual ~Progress() = default;
  /// Starts a stage with `total` steps (0 when unknown).
  virtual void begin(std::string_view stage, std::int64_t total) = 0;
  /// Marks `steps` more steps of the current stage done.
  virtual void advance(std::int64_t steps = 1) = 0;
  /// Ends the current stage.
  virtual void end() = 0;
};

/// Discards everything; the default for tests and libraries.
class NPU_API SilentProgress final : public Progress {
public:
  void begin(std::string_view, std::int64_t) override {}
  void advance(std::int64_t) override {}
  void end() override {}
};

/// Draws a one-line bar with the stage's elapsed time on a terminal (stderr); stays quiet when stderr
/// is not a terminal. The line is redrawn when the bar or the elapsed tenth of a second changes.
class NPU_API TerminalProgress final : public Progress {
public:
  TerminalProgress();
  /// Draws on `out` when `enabled` (what the default does with stderr, for tests).
  TerminalProgress(std::FILE* out, bool enabled);
  void begin(std::string_view stage, std::int64_t total) override;
  void advance(std::int64_t steps) override;
  void end() override;

private:
  void draw(bool force);

  std::FILE* out_;
  bool enabled_;
  std::mutex mutex_;
  std::string stage_;
  std::int64_t total_ = 0;
  std::atomic<std::int64_t> done_{0};
  std::chrono::steady_clock::time_point started_;
  std::int64_t lastDrawnPermille_ = -1;
  std::int64_t lastDrawnTenths_ = -1;
};

} // namespace npu
