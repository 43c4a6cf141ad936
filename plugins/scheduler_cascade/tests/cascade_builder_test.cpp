// SPDX-License-Identifier: Apache-2.0
#include "cascade_builder.hpp"

#include "cascade_fixture.hpp"
#include "memory_snapshot.hpp"
#include "plan_factory.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace npu::cascade;

namespace {

/// Vela's build_cascades_for_min_schedule on the fixture, with a guiding limit.
SchedulePlan cascadedMinSchedule(const test::Fixture& f, std::int64_t limit) {
  SchedulePlan maxTemplate = maxSchedule(*f.context, *f.placement);
  SchedulePlan minPlan = minimalSchedule(*f.context, *f.placement);
  updateMemorySnapshot(*f.context, *f.placement, minPlan);
  std::map<int, std::int64_t> nonLocal;
  std::vector<int> members;
  for (const auto& op : f.view->operations()) {
    const std::int64_t own =
        op.ifm.bytes + (scheduling::inputOverwrittenByOfm(*f.view, op.index) ? 0 : op.ofm.bytes);
    nonLocal[op.index] = minPlan.snapshotAt(minPlan.at(op.index).timeIndex) - own;
    members.push_back(op.index);
  }
  CascadeBuilder(*f.context, members, nonLocal).build(minPlan, maxTemplate, limit);
  return minPlan;
}

} // namespace

BOOST_AUTO_TEST_SUITE(cascade_builder)

BOOST_AUTO_TEST_CASE(a_rolling_buffer_holds_a_producer_stripe_and_a_consumer_stripe_in_the_brick_format) {
  const Shape4 buffer = rollingBufferShape(Shape4{1, 2, 16, 24}, Shape4{1, 3, 14, 24});
  BOOST_TEST(buffer == (Shape4{1, 6, 16, 32}));
}

BOOST_AUTO_TEST_CASE(cascade_builder_requests_a_rolling_buffer_for_a_binary_op) {
  const test::Fixture f(test::wideMiddleChain(), npu::test::FakeSystem{});
  const SchedulePlan plan = cascadedMinSchedule(f, 1000);
  BOOST_REQUIRE(plan.cascades.size() == 1U);
  const CascadeSpan& cascade = plan.cascades.begin()->second;
  BOOST_TEST(cascade.start == 0);
  BOOST_TEST(cascade.end == 2);
  // The addition (operation 1) reads its IFM from a rolling buffer of two one-row stripes.
  BOOST_REQUIRE(cascade.rollingBuffers.contains(1));
  BOOST_TEST(cascade.rollingBuffers.at(1) == (Shape4{1, 2, 32, 64}));
  BOOST_TEST(cascade.rollingBuffers.at(2) == (Shape4{1, 6, 32, 64}));
  for (int index = 0; index < 3; ++index) {
    BOOST_TEST(plan.at(index).cascade == 2);
  }
  // Input whole, both rolling buffers, output whole.
  BOOST_TEST(cascade.memoryUsage == 8192 + 2 * 32 * 64 + 6 * 32 * 64 + 8192);
}

BOOST_AUTO_TEST_CASE(nothing_is_cascaded_when_everything_fits_the_guiding_limit) {
  const test::Fixture f(test::wideMiddleChain(), npu::test::FakeSystem{});
  const SchedulePlan plan = cascadedMinSchedule(f, 1 << 20);
  BOOST_TEST(plan.cascades.empty());
  BOOST_TEST(plan.at(0).ofmStripe == f.view->operation(0).ofm.shape); // the MAX plan
}

BOOST_AUTO_TEST_CASE(a_binary_op_with_a_constant_first_operand_is_not_cascaded) {
  npu::test::GraphBuilder builder;
  const TensorId a = builder.conv(builder.input({1, 32, 32, 8}), 64);
  builder.output(builder.conv(builder.addConstant(a, true), 8));
  const test::Fixture f(builder, npu::test::FakeSystem{});
  const CascadeBuilder cascades(*f.context, {0, 1, 2}, {});
  const OperationPlan striped = makeOperationPlan(*f.context, f.view->operation(1), Shape4{1, 1, 32, 64});
  BOOST_TEST(f.view->operation(1).reversedOperands);
  BOOST_TEST(!cascades.isCascadable(f.view->operation(1), striped));
}

BOOST_AUTO_TEST_SUITE_END()
