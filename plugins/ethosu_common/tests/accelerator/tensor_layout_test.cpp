// SPDX-License-Identifier: Apache-2.0
#include "ethosu/accelerator/tensor_layout.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(tensor_layout)

BOOST_AUTO_TEST_CASE(nhcwb16_rounds_the_depth_to_sixteen) {
  const ethosu::TensorLayout layout;
  BOOST_TEST(layout.storageRounding(npu::TensorFormat::NHCWB16) == npu::Shape4(1, 1, 1, 16));
  BOOST_TEST(layout.storageRounding(npu::TensorFormat::NHWC) == npu::Shape4(1, 1, 1, 1));
  BOOST_TEST(layout.storageBytes({1, 8, 8, 20}, npu::DataType::Int8, npu::TensorFormat::NHCWB16) == 8 * 8 * 32);
  BOOST_TEST(layout.storageBytes({1, 8, 8, 20}, npu::DataType::Int8, npu::TensorFormat::NHWC) == 8 * 8 * 20);
}

BOOST_AUTO_TEST_CASE(storage_is_a_multiple_of_sixteen_bytes_and_never_empty) {
  const ethosu::TensorLayout layout;
  BOOST_TEST(layout.storageBytes({1, 1, 1, 10}, npu::DataType::Int8, npu::TensorFormat::NHWC) == 16);
  BOOST_TEST(layout.storageBytes({1, 1, 1, 10}, npu::DataType::Int16, npu::TensorFormat::NHWC) == 32);
  BOOST_TEST(layout.storageBytes({1, 1, 1, 1}, npu::DataType::Int32, npu::TensorFormat::NHCWB16) == 64);
  BOOST_TEST(layout.storageBytes({1, 0, 1, 1}, npu::DataType::Int8, npu::TensorFormat::NHWC) == 16);
}

BOOST_AUTO_TEST_CASE(both_ethos_u_formats_are_supported) {
  const ethosu::TensorLayout layout;
  BOOST_TEST(layout.supportsFormat(npu::TensorFormat::NHWC));
  BOOST_TEST(layout.supportsFormat(npu::TensorFormat::NHCWB16));
}

BOOST_AUTO_TEST_SUITE_END()
