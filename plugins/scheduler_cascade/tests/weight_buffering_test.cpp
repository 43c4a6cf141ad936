// SPDX-License-Identifier: Apache-2.0
#include "weight_buffering.hpp"

#include "cascade_fixture.hpp"
#include "memory_snapshot.hpp"
#include "plan_factory.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace npu::cascade;

namespace {

/// MAX schedule with its snapshot, buffered within `limit`.
SchedulePlan bufferedMax(const test::Fixture& f, std::int64_t limit) {
  SchedulePlan plan = maxSchedule(*f.context, *f.placement);
  updateMemorySnapshot(*f.context, *f.placement, plan);
  return proposeBuffering(*f.context, *f.placement, plan, limit);
}

npu::test::GraphBuilder convChain(int depth) {
  npu::test::GraphBuilder builder;
  TensorId tensor = builder.input({1, 16, 16, 16});
  for (int i = 0; i < 3; ++i) {
    tensor = builder.conv(tensor, depth);
  }
  builder.output(tensor);
  return builder;
}

} // namespace

BOOST_AUTO_TEST_SUITE(weight_buffering)

BOOST_AUTO_TEST_CASE(weights_in_slow_memory_are_buffered_in_fast_storage) {
  const test::Fixture f(convChain(32), npu::test::FakeSystem{});
  const SchedulePlan plan = bufferedMax(f, std::int64_t{1} << 32);
  BOOST_TEST(plan.label == "MAX_BUFFERED");
  for (int index = 0; index < 3; ++index) {
    const OperationPlan& op = plan.at(index);
    BOOST_TEST(!op.bufferedWeights.empty());
    BOOST_TEST(op.fullWeightTransferCycles > 0.0);
  }
}

BOOST_AUTO_TEST_CASE(the_first_operation_slices_its_weights_to_start_early) {
  const test::Fixture f(convChain(64), npu::test::FakeSystem{});
  const SchedulePlan plan = bufferedMax(f, std::int64_t{1} << 32);
  const OperationPlan& first = plan.at(0);
  // Nothing runs before it, so the first depth slice is as small as allowed.
  BOOST_TEST(first.depthSlices.size() > 2U);
  BOOST_TEST(first.depthSlices[1] == 16);
  BOOST_TEST(first.bufferedWeights.size() == 2U);
  BOOST_TEST(first.bufferedWeights[0].doubleBuffer);
}

BOOST_AUTO_TEST_CASE(without_room_beside_the_feature_maps_weights_stay_where_they_are_stored) {
  const test::Fixture f(convChain(32), npu::test::FakeSystem{});
  SchedulePlan plan = maxSchedule(*f.context, *f.placement);
  updateMemorySnapshot(*f.context, *f.placement, plan);
  const SchedulePlan buffered = proposeBuffering(*f.context, *f.placement, plan, plan.fastStoragePeak);
  int atPeak = 0;
  for (int index = 0; index < 3; ++index) {
    if (plan.snapshotAt(plan.at(index).timeIndex) == plan.fastStoragePeak) {
      ++atPeak;
      BOOST_TEST(buffered.at(index).bufferedWeights.empty());
      BOOST_TEST(buffered.at(index).depthSlices.size() == 2U);
      BOOST_TEST(buffered.at(index).slackBufferingMemory == 0);
    }
  }
  BOOST_TEST(atPeak > 0);
}

BOOST_AUTO_TEST_CASE(weights_stored_in_the_fast_storage_are_not_copied) {
  npu::test::FakeSystem system;
  system.constantArea = MemoryArea::Sram;
  const test::Fixture f(convChain(32), system);
  const SchedulePlan plan = bufferedMax(f, std::int64_t{1} << 32);
  for (int index = 0; index < 3; ++index) {
    BOOST_TEST(plan.at(index).bufferedWeights.empty());
  }
}

BOOST_AUTO_TEST_CASE(fully_connected_weights_are_never_buffered) {
  npu::test::GraphBuilder builder;
  builder.output(builder.fullyConnected(builder.input({1, 1, 1, 256}), 64));
  const test::Fixture f(builder, npu::test::FakeSystem{});
  const SchedulePlan plan = bufferedMax(f, std::int64_t{1} << 32);
  BOOST_TEST(plan.at(0).bufferedWeights.empty());
  BOOST_REQUIRE(plan.at(0).weights != nullptr);
}

BOOST_AUTO_TEST_CASE(a_cascaded_operation_buffers_its_weights_whole) {
  const test::Fixture f(convChain(32), npu::test::FakeSystem{});
  SchedulePlan plan = maxSchedule(*f.context, *f.placement);
  for (int index = 0; index < 3; ++index) {
    plan.at(index).cascade = 2;
  }
  plan.cascades[2] = CascadeSpan{0, 2, {}, 0};
  updateMemorySnapshot(*f.context, *f.placement, plan);
  const SchedulePlan buffered = proposeBuffering(*f.context, *f.placement, plan, std::int64_t{1} << 32);
  for (int index = 0; index < 3; ++index) {
    const OperationPlan& op = buffered.at(index);
    BOOST_TEST(op.depthSlices.size() == 2U);
    BOOST_TEST(op.bufferedWeights.size() == 1U);
    BOOST_TEST(op.fullWeightTransferCycles == 0.0);
  }
}

BOOST_AUTO_TEST_SUITE_END()
