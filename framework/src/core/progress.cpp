#include "npu/core/progress.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace npu {

TerminalProgress::TerminalProgress() : enabled_(isatty(STDERR_FILENO) == 1) {}

void TerminalProgress::begin(std::string_view stage, std::int64_t total) {
  if (!enabled_) {
    return;
  }
  const std::lock_guard lock(mutex_);
  stage_ = stage;
  total_ = total;
  done_ = 0;
  lastDrawnPermille_ = -1;
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
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

void TerminalProgress::draw(bool force) {
  constexpr int kWidth = 30;
  const std::int64_t done = done_.load();
  const std::int64_t permille = total_ > 0 ? std::min<std::int64_t>(1000, done * 1000 / total_) : 0;
  if (!force && permille == lastDrawnPermille_) {
    return;
  }
  lastDrawnPermille_ = permille;
  const auto filled = static_cast<int>(permille * kWidth / 1000);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.resize(kWidth, '.');
  if (total_ > 0) {
    std::fprintf(stderr, "\r\033[K%s [%s] %lld/%lld", stage_.c_str(), bar.c_str(), static_cast<long long>(done),
                 static_cast<long long>(total_));
  } else {
    std::fprintf(stderr, "\r\033[K%s ...", stage_.c_str());
  }
  std::fflush(stderr);
}

} // namespace npu
