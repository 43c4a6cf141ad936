// SPDX-License-Identifier: Apache-2.0
// PythonRandom reproduces CPython's `random` stream; the expected numbers are what CPython 3.11 prints
// for the same calls.
#include "allocator_common/python_random.hpp"

#include <boost/test/unit_test.hpp>

#include <vector>

BOOST_AUTO_TEST_SUITE(python_random)

BOOST_AUTO_TEST_CASE(seed_one_gives_cpython_words) {
  // random.seed(1); [random.getrandbits(32) for _ in range(4)]
  allocation::PythonRandom random(1);
  const std::vector<std::uint64_t> expected{577090037U, 2444712010U, 3639700191U, 3445702192U};
  for (const std::uint64_t word : expected) {
    BOOST_TEST(random.bits(32) == word);
  }
}

BOOST_AUTO_TEST_CASE(seed_one_gives_cpython_randint_draws) {
  // random.seed(1); [random.randint(0, 100) for _ in range(8)], the draws Vela's hill-climb starts with
  allocation::PythonRandom random(1);
  const std::vector<std::int64_t> expected{17, 72, 97, 8, 32, 15, 63, 97};
  for (const std::int64_t value : expected) {
    BOOST_TEST(random.integerBetween(0, 100) == value);
  }
}

BOOST_AUTO_TEST_CASE(another_seed_gives_its_own_cpython_stream) {
  // random.seed(7); [random.randint(0, 6) for _ in range(6)]
  allocation::PythonRandom random(7);
  const std::vector<std::int64_t> expected{2, 1, 3, 5, 0, 0};
  for (const std::int64_t value : expected) {
    BOOST_TEST(random.integerBetween(0, 6) == value);
  }
}

BOOST_AUTO_TEST_CASE(wide_draws_fill_words_from_the_least_significant_end) {
  // random.seed(1); random.getrandbits(64), random.getrandbits(40), random.getrandbits(1)
  allocation::PythonRandom random(1);
  BOOST_TEST(random.bits(64) == 10499958131665514997ULL);
  BOOST_TEST(random.bits(40) == 884107995871ULL);
  BOOST_TEST(random.bits(1) == 1U);
}

BOOST_AUTO_TEST_CASE(the_state_is_regenerated_after_624_words) {
  // random.seed(1); 624 words skipped; the next two
  allocation::PythonRandom random(1);
  for (int i = 0; i < 624; ++i) {
    static_cast<void>(random.nextWord());
  }
  BOOST_TEST(random.nextWord() == 1360367077U);
  BOOST_TEST(random.nextWord() == 3404757168U);
}

BOOST_AUTO_TEST_CASE(single_value_and_negative_ranges_consume_draws_like_cpython) {
  // random.seed(1); random.randint(-5, 5), random.randint(10, 10), random.getrandbits(32)
  allocation::PythonRandom random(1);
  BOOST_TEST(random.integerBetween(-5, 5) == -3);
  BOOST_TEST(random.integerBetween(10, 10) == 10);
  BOOST_TEST(random.bits(32) == 1095513148U);
}

BOOST_AUTO_TEST_CASE(zero_bits_draw_nothing) {
  allocation::PythonRandom drawing(1);
  allocation::PythonRandom reference(1);
  BOOST_TEST(drawing.bits(0) == 0U);
  BOOST_TEST(drawing.nextWord() == reference.nextWord());
}

BOOST_AUTO_TEST_SUITE_END()
