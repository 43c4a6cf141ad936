// SPDX-License-Identifier: Apache-2.0
// Block config search against every operation Vela 3.10 scheduled in the reference runs C1 (U55-128)
// and C3 (U65-256). Runs when NPU_PIPELINE_MODELS points at the shared models.
#include "../reference/vela_reference_models.hpp"

#include <boost/test/unit_test.hpp>

#include <sstream>

namespace {

std::string notation(const std::array<int, 4>& block) {
  std::ostringstream out;
  out << '[' << block[0] << ", " << block[1] << ", " << block[2] << ", " << block[3] << ']';
  return out.str();
}

} // namespace

BOOST_AUTO_TEST_SUITE(block_config_reference)

BOOST_AUTO_TEST_CASE(block_config_search_chooses_what_vela_chose_for_every_reconstructed_operation) {
  const auto models = npu::test::sharedModelsDir();
  const auto reference = npu::test::sharedReferenceDir();
  if (!models || !reference) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS not set: skipping the Vela reference comparison");
    return;
  }
  for (const auto& config : ethosu::test::referenceConfigs()) {
    const auto configFolder = *reference / "vela310" / config.name;
    if (!std::filesystem::exists(configFolder) || config.scheduleFrom != config.name) {
      continue; // only configurations with their own schedule.txt record Vela's block configs
    }
    const auto accelerator = ethosu::test::makeReferenceAccelerator(config);
    int scheduled = 0;
    int reconstructed = 0;
    int equal = 0;
    for (const auto& entry : std::filesystem::directory_iterator(configFolder)) {
      const auto scheduleFile = entry.path() / "schedule.txt";
      const auto modelFile = *models / (entry.path().filename().string() + ".tflite");
      if (!std::filesystem::exists(scheduleFile) || !std::filesystem::exists(modelFile)) {
        continue;
      }
      try {
        ethosu::test::forEachReferenceOperation(
            ethosu::test::readSchedule(scheduleFile), modelFile, *accelerator,
            [&](std::size_t /*section*/, std::size_t /*index*/,
                const std::optional<ethosu::test::ReferenceOperation>& operation) {
              ++scheduled;
              if (!operation) {
                return; // the lowering made no operation of that name and type
              }
              ++reconstructed;
              const auto ours = ethosu::findBlockConfig(accelerator->architecture(), operation->blockQuery);
              const auto& vela = operation->scheduled->blockConfig;
              if (ours && ours->velaNotation() == vela && ours->ofmBlock == operation->scheduled->ofmBlock) {
                ++equal;
              } else {
                BOOST_TEST_MESSAGE(config.name << ' ' << entry.path().filename().string() << " '"
                                               << operation->scheduled->name << "' (" << operation->scheduled->type
                                               << "): ours " << (ours ? notation(ours->velaNotation()) : "none")
                                               << ", Vela " << notation(vela));
              }
            });
      } catch (const std::exception& error) {
        BOOST_TEST_MESSAGE(config.name << ' ' << entry.path().filename().string()
                                       << ": cannot reconstruct: " << error.what());
      }
    }
    BOOST_TEST_MESSAGE(config.name << ": block configs equal for " << equal << '/' << reconstructed
                                   << " reconstructed operations (" << scheduled << " scheduled)");
    BOOST_TEST(equal == reconstructed);
  }
}

BOOST_AUTO_TEST_SUITE_END()
