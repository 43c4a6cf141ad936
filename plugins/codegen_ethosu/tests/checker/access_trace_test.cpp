// SPDX-License-Identifier: Apache-2.0
#include "checker/access_trace.hpp"

#include <boost/test/unit_test.hpp>

using namespace ethosu::codegen;

namespace {

TraceEvent dma(int region, std::int64_t start, std::int64_t end) {
  return TraceEvent{Engine::Dma, false, 0, "DMA", {{0, 0, end - start, false}, {region, start, end, true}}};
}

TraceEvent kernel(std::vector<MemoryAccess> accesses) {
  return TraceEvent{Engine::Kernel, false, 0, "kernel", std::move(accesses)};
}

template <typename... Events>
std::vector<TraceEvent> trace(Events... events) {
  return {std::move(events)...};
}

TraceLimits limits() {
  TraceLimits result;
  result.regionBytes = {{0, 1024}, {1, 1024}};
  result.initialised = {{0, 0, 1024, false}, {1, 0, 64, false}};
  return result;
}

} // namespace

BOOST_AUTO_TEST_SUITE(access_trace)

BOOST_AUTO_TEST_CASE(a_kernel_reading_weights_a_dma_still_copies_is_reported) {
  const auto events = trace(dma(1, 128, 256), kernel({{1, 128, 256, false}, {1, 512, 600, true}}));
  const auto violations = checkTrace(events, limits());
  BOOST_TEST_REQUIRE(violations.size() == 1U);
  BOOST_TEST(violations[0].event == 1U);
  BOOST_TEST(violations[0].message.find("wait") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_dma_wait_between_the_copy_and_the_kernel_makes_the_stream_valid) {
  const auto events = trace(dma(1, 128, 256), waitFor(Engine::Dma, 0),
                                       kernel({{1, 128, 256, false}, {1, 512, 600, true}}));
  BOOST_TEST(checkTrace(events, limits()).empty());
}

BOOST_AUTO_TEST_CASE(a_dma_overwriting_what_a_running_kernel_reads_needs_a_kernel_wait) {
  auto events = trace(kernel({{1, 0, 64, false}, {1, 512, 600, true}}), dma(1, 0, 32));
  BOOST_TEST(checkTrace(events, limits()).size() == 1U);
  events.insert(events.begin() + 1, waitFor(Engine::Kernel, 0));
  BOOST_TEST(checkTrace(events, limits()).empty());
}

BOOST_AUTO_TEST_CASE(reading_scratch_nothing_wrote_is_reported_with_its_address) {
  const auto events = trace(kernel({{1, 0, 100, false}, {1, 512, 600, true}}));
  const auto violations = checkTrace(events, limits());
  BOOST_TEST_REQUIRE(violations.size() == 1U);
  BOOST_TEST(violations[0].message.find("0x40") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_access_beyond_its_region_or_in_an_unknown_region_is_reported) {
  const auto events = trace(kernel({{1, 0, 64, false}, {1, 1000, 1100, true}}),
                                       kernel({{5, 0, 16, true}}));
  BOOST_TEST(checkTrace(events, limits()).size() == 2U);
}

BOOST_AUTO_TEST_CASE(an_output_never_written_is_reported) {
  TraceLimits withOutput = limits();
  withOutput.mustBeWritten = {{1, 512, 640, true}};
  const auto events = trace(kernel({{1, 0, 64, false}, {1, 512, 600, true}}));
  const auto violations = checkTrace(events, withOutput);
  BOOST_TEST_REQUIRE(violations.size() == 1U);
  BOOST_TEST(violations[0].message.find("0x258") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_oldest_kernel_finishes_when_more_start_than_the_hardware_keeps_running) {
  const auto events = trace(kernel({{1, 0, 64, false}, {1, 512, 600, true}}),
                                       kernel({{1, 0, 64, false}, {1, 700, 800, true}}),
                                       kernel({{1, 0, 64, false}, {1, 800, 900, true}}), dma(1, 512, 600));
  BOOST_TEST(checkTrace(events, limits()).empty());
}

BOOST_AUTO_TEST_SUITE_END()
