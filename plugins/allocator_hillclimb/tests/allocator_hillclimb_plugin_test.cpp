// SPDX-License-Identifier: Apache-2.0
// The built allocator_hillclimb plugin, loaded through the plugin host like the CLI loads it (LoadedAllocator).
#include "allocator_common/hill_climb_allocation.hpp"

#include "support/loaded_allocator.hpp"

#include <boost/test/unit_test.hpp>

#include <vector>

namespace {

/// A case where the first allocation is not optimal, so the search runs (see hill_climb_allocation_test).
std::vector<npu::LiveRange> rangesThatNeedTheSearch() {
  return {{"r0", 1, 2, 16, 16}, {"r1", 2, 2, 64, 16}, {"r2", 0, 1, 48, 16}, {"r3", 0, 0, 32, 16}};
}

} // namespace

BOOST_AUTO_TEST_SUITE(allocator_hillclimb_plugin)

BOOST_AUTO_TEST_CASE(the_plugin_loads_as_an_allocator_with_vela_iteration_default) {
  const npu::test::LoadedAllocator loaded("allocator_hillclimb");
  const npu::OptionValues options = loaded.resolve();
  BOOST_TEST(options.getInt("max_iterations") == 99999);
  BOOST_TEST(options.getInt("memory_limit") == 0);
}

BOOST_AUTO_TEST_CASE(the_plugin_gives_the_addresses_of_the_hill_climb_allocation) {
  const npu::test::LoadedAllocator loaded("allocator_hillclimb");
  const auto ranges = rangesThatNeedTheSearch();
  const auto addresses = loaded.allocator->allocate(ranges, loaded.resolve());
  BOOST_TEST(addresses == (std::vector<std::int64_t>{64, 0, 0, 48}), boost::test_tools::per_element());
  BOOST_TEST(npu::verifyAllocation(ranges, addresses).empty());
}

BOOST_AUTO_TEST_CASE(a_memory_limit_and_iteration_count_reach_the_search) {
  const npu::test::LoadedAllocator loaded("allocator_hillclimb");
  const auto ranges = rangesThatNeedTheSearch();
  const npu::test::GivenOptions given{{"max_iterations", {"3", {}}}, {"memory_limit", {"16", {}}}};
  const auto addresses = loaded.allocator->allocate(ranges, loaded.resolve(given));
  const auto expected = allocation::allocateByHillClimb(ranges, {.maxIterations = 3, .memoryLimit = 16}).addresses;
  BOOST_TEST(addresses == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(unknown_or_malformed_options_are_refused) {
  const npu::test::LoadedAllocator loaded("allocator_hillclimb");
  BOOST_CHECK_THROW(static_cast<void>(loaded.resolve({{"iterations", {"3", {}}}})), npu::Error);
  BOOST_CHECK_THROW(static_cast<void>(loaded.resolve({{"max_iterations", {"many", {}}}})), npu::Error);
  BOOST_CHECK_THROW(static_cast<void>(loaded.allocator->allocate(rangesThatNeedTheSearch(),
                                                                 loaded.resolve({{"max_iterations", {"-1", {}}}}))),
                    npu::Error);
}

BOOST_AUTO_TEST_CASE(no_live_ranges_give_no_addresses) {
  const npu::test::LoadedAllocator loaded("allocator_hillclimb");
  BOOST_TEST(loaded.allocator->allocate({}, loaded.resolve()).empty());
}

BOOST_AUTO_TEST_SUITE_END()
