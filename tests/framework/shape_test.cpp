// SPDX-License-Identifier: Apache-2.0
#include "npu/core/shape.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(shape)

BOOST_AUTO_TEST_CASE(lower_ranks_are_padded_with_leading_ones) {
  BOOST_TEST(npu::Shape4::fromShape(npu::Shape{10}) == npu::Shape4(1, 1, 1, 10));
  BOOST_TEST(npu::Shape4::fromShape(npu::Shape{3, 10}) == npu::Shape4(1, 1, 3, 10));
  BOOST_TEST(npu::Shape4::fromShape(npu::Shape{}) == npu::Shape4(1, 1, 1, 1));
}

BOOST_AUTO_TEST_CASE(ranks_above_four_fold_into_the_batch) {
  BOOST_TEST(npu::Shape4::fromShape(npu::Shape{2, 3, 4, 5, 6}) == npu::Shape4(6, 4, 5, 6));
}

BOOST_AUTO_TEST_CASE(rounding_and_block_counts_work_per_dimension) {
  const npu::Shape4 shape{1, 7, 9, 17};
  BOOST_TEST(npu::roundUp(shape, {1, 1, 1, 16}) == npu::Shape4(1, 7, 9, 32));
  BOOST_TEST(npu::divRoundUp(shape, {1, 2, 4, 16}) == npu::Shape4(1, 4, 3, 2));
  BOOST_TEST(shape.elements() == 7 * 9 * 17);
}

BOOST_AUTO_TEST_SUITE_END()
