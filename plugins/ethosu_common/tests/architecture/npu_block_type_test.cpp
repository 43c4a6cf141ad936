// SPDX-License-Identifier: Apache-2.0
#include "ethosu/architecture/npu_block_type.hpp"

#include <boost/test/unit_test.hpp>

namespace {

/// The block type the framework's categories imply for an operation type.
ethosu::NpuBlockType blockTypeFromCategories(npu::OpType type) {
  using npu::OpCategory;
  if (npu::is(type, OpCategory::Convolution)) {
    return ethosu::NpuBlockType::ConvolutionMxN;
  }
  if (npu::is(type, OpCategory::DepthwiseConvolution)) {
    return ethosu::NpuBlockType::ConvolutionDepthWise;
  }
  if (npu::is(type, OpCategory::VectorProduct)) {
    return ethosu::NpuBlockType::VectorProduct;
  }
  if (npu::is(type, OpCategory::Pooling)) {
    return ethosu::NpuBlockType::Pooling;
  }
  if (npu::isElementwise(type)) {
    return ethosu::NpuBlockType::ElementWise;
  }
  if (npu::is(type, OpCategory::ReduceSum)) {
    return ethosu::NpuBlockType::ReduceSum;
  }
  if (npu::is(type, OpCategory::Dma)) {
    return ethosu::NpuBlockType::Dma;
  }
  return ethosu::NpuBlockType::Default;
}

} // namespace

BOOST_AUTO_TEST_SUITE(npu_block_type)

BOOST_AUTO_TEST_CASE(block_types_follow_vela_for_the_common_operations) {
  using ethosu::NpuBlockType;
  BOOST_TEST((ethosu::npuBlockTypeOf(npu::OpType::Conv2DBias) == NpuBlockType::ConvolutionMxN));
  BOOST_TEST((ethosu::npuBlockTypeOf(npu::OpType::DepthwiseConv2DBias) == NpuBlockType::ConvolutionDepthWise));
  BOOST_TEST((ethosu::npuBlockTypeOf(npu::OpType::FullyConnected) == NpuBlockType::VectorProduct));
  BOOST_TEST((ethosu::npuBlockTypeOf(npu::OpType::ResizeNearestNeighbor) == NpuBlockType::Pooling));
  BOOST_TEST((ethosu::npuBlockTypeOf(npu::OpType::SHR) == NpuBlockType::ElementWise));
  BOOST_TEST((ethosu::npuBlockTypeOf(npu::OpType::Memcpy) == NpuBlockType::Dma));
  BOOST_TEST((ethosu::npuBlockTypeOf(npu::OpType::Softmax) == NpuBlockType::Default));
}

BOOST_AUTO_TEST_CASE(the_framework_categories_mirror_the_block_types_of_every_operation_type) {
  for (int index = 0; index <= static_cast<int>(npu::OpType::Unknown); ++index) {
    const auto type = static_cast<npu::OpType>(index);
    BOOST_TEST_CONTEXT(npu::nameOf(type)) {
      BOOST_TEST(ethosu::nameOf(ethosu::npuBlockTypeOf(type)) == ethosu::nameOf(blockTypeFromCategories(type)));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
