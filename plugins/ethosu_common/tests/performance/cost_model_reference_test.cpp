// SPDX-License-Identifier: Apache-2.0
// The Vela 3.10 cost model against every layer of the reference runs' per-layer CSV: C1 (U55-128 High-End
// Embedded, Shared_Sram), C3 (U65-256 High-End, Dedicated_Sram) and, for layers without weights, C4
// (U55-64 Deep Embedded). Runs when NPU_PIPELINE_MODELS is set; prints the agreement counts.
#include "../reference/vela_reference_estimates.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

namespace {

using ethosu::test::ReferenceOperation;

bool same(double ours, double vela) {
  return std::abs(ours - vela) <= 1e-9 * std::max(1.0, std::abs(vela));
}

struct Agreement {
  int rows = 0;
  int total = 0;
  int npu = 0;
  int access = 0;
  int macs = 0;
  int withoutDma = 0; ///< rows without weight or LUT DMA: compute cycles alone decide the NPU column
  int npuWithoutDma = 0;
};

/// Whether a row's NPU cycles depend on DMA the schedule arranged (weight buffers, LUT loads).
bool hasDma(const npu::PerformanceContext& context) {
  return (context.weights.present && context.weights.bufferArea) || context.lutTransfer.has_value();
}

void compare(const std::string& label, const npu::OperationPerformance& result, const ethosu::test::PerLayerRow& row,
             const npu::PerformanceContext& context, Agreement& agreement) {
  using npu::CycleComponent;
  ++agreement.rows;
  const bool totalEqual = same(result.cycle(CycleComponent::Total), row.opCycles);
  const bool npuEqual = same(result.cycle(CycleComponent::Npu), row.npu);
  const bool accessEqual = same(result.cycle(CycleComponent::SramAccess), row.sramAccess) &&
                           same(result.cycle(CycleComponent::DramAccess), row.dramAccess) &&
                           same(result.cycle(CycleComponent::OnChipFlashAccess), row.onChipFlashAccess) &&
                           same(result.cycle(CycleComponent::OffChipFlashAccess), row.offChipFlashAccess);
  agreement.total += totalEqual ? 1 : 0;
  agreement.npu += npuEqual ? 1 : 0;
  agreement.access += accessEqual ? 1 : 0;
  agreement.macs += result.macs == row.macs ? 1 : 0;
  if (!hasDma(context)) {
    ++agreement.withoutDma;
    agreement.npuWithoutDma += npuEqual ? 1 : 0;
  }
  if (!totalEqual || !accessEqual || result.macs != row.macs) {
    BOOST_TEST_MESSAGE(label << " '" << row.name << "' (" << row.operatorType << "): total "
                             << result.cycle(CycleComponent::Total) << " vs " << row.opCycles << ", NPU "
                             << result.cycle(CycleComponent::Npu) << " vs " << row.npu << ", SRAM "
                             << result.cycle(CycleComponent::SramAccess) << " vs " << row.sramAccess << ", DRAM "
                             << result.cycle(CycleComponent::DramAccess) << " vs " << row.dramAccess
                             << ", off-chip flash " << result.cycle(CycleComponent::OffChipFlashAccess) << " vs "
                             << row.offChipFlashAccess << ", MACs " << result.macs << " vs " << row.macs);
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(cost_model_reference)

BOOST_AUTO_TEST_CASE(estimates_equal_vela_s_per_layer_figures) {
  const auto models = npu::test::sharedModelsDir();
  const auto reference = npu::test::sharedReferenceDir();
  if (!models || !reference) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS not set: skipping the Vela reference comparison");
    return;
  }
  for (const auto& config : ethosu::test::referenceConfigs()) {
    const bool ownSchedule = config.scheduleFrom == config.name;
    const auto accelerator = ethosu::test::makeReferenceAccelerator(config);
    const auto& arch = accelerator->architecture();
    const auto& model = accelerator->costModel();
    Agreement agreement;
    for (const auto& entry : std::filesystem::directory_iterator(*reference / "vela310" / config.name)) {
      const auto modelName = entry.path().filename().string();
      const auto modelFile = *models / (modelName + ".tflite");
      const auto scheduleFile = *reference / "vela310" / config.scheduleFrom / modelName / "schedule.txt";
      const auto csv = ethosu::test::perLayerCsvIn(entry.path());
      if (!std::filesystem::exists(scheduleFile) || !csv || !std::filesystem::exists(modelFile)) {
        continue;
      }
      const auto rows = ethosu::test::readPerLayerCsv(*csv);
      const auto schedule = ethosu::test::readSchedule(scheduleFile);
      if (rows.size() != schedule.sections.size()) {
        BOOST_TEST_MESSAGE(config.name << ' ' << modelName << ": per-layer CSV and schedule differ in subgraphs");
        continue;
      }
      std::optional<double> previousSlack;
      std::optional<std::size_t> previousSection;
      try {
        ethosu::test::forEachReferenceOperation(
            schedule, modelFile, *accelerator,
            [&](std::size_t section, std::size_t index, const std::optional<ReferenceOperation>& operation) {
              if (section != previousSection) {
                previousSlack = 0.0; // the first operation of a subgraph has no predecessor
                previousSection = section;
              }
              if (!operation || index >= rows[section].size() ||
                  rows[section][index].name != operation->scheduled->name) {
                previousSlack.reset();
                return;
              }
              const auto query = ethosu::test::referenceQuery(arch, schedule, *operation);
              const bool hasWeights = operation->scheduled->encodedWeights.has_value();
              if (!ownSchedule && hasWeights) {
                previousSlack.reset(); // weight buffering of this configuration is unknown
                return;
              }
              const double ownSlack = ethosu::test::slackCycles(arch, model, *operation, query);
              if (!previousSlack) {
                previousSlack = ownSlack; // unknown predecessor: this row cannot be checked
                return;
              }
              std::optional<ethosu::test::WeightSizes> sizes;
              if (hasWeights) {
                sizes = ethosu::test::weightSizes(*accelerator, *operation, query.block);
              }
              auto context = ethosu::test::referenceContext(arch, schedule, *operation, query, *previousSlack, ownSlack,
                                                            sizes ? std::optional(sizes->firstSlice) : std::nullopt,
                                                            sizes ? std::optional(sizes->fullDepth) : std::nullopt);
              context.query.block = &query.block;
              const auto result = model.estimate(*operation->lowered.subgraph, *operation->lowered.operation, context);
              previousSlack = ownSlack;
              compare(config.name + " " + modelName, result, rows[section][index], context, agreement);
            });
      } catch (const std::exception& error) {
        BOOST_TEST_MESSAGE(config.name << ' ' << modelName << ": cannot reconstruct: " << error.what());
      }
    }
    BOOST_TEST_MESSAGE(config.name << " (" << config.variant << "): of " << agreement.rows
                                   << " reconstructed layers, total cycles equal for " << agreement.total
                                   << ", NPU cycles for " << agreement.npu << ", memory access cycles for "
                                   << agreement.access << ", MACs for " << agreement.macs << "; NPU cycles of the "
                                   << agreement.withoutDma << " layers without DMA equal for "
                                   << agreement.npuWithoutDma);
    BOOST_TEST(agreement.macs == agreement.rows);
  }
}

BOOST_AUTO_TEST_SUITE_END()
