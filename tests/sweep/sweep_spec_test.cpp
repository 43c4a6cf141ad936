// SPDX-License-Identifier: Apache-2.0
// The sweep file: what it may say, and where it says what is wrong.
#include "sweep_spec.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace npu::sweep;

namespace {

std::string errorOf(const std::string& text) {
  try {
    (void)parseSweepText(text, "/sweeps/s.yaml");
  } catch (const Error& error) {
    return error.render();
  }
  return "no error";
}

} // namespace

BOOST_AUTO_TEST_SUITE(sweep_spec)

BOOST_AUTO_TEST_CASE(a_sweep_file_names_its_pipeline_axes_and_networks_relative_to_itself) {
  const SweepSpec spec = parseSweepText(R"(name: macs
pipeline: ../configs/C1.yaml
set: { scheduler.optimise: size }
axes:
  accelerator.config: [ethos-u55-64, ethos-u55-128]
  accelerator.arena_cache_size: [256KiB]
networks: [models/*.tflite, a.tflite]
collect: [cycles_total]
output: out
slurm: { shards: 3, cpus_per_task: 1, time: "00:10:00" }
)",
                                        "/sweeps/s.yaml");
  BOOST_TEST(spec.name == "macs");
  BOOST_TEST(spec.pipeline.string() == "/configs/C1.yaml");
  BOOST_TEST(spec.output.string() == "/sweeps/out");
  BOOST_REQUIRE_EQUAL(spec.axes.size(), 2U);
  BOOST_TEST(spec.axes[0].name == "accelerator.config");
  BOOST_TEST(spec.axes[0].values[1].label == "ethos-u55-128");
  BOOST_TEST(spec.axes[0].values[1].settings.at(0).first == "accelerator.config");
  BOOST_TEST(spec.baseSettings.at(0).second == "size");
  BOOST_TEST(spec.networks.size() == 2U);
  BOOST_TEST(spec.collect.at(0) == "cycles_total");
  BOOST_TEST(spec.slurm.shards == 3);
  BOOST_TEST(spec.slurm.timeLimit == "00:10:00");
}

BOOST_AUTO_TEST_CASE(a_linked_axis_sets_several_settings_per_value_and_is_labelled) {
  const SweepSpec spec = parseSweepText(R"(pipeline: p.yaml
networks: a.tflite
axes:
  npu:
    - { accelerator.plugin: perf_u55, accelerator.config: ethos-u55-128 }
    - { label: u65, accelerator.plugin: perf_u65, accelerator.config: ethos-u65-256 }
)",
                                        "/s.yaml");
  BOOST_TEST(spec.name == "s");
  BOOST_TEST(spec.axes.at(0).linked);
  BOOST_TEST(spec.axes[0].values[0].label == "perf_u55/ethos-u55-128");
  BOOST_TEST(spec.axes[0].values[1].label == "u65");
  BOOST_TEST(spec.axes[0].values[1].settings.size() == 2U);
}

BOOST_AUTO_TEST_CASE(unknown_keys_and_bad_values_are_reported_at_their_line_and_column) {
  BOOST_TEST(errorOf("pipeline: p.yaml\nnetworks: [a]\naxis: {}\n").find("s.yaml:3:1") != std::string::npos);
  BOOST_TEST(errorOf("pipeline: p.yaml\nnetworks: [a]\naxes:\n  x: []\n").find("s.yaml:4:6") != std::string::npos);
  BOOST_TEST(errorOf("pipeline: p.yaml\nnetworks: [a]\naxes: { x: [1, 1] }\n").find("twice") != std::string::npos);
  BOOST_TEST(errorOf("pipeline: p.yaml\nnetworks: [a]\nslurm: { shards: 0 }\n").find("positive") != std::string::npos);
  BOOST_TEST(errorOf("networks: [a]\n").find("names no pipeline") != std::string::npos);
  BOOST_TEST(errorOf("pipeline: p.yaml\n").find("names no networks") != std::string::npos);
  BOOST_TEST(errorOf("pipeline: [p\n").find("s.yaml:") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
