// SPDX-License-Identifier: Apache-2.0
// The search scheduler through the whole pipeline (configs/search), on networks npu-model-gen makes:
// never slower than Vela's cascade schedule nor than the DP schedule that fits, within the SRAM limit,
// accepted by the code generator's checker, identical at one thread and at two.
#include "test_support.hpp"

#include "model_generator/model_generator.hpp"
#include "model_generator/random_network.hpp"

#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/compiler.hpp"
#include "npu/pipeline/pipeline.hpp"

#include <boost/test/unit_test.hpp>
#include <tbb/global_control.h>

#include <fstream>
#include <optional>

namespace {

namespace fs = std::filesystem;

class Pipelines {
public:
  Pipelines() { host_.loadDirectory(npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins"); }

  npu::Compilation compile(const fs::path& config, const fs::path& model,
                           const std::vector<std::string>& overrides = {}) {
    npu::PipelineSpec spec = npu::parsePipelineFile(config);
    for (const std::string& assignment : overrides) {
      npu::applyOverride(spec, assignment);
    }
    const npu::ResolvedPipeline resolved = npu::resolvePipeline(spec, host_, npu::defaultConfigSearchPath());
    npu::SilentProgress progress;
    return npu::compileModel(resolved, model, progress);
  }

private:
  npu::PluginHost host_;
};

fs::path write(const fs::path& folder, const std::string& name, const std::vector<std::uint8_t>& bytes) {
  const fs::path path = folder / name;
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

/// Random networks and a small MobileNet, all deterministic.
std::vector<fs::path> generatedNetworks(const fs::path& folder) {
  std::vector<fs::path> models;
  for (const std::uint64_t seed : {1U, 2U, 3U, 4U, 5U}) {
    npu::modelgen::RandomNetworkOptions options;
    options.seed = seed;
    options.operators = 14;
    options.maxChannels = 48;
    models.push_back(write(folder, "random_" + std::to_string(seed) + ".tflite",
                           npu::modelgen::generateRandomNetwork(options).bytes));
  }
  npu::modelgen::NetworkOptions mobilenet;
  mobilenet.alpha = 0.25;
  mobilenet.resolution = 64;
  mobilenet.blocks = 6;
  mobilenet.classes = 10;
  models.push_back(write(folder, "mobilenet_v1.tflite", npu::modelgen::generate(mobilenet).bytes));
  return models;
}

fs::path config(const std::string& folder, const std::string& name) {
  return npu::test::sourceDir() / "configs" / folder / (name + ".yaml");
}

double cycles(const npu::Compilation& compilation) {
  return compilation.report->total.cycle(npu::CycleComponent::Total);
}

std::optional<npu::Compilation> tryCompile(Pipelines& pipelines, const fs::path& configFile, const fs::path& model,
                                           const std::vector<std::string>& overrides = {}) {
  try {
    return pipelines.compile(configFile, model, overrides);
  } catch (const npu::Error& error) {
    BOOST_TEST_MESSAGE(model.filename() << " with " << configFile.filename() << ": " << error.message());
    return std::nullopt;
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(search_pipeline)

BOOST_AUTO_TEST_CASE(generated_networks_are_never_slower_than_with_the_cascade_or_the_dp_scheduler) {
  Pipelines pipelines;
  const npu::test::TemporaryDirectory folder;
  for (const fs::path& model : generatedNetworks(folder.path())) {
    for (const std::string name : {"C1", "C3", "C5"}) {
      BOOST_TEST_CONTEXT(model.filename() << " " << name) {
        const auto cascade = tryCompile(pipelines, config("reference", name + "-cascade"), model);
        const auto found = tryCompile(pipelines, config("search", name + "-search"), model);
        if (cascade) {
          BOOST_REQUIRE(found.has_value());
        }
        if (!found) {
          continue;
        }
        // The code generator checked every command stream it wrote (check: on by default).
        BOOST_TEST(found->output.has_value());
        const npu::MemorySystem& memory = found->report->memory;
        const auto fast = static_cast<std::size_t>(memory.fastStorageArea);
        if (!memory.warnOnFastStorageOverflow) {
          BOOST_TEST(found->report->memoryUsed[fast] <= memory.arenaCacheSize);
        }
        if (cascade) {
          BOOST_TEST(cycles(*found) <= cycles(*cascade));
        }
        // With the DP schedule among the candidates, never slower than it where it fits and compiles.
        const auto withDp =
            tryCompile(pipelines, config("search", name + "-search"), model, {"scheduler.dynamic_programming=true"});
        const auto dp = tryCompile(
            pipelines, config("search", name + "-search"), model,
            {"scheduler.plugin=scheduler_dp", "scheduler.sram_limit=" + std::to_string(memory.arenaCacheSize)});
        if (withDp && dp && dp->report->memoryUsed[fast] <= memory.arenaCacheSize) {
          BOOST_TEST(cycles(*withDp) <= cycles(*dp));
          BOOST_TEST(cycles(*withDp) <= cycles(*found));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(the_optimised_model_is_byte_identical_at_one_thread_and_at_two) {
  Pipelines pipelines;
  const npu::test::TemporaryDirectory folder;
  const auto models = generatedNetworks(folder.path());
  for (const fs::path& model : {models.front(), models.back()}) {
    std::vector<std::uint8_t> bytes[2];
    double total[2] = {0.0, 0.0};
    for (int threads = 1; threads <= 2; ++threads) {
      const tbb::global_control control(tbb::global_control::max_allowed_parallelism,
                                        static_cast<std::size_t>(threads));
      const npu::Compilation compilation = pipelines.compile(config("search", "C3-search"), model);
      bytes[threads - 1] = compilation.output->bytes.joined();
      total[threads - 1] = cycles(compilation);
    }
    BOOST_TEST_CONTEXT(model.filename()) {
      BOOST_TEST(total[0] == total[1]);
      BOOST_TEST((bytes[0] == bytes[1]));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_tight_sram_limit_is_met_where_the_cascade_schedule_does_not_fit_it) {
  // The search tries schedules planned for less SRAM; whatever it returns fits the limit.
  Pipelines pipelines;
  const npu::test::TemporaryDirectory folder;
  const fs::path model = generatedNetworks(folder.path()).back();
  for (const std::string limit : {"96KiB", "48KiB", "32KiB"}) {
    BOOST_TEST_CONTEXT("arena cache " << limit) {
      const auto found =
          tryCompile(pipelines, config("search", "C5-search"), model, {"accelerator.arena_cache_size=" + limit});
      const auto cascade =
          tryCompile(pipelines, config("reference", "C5-cascade"), model, {"accelerator.arena_cache_size=" + limit});
      if (cascade) {
        BOOST_REQUIRE(found.has_value());
        BOOST_TEST(cycles(*found) <= cycles(*cascade));
      }
      if (found) {
        const npu::MemorySystem& memory = found->report->memory;
        BOOST_TEST(found->report->memoryUsed[static_cast<std::size_t>(memory.fastStorageArea)] <=
                   memory.arenaCacheSize);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_schedule_with_spilled_feature_maps_wins_where_faster_and_its_stream_passes_the_check) {
  // A small MobileNet v2 on the U65 with a 64 KiB dedicated SRAM (C3's memory mode): planning for more
  // SRAM and spilling feature maps to the DRAM is faster than every schedule planned for the limit.
  Pipelines pipelines;
  const npu::test::TemporaryDirectory folder;
  npu::modelgen::NetworkOptions options;
  options.architecture = npu::modelgen::Architecture::MobileNetV2;
  options.alpha = 0.5;
  options.resolution = 64;
  options.blocks = 6;
  options.classes = 10;
  const fs::path model = write(folder.path(), "mobilenet_v2.tflite", npu::modelgen::generate(options).bytes);
  const std::vector<std::string> limit = {"accelerator.arena_cache_size=64KiB"};
  std::vector<std::string> noSpill = limit;
  noSpill.emplace_back("scheduler.spill=false");
  const npu::Compilation without = pipelines.compile(config("search", "C3-search"), model, noSpill);
  std::vector<std::uint8_t> bytes[2];
  for (int threads = 1; threads <= 2; ++threads) {
    const tbb::global_control control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    const npu::Compilation spilled = pipelines.compile(config("search", "C3-search"), model, limit);
    BOOST_TEST(cycles(spilled) < cycles(without));
    // The code generator checked the command stream it wrote (check: on by default).
    BOOST_REQUIRE(spilled.output.has_value());
    bytes[threads - 1] = spilled.output->bytes.joined();
    const npu::MemorySystem& memory = spilled.report->memory;
    BOOST_TEST(spilled.report->memoryUsed[static_cast<std::size_t>(memory.fastStorageArea)] <= 64 * 1024);
  }
  BOOST_TEST((bytes[0] == bytes[1]));
}

BOOST_AUTO_TEST_SUITE_END()
