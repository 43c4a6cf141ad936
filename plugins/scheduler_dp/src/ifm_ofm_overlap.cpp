#include "ifm_ofm_overlap.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace npu::dp {

namespace {

struct RowRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

/// IFM rows a stripe of OFM rows [begin, end) reads (Box.transform_with_strides_and_skirt, rows only).
RowRange ifmRows(const StripedPass& pass, std::int64_t begin, std::int64_t end) {
  const std::int64_t stride = pass.kernel.strideY;
  const std::int64_t first = begin * stride - pass.paddingTop;
  const std::int64_t last = (end - 1) * stride - pass.paddingTop + pass.kernel.areaHeight();
  const std::int64_t upscale = std::max(pass.upscaling, 1);
  return {std::clamp<std::int64_t>(first / upscale, 0, pass.ifm.height),
          std::clamp<std::int64_t>((last + upscale - 1) / upscale, 0, pass.ifm.height)};
}

std::int64_t rowBytes(const Shape4& shape, int elementBytes) {
  return std::int64_t{shape.width} * shape.depth * elementBytes;
}

/// Replays the stripes of an IFM-streamed cascade (generate_high_level_command_stream_for_pass).
class StripeReplay {
public:
  StripeReplay(std::span<const StripedPass> passes, std::int64_t ifmStorage, std::int64_t ofmStorage)
      : passes_(passes), nextRow_(passes.size(), 0), rowsPresent_(passes.size(), 0), ifmRead_(ifmStorage),
        ofmSize_(ofmStorage) {
    rowsPresent_[0] = passes.front().ifm.height;
  }

  std::int64_t run() {
    produce(passes_.size() - 1, std::numeric_limits<std::int64_t>::max());
    return std::max<std::int64_t>(minOverlap_, 0);
  }

private:
  /// Emits stripes of pass `index` until it has produced `rows` OFM rows (or all of them).
  void produce(std::size_t index, std::int64_t rows) {
    const StripedPass& pass = passes_[index];
    auto& next = nextRow_[index];
    while (next < pass.ofm.height && next < rows) {
      const std::int64_t begin = next;
      const std::int64_t end = std::min<std::int64_t>(begin + std::max(pass.blockHeight, 1), pass.ofm.height);
      const RowRange input = ifmRows(pass, begin, end);
      if (index > 0 && rowsPresent_[index] < input.end) {
        produce(index - 1, input.end);
        rowsPresent_[index] = std::max(rowsPresent_[index], nextRow_[index - 1]);
      }
      emit(index, input, end);
      next = end;
    }
  }

  void emit(std::size_t index, const RowRange& input, std::int64_t ofmEnd) {
    const bool first = index == 0;
    const bool last = index == passes_.size() - 1;
    const StripedPass& pass = passes_[index];
    if (first) {
      ifmRead_ = input.begin * rowBytes(pass.ifm, pass.ifmElementBytes);
    }
    if (last) {
      highestWrite_ = std::max(highestWrite_, ofmEnd * rowBytes(pass.ofm, pass.ofmElementBytes));
    }
    if (first || last) {
      const std::int64_t required = std::max<std::int64_t>(highestWrite_ - std::min(ifmRead_, ofmSize_), 0);
      minOverlap_ = std::min(minOverlap_, ofmSize_ - required);
    }
    if (first) {
      ifmRead_ = input.end * rowBytes(pass.ifm, pass.ifmElementBytes);
    }
  }

  std::span<const StripedPass> passes_;
  std::vector<std::int64_t> nextRow_;
  std::vector<std::int64_t> rowsPresent_;
  std::int64_t ifmRead_ = 0;
  std::int64_t ofmSize_ = 0;
  std::int64_t highestWrite_ = 0;
  std::int64_t minOverlap_ = std::numeric_limits<std::int64_t>::max();
};

} // namespace

std::int64_t allowedIfmOfmOverlap(std::span<const StripedPass> passes, std::int64_t ifmStorageBytes,
                                  std::int64_t ofmStorageBytes) {
  if (passes.empty()) {
    return 0;
  }
  const std::int64_t overlap = StripeReplay(passes, ifmStorageBytes, ofmStorageBytes).run();
  return overlap == std::numeric_limits<std::int64_t>::max() ? 0 : overlap;
}

} // namespace npu::dp
