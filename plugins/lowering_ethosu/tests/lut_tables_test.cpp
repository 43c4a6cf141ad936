// SPDX-License-Identifier: Apache-2.0
// Lookup tables equal Vela 3.10's. The expected sums and entries were computed by running Vela's own
// table code (lut.py, softmax.py, tflite_graph_optimiser.py on fp_math.py) for the same quantisations;
// the 16-bit softmax tables are Vela's constant EXP_LUT and ONE_OVER_ONE_PLUS_X_LUT.
#include "fixed_point.hpp"
#include "lut_tables.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

using namespace npu;
using namespace ethosu::lowering;

namespace {

Quantisation quantisation(double scale, std::int64_t zeroPoint) {
  Quantisation result;
  result.scale = {scale};
  result.zeroPoint = {zeroPoint};
  return result;
}

/// Table values as the tensor stores them (uint32 tables wrap negative sums of slope and base).
std::vector<std::int64_t> stored(const LutTable& table) {
  std::vector<std::int64_t> values = table.values;
  if (table.type == DataType::UInt32) {
    for (std::int64_t& value : values) {
      value = static_cast<std::int64_t>(static_cast<std::uint32_t>(value));
    }
  }
  return values;
}

void checkTable(const LutTable& table, std::int64_t expectedSum,
                const std::vector<std::pair<std::size_t, std::int64_t>>& expectedEntries) {
  const std::vector<std::int64_t> values = stored(table);
  BOOST_TEST(std::accumulate(values.begin(), values.end(), std::int64_t{0}) == expectedSum);
  for (const auto& [index, value] : expectedEntries) {
    BOOST_TEST_CONTEXT("entry " << index) {
      BOOST_TEST(values.at(index) == value);
    }
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(lut_tables)

BOOST_AUTO_TEST_CASE(the_hard_swish_table_is_velas_fixed_point_table) {
  checkTable(hardSwishTable(quantisation(0.0235, -5), quantisation(0.0117, -100), DataType::Int8), -13603,
             {{0, -105}, {64, -128}, {127, -96}, {128, -95}, {200, 24}, {255, 127}});
}

BOOST_AUTO_TEST_CASE(the_leaky_relu_table_is_velas_fixed_point_table) {
  checkTable(leakyReluTable(quantisation(0.05, 3), quantisation(0.04, -2), DataType::Int8, 0.1, std::nullopt), 7817,
             {{0, -18}, {64, -10}, {127, -3}, {128, -2}, {200, 84}, {255, 127}});
}

BOOST_AUTO_TEST_CASE(the_rsqrt_table_follows_the_reference_kernels_inverse_square_root) {
  checkTable(rsqrtTable(quantisation(0.02, -128), quantisation(0.1, -128)), -30350,
             {{0, 127}, {1, -57}, {64, -119}, {127, -122}, {200, -123}, {255, -124}});
}

BOOST_AUTO_TEST_CASE(the_inverse_square_root_matches_velas_table_of_the_reference_output) {
  // Entries of Vela lut.py RSQRT_LUT, 1 / sqrt(v) in Q12.20 as the reference kernel computes it.
  const std::vector<std::pair<std::int64_t, std::int64_t>> expected{
      {1, 0x00100000}, {2, 0x000b504e}, {3, 0x00093cd4}, {4, 0x00080000}, {255, 0x00010080}};
  for (const auto& [input, value] : expected) {
    const fixed_point::InverseSqrt root = fixed_point::inverseSqrtMultiplier(input);
    BOOST_TEST(fixed_point::multiplyByQuantizedMultiplierLeftShift(1, root.multiplier, root.shift + 20) == value);
  }
}

BOOST_AUTO_TEST_CASE(the_8_bit_softmax_exp_table_is_velas_fixed_point_exp) {
  checkTable(softmaxExpTable(1.0, 0.00390625), 348191129499,
             {{0, 793107307}, {64, 1018369940}, {127, 1302515042}, {200, 1732305298}, {255, 2147483647}});
}

BOOST_AUTO_TEST_CASE(a_16_bit_exp_table_interpolates_like_velas) {
  checkTable(lut16([](double x) { return std::exp(x); }, quantisation(0.0005, 0), quantisation(0.001, 0)), 2154515152,
             {{0, 0}, {200, 131100}, {255, 4064169}, {256, 4326375}, {511, 32767}});
}

BOOST_AUTO_TEST_CASE(the_16_bit_softmax_tables_are_velas_constant_tables) {
  checkTable(softmaxInt16ExpTable(), 2148948303,
             {{0, 2}, {64, 5}, {128, 65554}, {254, 327892}, {255, 262361}, {511, 41581957}});
  checkTable(softmaxInt16ReciprocalTable(), 2197961216523,
             {{0, 4290871295}, {1, 4290805696}, {128, 4292372070}, {255, 4293088626}, {511, 4293935120}});
}

BOOST_AUTO_TEST_SUITE_END()
