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

BOOST_AUTO_TEST_CASE(max_and_min_schedules_planned_together_equal_those_planned_one_by_one) {
  // 32 rows: every min stripe is thinner than its OFM; 2 rows: each min stripe is the whole OFM (the
  // first convolution's next one strides by two), so MAX and MIN share their plans.
  for (const int rows : {32, 2}) {
    npu::test::GraphBuilder builder;
    const TensorId a = builder.conv(builder.input({1, rows, 32, 8}), 64);
    const TensorId b = builder.conv(a, 16, 3, 2);
    builder.output(builder.conv(builder.addConstant(b, false, "bias_add"), 8));
    const test::Fixture f(builder, npu::test::FakeSystem{});
    const auto [max, min] = maxAndMinimalSchedules(*f.context, *f.placement);
    const auto same = [](const SchedulePlan& together, const SchedulePlan& alone) {
      BOOST_TEST(together.label == alone.label);
      for (int index = 0; index < 4; ++index) {
        const OperationPlan& x = together.at(index);
        const OperationPlan& y = alone.at(index);
        BOOST_TEST(x.ofmStripe == y.ofmStripe);
        BOOST_TEST(x.ifmStripe == y.ifmStripe);
        BOOST_TEST((x.block == y.block));
        BOOST_TEST(x.cycles == y.cycles);
        BOOST_TEST(x.depthSlices == y.depthSlices);
        BOOST_REQUIRE((x.weights == nullptr) == (y.weights == nullptr));
        if (x.weights) {
          BOOST_TEST(x.weights->totalBytes == y.weights->totalBytes);
        }
      }
    };
    same(max, maxSchedule(*f.context, *f.placement));
    same(min, minimalSchedule(*f.context, *f.placement));
    if (rows == 2) {
      BOOST_TEST(min.at(0).ofmStripe == max.at(0).ofmStripe);
    }
  }
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
