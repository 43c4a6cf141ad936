// SPDX-License-Identifier: Apache-2.0
#include "npu/core/progress.hpp"

#include <algorithm>
#include <string>
#include <unistd.h>

namespace npu {

TerminalProgress::TerminalProgress() : TerminalProgress(stderr, isatty(STDERR_FILENO) == 1) {}

TerminalProgress::TerminalProgress(std::FILE* out, bool enabled) : out_(out), enabled_(enabled) {}

void TerminalProgress::begin(std::string_view stage, std::int64_t total) {
  if (!enabled_) {
    return;
  }
  const std::lock_guard lock(mutex_);
  stage_ = stage;
  total_ = total;
  done_ = 0;
  started_ = std::chrono::steady_clock::now();
  lastDrawnPermille_ = -1;
  lastDrawnTenths_ = -1;
  draw(true);
}

void TerminalProgress::advance(std::int64_t steps) {
  if (!enabled_) {
    return;
  }
  done_ += steps;
  const std::lock_guard lock(mutex_);
  draw(false);
}

void TerminalProgress::end() {
  if (!enabled_) {
    return;
  }
  const std::lock_guard lock(mutex_);
  std::fprintf(out_, "\r\033[K");
  std::fflush(out_);
}

void TerminalProgress::draw(bool force) {
  constexpr int kWidth = 30;
  const std::int64_t done = done_.load();
  const std::int64_t permille = total_ > 0 ? std::min<std::int64_t>(1000, done * 1000 / total_) : 0;
  const auto elapsed = std::chrono::steady_clock::now() - started_;
  const std::int64_t tenths = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count() / 100;
  if (!force && permille == lastDrawnPermille_ && tenths == lastDrawnTenths_) {
    return;
  }
  lastDrawnPermille_ = permille;
  lastDrawnTenths_ = tenths;
  const auto seconds = static_cast<double>(tenths) / 10.0;
  if (total_ > 0) {
    const auto filled = static_cast<int>(permille * kWidth / 1000);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(kWidth, '.');
    std::fprintf(out_, "\r\033[K%s [%s] %lld/%lld %.1f s", stage_.c_str(), bar.c_str(), static_cast<long long>(done),
                 static_cast<long long>(total_), seconds);
  } else {
    std::fprintf(out_, "\r\033[K%s ... %.1f s", stage_.c_str(), seconds);
  }
  std::fflush(out_);
}

} // namespace npu
