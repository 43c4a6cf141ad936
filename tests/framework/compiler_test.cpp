// SPDX-License-Identifier: Apache-2.0
#include "fake_plugins.hpp"

#include "npu/pipeline/compiler.hpp"
#include "npu/report/comparison.hpp"
#include "npu/report/writers.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <span>

namespace {

struct FakePipeline {
  npu::test::FakeFrontend frontend;
  npu::test::FakeAcceleratorPlugin acceleratorPlugin;
  npu::test::FakeScheduler scheduler;
  npu::test::FakeLinearAllocator allocator;
  npu::ResolvedPipeline pipeline;

  explicit FakePipeline(const std::string& fastStorage = "1MiB") {
    pipeline.file = "fake.yaml";
    pipeline.name = "fake";
    npu::ResolvedAccelerator accelerator;
    accelerator.plugin = "fake_accelerator";
    accelerator.implementation = &acceleratorPlugin;
    accelerator.config.variant = "fake-1";
    accelerator.config.options =
        npu::resolveOptions(acceleratorPlugin.options(), {{"fast_storage", {fastStorage, {}}}}, "fake accelerator");
    pipeline.accelerator = accelerator;
    pipeline.stages = {{npu::PluginKind::Frontend, "fake_frontend", "1", &frontend, {}},
                       {npu::PluginKind::Scheduler, "fake_scheduler", "1", &scheduler, {}},
                       {npu::PluginKind::Allocator, "fake_allocator", "1", &allocator, {}}};
  }

  npu::Compilation compile() const {
    npu::SilentProgress progress;
    return npu::compileModel(pipeline, "model.fake", progress);
  }
};

} // namespace

BOOST_AUTO_TEST_SUITE(compile_driver)

BOOST_AUTO_TEST_CASE(npu_regions_are_split_by_cpu_operations_with_their_boundary_tensors) {
  npu::Graph graph = npu::test::makeChainGraph();
  for (auto& op : graph.subgraphs[0].operations) {
    op.placement = op.type == npu::OpType::Custom ? npu::Placement::Cpu : npu::Placement::Npu;
  }
  const auto regions = npu::findNpuRegions(graph);
  BOOST_REQUIRE_EQUAL(regions.size(), 2U);
  BOOST_TEST(regions[0].operations == std::vector<npu::OperationId>({0}));
  BOOST_TEST(regions[0].inputs == std::vector<npu::TensorId>({0}));  // the constant is not a boundary
  BOOST_TEST(regions[0].outputs == std::vector<npu::TensorId>({2})); // read by the CPU operation
  BOOST_TEST(regions[1].operations == std::vector<npu::OperationId>({2, 3}));
  BOOST_TEST(regions[1].inputs == std::vector<npu::TensorId>({3}));
  BOOST_TEST(regions[1].outputs == std::vector<npu::TensorId>({5})); // the subgraph output
}

BOOST_AUTO_TEST_CASE(compiling_places_schedules_allocates_and_evaluates_every_npu_operation) {
  const FakePipeline fake;
  const auto compilation = fake.compile();
  BOOST_REQUIRE(compilation.report.has_value());
  const auto& report = *compilation.report;
  BOOST_TEST(report.npuOperations == 3);
  BOOST_TEST(report.cpuOperations == 1);
  BOOST_TEST(report.cpuOperationReasons.front().find("custom operators run on the CPU") != std::string::npos);
  BOOST_REQUIRE_EQUAL(report.layers.size(), 3U);
  // One cycle and one MAC per output element (1x8x8x16) for each of the three additions.
  BOOST_TEST(report.total.macs == 3 * 1024);
  BOOST_TEST(report.totalCycles() == 3 * 1024.0);
  // SRAM is allocated once for the whole network, CPU operators' feature maps included (as Vela does):
  // input, a, b, c and d (1 KiB each) without reuse under the linear allocator; the constant stays in flash.
  BOOST_TEST(report.memoryUsed[static_cast<std::size_t>(npu::MemoryArea::Sram)] == 5 * 1024);
  BOOST_TEST(report.inferenceSeconds() == 3 * 1024 / 1e6);
}

/// The chain graph with the constant also read by the CPU operator, so that it needs a buffer.
class ConstantOnCpuFrontend final : public npu::FrontendPlugin {
public:
  std::vector<std::string> fileExtensions() const override { return {".fake"}; }
  npu::Graph read(const std::filesystem::path&, const npu::OptionValues&) const override {
    npu::Graph graph = npu::test::makeChainGraph();
    graph.subgraphs[0].operations[1].inputs.push_back(1); // tensor 1 is the constant "one"
    return graph;
  }
};

/// Records the ranges the allocator is asked to place.
class RecordingAllocator final : public npu::AllocatorPlugin {
public:
  std::vector<std::int64_t> allocate(std::span<const npu::LiveRange> ranges,
                                     const npu::OptionValues& options) const override {
    for (const auto& range : ranges) {
      names.push_back(range.name);
    }
    return npu::test::FakeLinearAllocator{}.allocate(ranges, options);
  }
  mutable std::vector<std::string> names;
};

BOOST_AUTO_TEST_CASE(constants_are_laid_out_first_and_never_handed_to_the_allocator) {
  FakePipeline fake;
  ConstantOnCpuFrontend frontend;
  RecordingAllocator allocator;
  fake.pipeline.stages[0].implementation = &frontend;
  fake.pipeline.stages[2].implementation = &allocator;
  const auto compilation = fake.compile();
  BOOST_TEST(std::count(allocator.names.begin(), allocator.names.end(), "one") == 0);
  BOOST_TEST(allocator.names.size() == 5U); // input, a, b, c, d
  // The 1-byte constant takes the first 16-byte slot of SRAM (the fake's constant memory), the
  // feature maps follow it.
  const auto& report = *compilation.report;
  BOOST_TEST(report.memoryUsed[static_cast<std::size_t>(npu::MemoryArea::Sram)] == 16 + 5 * 1024);
}

/// The fake's schedules with every region's operations run last to first (as Vela 2.1's DP scheduler may
/// order a region's passes otherwise than the subgraph lists them).
class ReversingScheduler final : public npu::SchedulerPlugin {
public:
  npu::Schedule schedule(const npu::ScheduleRequest& request) const override {
    npu::Schedule schedule = npu::test::FakeScheduler{}.schedule(request);
    std::reverse(schedule.operations.begin(), schedule.operations.end());
    std::reverse(schedule.region.operations.begin(), schedule.region.operations.end());
    return schedule;
  }
};

BOOST_AUTO_TEST_CASE(a_region_run_out_of_operation_order_keeps_its_own_place_in_the_network_timeline) {
  const FakePipeline inOrder;
  FakePipeline reversed;
  ReversingScheduler scheduler;
  reversed.pipeline.stages[1].implementation = &scheduler;
  const auto expected = inOrder.compile().addresses.entries;
  const auto entries = reversed.compile().addresses.entries;
  // No operation of the region is taken for a CPU operator with a step of its own: every buffer keeps
  // the times it has when the region runs in order.
  BOOST_REQUIRE_EQUAL(entries.size(), expected.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    BOOST_TEST_CONTEXT(entries[i].name) {
      BOOST_TEST(entries[i].name == expected[i].name);
      BOOST_TEST(entries[i].start == expected[i].start);
      BOOST_TEST(entries[i].end == expected[i].end);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_schedule_over_the_fast_storage_limit_is_a_compile_error_naming_the_operation) {
  const FakePipeline fake("2KiB");
  try {
    (void)fake.compile();
    BOOST_FAIL("3 KiB of live feature maps cannot fit in 2 KiB");
  } catch (const npu::Error& error) {
    BOOST_TEST(error.exitCode() == 1);
    const std::string text = error.render();
    BOOST_TEST(text.find("needs 3072 bytes") != std::string::npos);
    BOOST_TEST(text.find("limit is 2048 bytes") != std::string::npos);
    BOOST_TEST(text.find("operator 3 'd' (ADD) (needs 3072 bytes live)") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(a_network_over_its_limit_is_told_the_smallest_limit_that_fits_it) {
  const FakePipeline fake("2KiB");
  try {
    (void)fake.compile();
    BOOST_FAIL("3 KiB of live feature maps cannot fit in 2 KiB");
  } catch (const npu::DoesNotFitError& error) {
    BOOST_TEST(error.exitCode() == 1);
    BOOST_TEST(error.search().limit == 2048);
    BOOST_REQUIRE(error.search().smallestFittingLimit.has_value());
    // Not the 3 KiB the schedule needs at its busiest operation: the linear allocator reuses nothing, so
    // the five 1 KiB feature maps take 5 KiB.
    BOOST_TEST(*error.search().smallestFittingLimit == 5120);
    BOOST_TEST(error.search().converged);
    const std::string text = error.render();
    BOOST_TEST(text.find("needs 3072 bytes") != std::string::npos); // the scheduler's failure comes first
    BOOST_TEST(text.find("the smallest SRAM limit that fits this network with this pipeline is 5,120 bytes (5 KiB)") !=
               std::string::npos);
    BOOST_TEST(text.find("give the accelerator 5KiB of SRAM") != std::string::npos); // no arena_cache_size option
  }
}

BOOST_AUTO_TEST_CASE(with_fit_search_off_a_network_over_its_limit_fails_without_searching) {
  FakePipeline fake("2KiB");
  fake.pipeline.fitSearch = false;
  try {
    (void)fake.compile();
    BOOST_FAIL("3 KiB of live feature maps cannot fit in 2 KiB");
  } catch (const npu::Error& error) {
    BOOST_TEST(dynamic_cast<const npu::DoesNotFitError*>(&error) == nullptr);
    BOOST_TEST(error.render().find("smallest") == std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(reports_are_identical_for_identical_compilations) {
  const FakePipeline fake;
  const auto first = fake.compile();
  const auto second = fake.compile();
  BOOST_TEST(npu::renderJsonReport(*first.report) == npu::renderJsonReport(*second.report));
  BOOST_TEST(npu::renderSummaryCsv(*first.report) == npu::renderSummaryCsv(*second.report));
}

BOOST_AUTO_TEST_CASE(the_summary_csv_has_vela_columns_and_python_number_formatting) {
  const FakePipeline fake;
  const std::string csv = npu::renderSummaryCsv(*fake.compile().report);
  BOOST_TEST(csv.starts_with("experiment,network,accelerator_configuration,system_config,memory_mode,core_clock,"));
  BOOST_TEST(csv.find(",cycles_total\n") != std::string::npos);
  // core clock 1e6 as Python prints a float, arena size in KiB, inference time 3.072 ms.
  BOOST_TEST(csv.find("default,chain,Fake_1,Fake_System,Fake_Mode,1000000.0,1024.0,") != std::string::npos);
  BOOST_TEST(csv.find(",0.003072,") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_per_layer_csv_has_one_row_per_scheduled_operation) {
  const FakePipeline fake;
  const std::string csv = npu::renderPerLayerCsv(*fake.compile().report);
  BOOST_TEST(csv.starts_with("TFLite_operator,NNG Operator,SRAM Usage,Peak%,Op Cycles,Network%,NPU,SRAM AC,"));
  BOOST_TEST(std::count(csv.begin(), csv.end(), '\n') == 4);
  BOOST_TEST(csv.find("ADD,Add,") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_comparison_pairs_layers_and_names_the_winner_per_figure) {
  const FakePipeline fake;
  npu::ComparedModel model{"chain", *fake.compile().report, *fake.compile().report};
  // Make B slower on its second layer only.
  model.b.layers[1].performance.cycles[static_cast<std::size_t>(npu::CycleComponent::Total)] += 100.0;
  model.b.total.cycles[static_cast<std::size_t>(npu::CycleComponent::Total)] += 100.0;
  const npu::Comparison comparison{"A.yaml", "B.yaml", {model}};
  const auto pairs = npu::pairLayers(model);
  BOOST_REQUIRE_EQUAL(pairs.size(), 3U);
  BOOST_TEST((pairs[1].a == 1U && pairs[1].b == 1U));
  BOOST_TEST(npu::winner(1.0, 2.0) == "A");
  BOOST_TEST(npu::winner(2.0, 2.0) == "tie");
  const std::string text = npu::renderComparisonText(comparison);
  BOOST_TEST(text.find("faster (total cycles): A on 1, B on 0 of 1 models") != std::string::npos);
  const std::string csv = npu::renderComparisonSummaryCsv(comparison);
  BOOST_TEST(csv.find("chain,3072.0,3172.0,") != std::string::npos);
  const std::string layers = npu::renderComparisonLayersCsv(comparison, model);
  BOOST_TEST(std::count(layers.begin(), layers.end(), '\n') == 4);
}

BOOST_AUTO_TEST_CASE(a_model_one_pipeline_cannot_compile_is_listed_with_the_reason_and_not_compared) {
  const FakePipeline fake;
  const auto report = *fake.compile().report;
  npu::ComparedModel failed{"big", report, npu::NetworkReport{}};
  failed.failureB = "the schedule needs 3072 bytes of SRAM but the limit is 2048 bytes";
  const npu::Comparison comparison{"A", "B", {{"chain", report, report}, failed}};
  BOOST_TEST(!failed.compared());
  const std::string text = npu::renderComparisonText(comparison);
  BOOST_TEST(text.find("big") != std::string::npos);
  BOOST_TEST(text.find("B failed: the schedule needs 3072 bytes") != std::string::npos);
  BOOST_TEST(text.find("of 1 models (1 not compared: a pipeline failed)") != std::string::npos);
  BOOST_TEST(text.find("big per layer") == std::string::npos);
  const std::string csv = npu::renderComparisonSummaryCsv(comparison);
  BOOST_TEST(csv.find(",failure_a,failure_b\n") != std::string::npos);
  BOOST_TEST(csv.find("big,,,,,") != std::string::npos);
  BOOST_TEST(csv.find(",,the schedule needs 3072 bytes of SRAM but the limit is 2048 bytes\n") != std::string::npos);
  BOOST_TEST(npu::renderComparisonHtml(comparison).find("not compared: B failed") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(html_pages_are_self_contained_with_both_charts) {
  const FakePipeline fake;
  const auto report = *fake.compile().report;
  const npu::Comparison comparison{"A", "B", {{"chain", report, report}}};
  const std::string page = npu::renderComparisonHtml(comparison);
  BOOST_TEST(page.find("cycles per layer") != std::string::npos);
  BOOST_TEST(page.find("SRAM in use over the schedule") != std::string::npos);
  BOOST_TEST(page.find("<script") == std::string::npos);
  BOOST_TEST(page.find("src=") == std::string::npos);
  BOOST_TEST(npu::renderHtmlReport(report).find("<polyline") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
