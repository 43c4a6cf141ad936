// SPDX-License-Identifier: Apache-2.0
#include "plan_factory.hpp"

#include "cascade_fixture.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace npu::cascade;

BOOST_AUTO_TEST_SUITE(plan_factory)

BOOST_AUTO_TEST_CASE(the_max_schedule_runs_every_operation_whole) {
  const test::Fixture f(test::wideMiddleChain(), npu::test::FakeSystem{});
  const SchedulePlan plan = maxSchedule(*f.context, *f.placement);
  for (const auto& op : f.view->operations()) {
    BOOST_TEST(plan.at(op.index).ofmStripe == op.ofm.shape);
    BOOST_TEST(plan.at(op.index).ifmStripe == op.ifm.shape);
    BOOST_TEST(plan.at(op.index).cycles > 0.0);
  }
  BOOST_REQUIRE(plan.at(0).weights != nullptr);
  BOOST_TEST((plan.at(0).weights->depthSlices == std::vector<int>{0, 64}));
}

BOOST_AUTO_TEST_CASE(min_schedule_stripes_are_the_next_operations_vertical_stride) {
  npu::test::GraphBuilder builder;
  const TensorId a = builder.conv(builder.input({1, 32, 32, 8}), 16);
  const TensorId b = builder.conv(a, 16, 3, 2);
  builder.output(builder.conv(b, 16));
  const test::Fixture f(builder, npu::test::FakeSystem{});
  const SchedulePlan plan = minimalSchedule(*f.context, *f.placement);
  BOOST_TEST(plan.at(0).ofmStripe.height == 2); // the next convolution strides by two
  BOOST_TEST(plan.at(1).ofmStripe.height == 1);
  BOOST_TEST(plan.at(2).ofmStripe.height == 1);
  // Three rows of the IFM make one row of a 3x3 convolution's output; a stride of two needs five for two.
  BOOST_TEST(plan.at(0).ifmStripe == (Shape4{1, 4, 32, 8}));
  BOOST_TEST(plan.at(1).ifmStripe.height == 3);
}

BOOST_AUTO_TEST_CASE(nearest_neighbour_upscaling_gets_even_min_stripes) {
  npu::test::GraphBuilder builder;
  const TensorId a = builder.maxPool(builder.input({1, 16, 16, 16}), 1, 1);
  builder.output(builder.conv(a, 16));
  builder.subgraph().operations[0].ifmResampling = Resampling::Nearest;
  const test::Fixture f(builder, npu::test::FakeSystem{});
  const SchedulePlan plan = minimalSchedule(*f.context, *f.placement);
  BOOST_TEST(plan.at(0).ofmStripe.height == 2);
}

BOOST_AUTO_TEST_CASE(striped_proposals_derive_each_stripe_from_the_next_operations_ifm_stripe) {
  npu::test::GraphBuilder builder;
  const TensorId a = builder.conv(builder.input({1, 32, 32, 8}), 16);
  builder.output(builder.conv(a, 16, 3, 2));
  const test::Fixture f(builder, npu::test::FakeSystem{});
  const SchedulePlan reference = minimalSchedule(*f.context, *f.placement);
  const SchedulePlan plan = stripedSchedule(*f.context, *f.placement, Shape4{1, 4, 16, 16}, "OPTIMIZED_0", reference);
  BOOST_TEST(plan.at(1).ofmStripe == (Shape4{1, 4, 16, 16}));
  BOOST_TEST(plan.at(0).ofmStripe == (Shape4{1, 8, 32, 16})); // four rows at stride two
  BOOST_TEST(plan.label == "OPTIMIZED_0");
}

BOOST_AUTO_TEST_SUITE_END()
