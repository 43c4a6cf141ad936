// SPDX-License-Identifier: Apache-2.0
// IFM/OFM overlap of IFM-streamed cascades: the per-step composition the search keeps gives what a
// replay of every stripe of the cascade gives (Vela 2.1 calc_allowed_ofm_ifm_overlap_for_pass_list).
#include "ifm_ofm_overlap.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

using namespace npu;
using namespace npu::dp;

namespace {

/// The straightforward replay: the last pass runs stripe by stripe, each asking its producer for the
/// rows it reads; the OFM may overlap whatever the first pass has read for good.
class StripeReplay {
public:
  StripeReplay(const std::vector<StripedPass>& passes, std::int64_t ifmBytes, std::int64_t ofmBytes)
      : passes_(passes), produced_(passes.size(), 0), read_(ifmBytes), ofmBytes_(ofmBytes) {}

  std::int64_t run() {
    produce(passes_.size() - 1, std::numeric_limits<std::int64_t>::max());
    return least_ == std::numeric_limits<std::int64_t>::max() ? 0 : std::max<std::int64_t>(least_, 0);
  }

private:
  static std::int64_t rowBytes(const Shape4& shape, int elementBytes) {
    return std::int64_t{shape.width} * shape.depth * elementBytes;
  }

  void produce(std::size_t index, std::int64_t rows) {
    const StripedPass& pass = passes_[index];
    while (produced_[index] < pass.ofm.height && produced_[index] < rows) {
      const std::int64_t begin = produced_[index];
      const std::int64_t end = std::min<std::int64_t>(begin + std::max(pass.blockHeight, 1), pass.ofm.height);
      const RowRange input = ifmRowsRead(pass, begin, end);
      if (index > 0 && produced_[index - 1] < input.end) {
        produce(index - 1, input.end);
      }
      const bool first = index == 0;
      const bool last = index == passes_.size() - 1;
      if (first) {
        read_ = input.begin * rowBytes(pass.ifm, pass.ifmElementBytes);
      }
      if (last) {
        written_ = std::max(written_, end * rowBytes(pass.ofm, pass.ofmElementBytes));
      }
      if (first || last) {
        least_ = std::min(least_, ofmBytes_ - std::max<std::int64_t>(written_ - std::min(read_, ofmBytes_), 0));
      }
      if (first) {
        read_ = input.end * rowBytes(pass.ifm, pass.ifmElementBytes);
      }
      produced_[index] = end;
    }
  }

  const std::vector<StripedPass>& passes_;
  std::vector<std::int64_t> produced_;
  std::int64_t read_;
  std::int64_t ofmBytes_;
  std::int64_t written_ = 0;
  std::int64_t least_ = std::numeric_limits<std::int64_t>::max();
};

std::int64_t composedOverlap(const std::vector<StripedPass>& passes, std::int64_t ifmBytes, std::int64_t ofmBytes) {
  std::vector<std::int32_t> rows;
  for (std::size_t i = 1; i < passes.size(); ++i) {
    rows = extendFirstPassRows(rows, passes[i - 1], passes[i]);
  }
  return allowedIfmOfmOverlap(passes.front(), passes.back(), passes.size() == 1, rows, ifmBytes, ofmBytes);
}

/// A random cascade: each pass reads its producer's OFM with a random kernel, stride, padding,
/// upscaling and stripe height.
std::vector<StripedPass> randomCascade(std::mt19937& random) {
  const auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
  std::vector<StripedPass> passes(static_cast<std::size_t>(pick(1, 6)));
  Shape4 ifm{1, pick(1, 40), pick(1, 8), pick(1, 24)};
  for (StripedPass& pass : passes) {
    pass.ifm = ifm;
    pass.kernel.height = pick(1, 5);
    pass.kernel.strideY = pick(1, 2);
    pass.kernel.dilationY = pick(1, 2);
    pass.upscaling = pick(0, 5) == 0 ? 2 : 1;
    pass.paddingTop = pick(0, pass.kernel.height / 2);
    pass.ifmElementBytes = pick(1, 2);
    pass.ofmElementBytes = pick(1, 2);
    const int height = std::max((ifm.height * pass.upscaling + pass.kernel.strideY - 1) / pass.kernel.strideY, 1);
    pass.ofm = Shape4{1, height, pick(1, 8), pick(1, 24)};
    pass.blockHeight = pick(1, 9);
    ifm = pass.ofm;
  }
  return passes;
}

} // namespace

BOOST_AUTO_TEST_SUITE(dp_ifm_ofm_overlap)

BOOST_AUTO_TEST_CASE(a_pointwise_ifm_streamed_pass_may_write_its_ofm_over_all_but_one_stripe_of_its_ifm) {
  // 1x1 kernel, 8 rows of 4x16 bytes, stripes of 2 rows: the OFM may overlap everything the IFM has
  // released, i.e. all but the stripe being read.
  StripedPass pass;
  pass.ifm = Shape4{1, 8, 4, 16};
  pass.ofm = Shape4{1, 8, 4, 16};
  pass.blockHeight = 2;
  const std::int64_t bytes = 8 * 4 * 16;
  const std::int64_t rowBytes = 4 * 16;
  BOOST_TEST(allowedIfmOfmOverlap(pass, pass, true, {}, bytes, bytes) == bytes - 2 * rowBytes);
}

BOOST_AUTO_TEST_CASE(a_concatenation_copy_counts_its_writes_from_the_start_of_the_whole_output) {
  // The copy writes channels 16 to 31 of a 1x8x4x32 output: once e rows exist, Vela's highest write is
  // the end of row e of the whole tensor (128e bytes), not of the 16 channels it writes (64e). Stripes
  // of 2 rows read from row b on: the last stripe allows 1024 - (1024 - 6 * 64) bytes.
  StripedPass pass;
  pass.ifm = Shape4{1, 8, 4, 16};
  pass.ofm = Shape4{1, 8, 4, 16};
  pass.ofmTensor = Shape4{1, 8, 4, 32};
  pass.ofmOffset = Shape4{0, 0, 0, 16};
  pass.blockHeight = 2;
  BOOST_TEST(allowedIfmOfmOverlap(pass, pass, true, {}, 8 * 4 * 16, 8 * 4 * 32) == 384);
}

BOOST_AUTO_TEST_CASE(a_slice_part_counts_its_reads_from_its_offset_in_the_whole_input) {
  // The pass reads channels 16 to 31 of a 1x8x4x32 tensor: Vela's first read of a stripe from row b on
  // is at element (b, 0, 16) of that tensor (128b + 16 bytes), not at 64b. The first stripe (written 128)
  // then allows 512 - (128 - 16) bytes, and every later one the whole OFM.
  StripedPass pass;
  pass.ifm = Shape4{1, 8, 4, 16};
  pass.ofm = Shape4{1, 8, 4, 16};
  pass.ifmTensor = Shape4{1, 8, 4, 32};
  pass.ifmOffset = Shape4{0, 0, 0, 16};
  pass.blockHeight = 2;
  BOOST_TEST(allowedIfmOfmOverlap(pass, pass, true, {}, 8 * 4 * 32, 8 * 4 * 16) == 400);
}

BOOST_AUTO_TEST_CASE(the_composed_cascade_allows_what_a_replay_of_every_stripe_allows) {
  std::mt19937 random(14);
  int overlapping = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const auto passes = randomCascade(random);
    const auto bytes = [](const Shape4& shape, int element) { return shape.elements() * element; };
    const std::int64_t ifmBytes = bytes(passes.front().ifm, passes.front().ifmElementBytes);
    const std::int64_t ofmBytes = bytes(passes.back().ofm, passes.back().ofmElementBytes);
    const std::int64_t expected = StripeReplay(passes, ifmBytes, ofmBytes).run();
    BOOST_TEST_REQUIRE(composedOverlap(passes, ifmBytes, ofmBytes) == expected, "trial " << trial);
    overlapping += expected > 0 ? 1 : 0;
  }
  // The cases are not all trivial.
  BOOST_TEST(overlapping > 500);
}

BOOST_AUTO_TEST_CASE(a_cascade_of_two_thousand_passes_allows_what_its_replay_allows) {
  // A chain of 3x3 convolutions: the table composed over 2,000 steps stays exact.
  std::vector<StripedPass> passes(2000);
  for (StripedPass& pass : passes) {
    pass.ifm = Shape4{1, 16, 4, 8};
    pass.ofm = Shape4{1, 16, 4, 8};
    pass.kernel.height = 3;
    pass.paddingTop = 1;
    pass.blockHeight = 4;
  }
  const std::int64_t bytes = 16 * 4 * 8;
  BOOST_TEST(composedOverlap(passes, bytes, bytes) == StripeReplay(passes, bytes, bytes).run());
}

BOOST_AUTO_TEST_SUITE_END()
