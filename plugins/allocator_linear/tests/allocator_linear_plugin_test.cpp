// SPDX-License-Identifier: Apache-2.0
// The built allocator_linear plugin, loaded through the plugin host like the CLI loads it (LoadedAllocator).
#include "allocator_common/linear_allocation.hpp"

#include "support/loaded_allocator.hpp"

#include <boost/test/unit_test.hpp>

#include <vector>

BOOST_AUTO_TEST_SUITE(allocator_linear_plugin)

BOOST_AUTO_TEST_CASE(the_plugin_loads_as_an_allocator_without_options) {
  const npu::test::LoadedAllocator loaded("allocator_linear");
  BOOST_TEST(loaded.allocator->options().empty());
  BOOST_CHECK_THROW(static_cast<void>(loaded.resolve({{"max_iterations", {"3", {}}}})), npu::Error);
}

BOOST_AUTO_TEST_CASE(the_plugin_gives_the_addresses_of_the_linear_allocation) {
  const npu::test::LoadedAllocator loaded("allocator_linear");
  const std::vector<npu::LiveRange> ranges{
      {"a", 0, 2, 100, 16}, {"b", 1, 3, 40, 16}, {"c", 3, 5, 64, 16}, {"d", 4, 4, 8, 16}};
  const auto addresses = loaded.allocator->allocate(ranges, loaded.resolve());
  BOOST_TEST(addresses == allocation::allocateLinearly(ranges), boost::test_tools::per_element());
  BOOST_TEST(npu::verifyAllocation(ranges, addresses).empty());
}

BOOST_AUTO_TEST_CASE(no_live_ranges_give_no_addresses) {
  const npu::test::LoadedAllocator loaded("allocator_linear");
  BOOST_TEST(loaded.allocator->allocate({}, loaded.resolve()).empty());
}

BOOST_AUTO_TEST_SUITE_END()
