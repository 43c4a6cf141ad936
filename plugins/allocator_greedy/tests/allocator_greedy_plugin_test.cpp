// The built allocator_greedy plugin, loaded through the plugin host like the CLI loads it.
#include "allocator_common/greedy_allocation.hpp"

#include "npu/host/plugin_host.hpp"
#include "npu/plugin/allocator.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

using GivenOptions = std::map<std::string, std::pair<std::string, npu::SourceLocation>>;

struct LoadedPlugin {
  npu::PluginHost host;
  const npu::AllocatorPlugin* allocator = nullptr;

  LoadedPlugin() {
    BOOST_TEST_REQUIRE(host.loadFile(NPU_ALLOCATOR_PLUGIN_FILE));
    allocator = &host.require<npu::AllocatorPlugin>(npu::PluginKind::Allocator, "allocator_greedy", {});
  }

  [[nodiscard]] npu::OptionValues resolve(const GivenOptions& given = {}) const {
    return npu::resolveOptions(allocator->options(), given, "allocator_greedy");
  }
};

} // namespace

BOOST_AUTO_TEST_SUITE(allocator_greedy_plugin)

BOOST_AUTO_TEST_CASE(the_plugin_loads_as_an_allocator_without_options) {
  const LoadedPlugin loaded;
  BOOST_TEST(loaded.allocator->options().empty());
  BOOST_CHECK_THROW(static_cast<void>(loaded.resolve({{"max_iterations", {"3", {}}}})), npu::Error);
}

BOOST_AUTO_TEST_CASE(the_plugin_gives_the_addresses_of_the_greedy_allocation) {
  const LoadedPlugin loaded;
  const std::vector<npu::LiveRange> ranges{
      {"a", 0, 2, 100, 16}, {"b", 1, 3, 40, 16}, {"c", 3, 5, 64, 16}, {"d", 4, 4, 8, 16}};
  const auto addresses = loaded.allocator->allocate(ranges, loaded.resolve());
  BOOST_TEST(addresses == allocation::allocateGreedily(ranges), boost::test_tools::per_element());
  BOOST_TEST(npu::verifyAllocation(ranges, addresses).empty());
}

BOOST_AUTO_TEST_CASE(no_live_ranges_give_no_addresses) {
  const LoadedPlugin loaded;
  BOOST_TEST(loaded.allocator->allocate({}, loaded.resolve()).empty());
}

BOOST_AUTO_TEST_SUITE_END()
