// SPDX-License-Identifier: Apache-2.0
// The main job as users run it: `npu-pipeline run ... -o DIR` writes the deployable model next to the
// reports, `inspect --commands/--check` reads it back, and the output does not depend on the thread
// count. Runs the built binaries on a generated model (and on a CPU-only shared model when
// NPU_PIPELINE_MODELS is set).
#include "cli_support.hpp"
#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using namespace npu::test::cli;

Result compile(const std::string& pipelineName, const fs::path& model, const fs::path& output,
               const std::string& extra = "") {
  return run(quoted(binary("npu-pipeline")) + " run " + quoted(pipeline(pipelineName)) + " " + quoted(model) + " -o " +
             quoted(output) + " " + extra);
}

std::map<std::string, std::string> filesIn(const fs::path& directory) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(directory)) {
    files[entry.path().filename().string()] = readText(entry.path());
  }
  return files;
}

/// Overwrites the payload of the first NPU_SET_OFM_BASE0 command of the first command stream.
void moveFirstOfmOutOfRange(const fs::path& model) {
  std::string bytes = readText(model);
  const std::size_t header = bytes.find("COP1");
  BOOST_REQUIRE(header != std::string::npos);
  for (std::size_t at = header + 32; at + 8 <= bytes.size(); at += 4) {
    if (static_cast<unsigned char>(bytes[at]) == 0x10 && static_cast<unsigned char>(bytes[at + 1]) == 0x40) {
      bytes.replace(at + 4, 4, std::string("\x00\x00\xff\x7f", 4));
      std::ofstream(model, std::ios::binary | std::ios::trunc) << bytes;
      return;
    }
  }
  BOOST_FAIL("no NPU_SET_OFM_BASE0 command found");
}

/// Compiles `model` with the pipeline at 1 thread and at each of `threads`, and checks every output file is
/// the same.
void requireSameOutputsAtAnyThreadCount(const std::string& pipelineName, const fs::path& model,
                                        const std::vector<int>& threads = {2}) {
  BOOST_TEST_CONTEXT(pipelineName << " " << model.filename().string()) {
    const fs::path one = scratchDirectory("threads1");
    BOOST_TEST_REQUIRE(compile(pipelineName, model, one, "--threads 1").exitCode == 0);
    const auto first = filesIn(one);
    BOOST_TEST(first.count(model.stem().string() + "_vela.tflite") == 1U);
    for (const int count : threads) {
      const fs::path other = scratchDirectory("threads" + std::to_string(count));
      BOOST_TEST_REQUIRE(compile(pipelineName, model, other, "--threads " + std::to_string(count)).exitCode == 0);
      const auto second = filesIn(other);
      BOOST_TEST(first.size() == second.size());
      for (const auto& [file, bytes] : first) {
        BOOST_TEST((second.count(file) == 1 && second.at(file) == bytes),
                   file << " differs at " << count << " threads");
      }
    }
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(codegen_cli)

BOOST_AUTO_TEST_CASE(run_writes_the_optimised_model_that_loads_back_and_passes_the_check) {
  const fs::path output = scratchDirectory("run");
  const Result compiled = compile("C1-cascade.yaml", exampleModel(), output);
  BOOST_TEST_REQUIRE(compiled.exitCode == 0, compiled.output);
  const fs::path optimised = output / "small_mobilenet_vela.tflite";
  BOOST_TEST_REQUIRE(fs::exists(optimised));

  const Result listed = run(quoted(binary("npu-pipeline")) + " inspect " + quoted(optimised));
  BOOST_TEST(listed.exitCode == 0, listed.output);
  BOOST_TEST(listed.output.find("CUSTOM:ethos-u") != std::string::npos, listed.output);

  const Result commands = run(quoted(binary("npu-pipeline")) + " inspect --commands " + quoted(optimised));
  BOOST_TEST(commands.exitCode == 0, commands.output);
  BOOST_TEST(commands.output.find("cmd0.NPU_OP_STOP") != std::string::npos);

  const Result checked = run(quoted(binary("npu-pipeline")) + " inspect --check " + quoted(optimised));
  BOOST_TEST(checked.exitCode == 0, checked.output);
  BOOST_TEST(checked.output.find("checked 1 accelerator operator: no problems") != std::string::npos, checked.output);
}

BOOST_AUTO_TEST_CASE(a_corrupted_command_stream_fails_the_check) {
  const fs::path output = scratchDirectory("corrupted");
  BOOST_TEST_REQUIRE(compile("C1-cascade.yaml", exampleModel(), output).exitCode == 0);
  const fs::path optimised = output / "small_mobilenet_vela.tflite";
  moveFirstOfmOutOfRange(optimised);
  const Result checked = run(quoted(binary("npu-pipeline")) + " inspect --check " + quoted(optimised));
  BOOST_TEST(checked.exitCode == 1, checked.output);
  BOOST_TEST(checked.output.find("outside its") != std::string::npos, checked.output);
}

BOOST_AUTO_TEST_CASE(the_check_of_a_written_model_counts_what_earlier_ethos_u_operators_wrote_of_a_concatenation) {
  // Two NPU subgraphs each write part of a concatenation; the later one takes it in and completes it.
  // Each operator was checked alone: the first one's part was reported as output bytes never written.
  const fs::path model =
      npu::test::sourceDir() / "tests" / "generated_networks" / "networks" / "concat_across_subgraphs.tflite";
  const fs::path output = scratchDirectory("concat_completed_later");
  const Result compiled = compile("C1-cascade.yaml", model, output);
  BOOST_TEST_REQUIRE(compiled.exitCode == 0, compiled.output);
  const Result checked = run(quoted(binary("npu-pipeline")) + " inspect --check " +
                             quoted(output / "concat_across_subgraphs_vela.tflite"));
  BOOST_TEST(checked.exitCode == 0, checked.output);
  BOOST_TEST(checked.output.find("checked 4 accelerator operators: no problems") != std::string::npos, checked.output);
}

BOOST_AUTO_TEST_CASE(every_output_is_byte_identical_at_one_and_two_threads) {
  // Every scheduler, and the Vela 2.1 lowering (its own placement checks): placement, the description of
  // each operation, the weight encodings and the reports all run in parallel.
  for (const std::string name : {"C1-cascade.yaml", "C3-cascade.yaml", "C1-dp.yaml", "C3-dp.yaml", "C1-dp-vela2.yaml",
                                 "../search/C1-search.yaml"}) {
    requireSameOutputsAtAnyThreadCount(name, exampleModel());
  }
}

BOOST_AUTO_TEST_CASE(shared_networks_are_byte_identical_at_one_two_and_four_threads) {
  // Blazeface: 17 operators placed on the CPU by the parallel support checks, with the reasons in every
  // report, and NPU regions between them. MobileNet-v2: a fully connected layer of a third of the weights,
  // whose encoding starts ahead of the others in code generation.
  const auto models = npu::test::sharedModelsDir();
  if (!models || !fs::exists(*models / "openmv_blazeface_front_128_int8.tflite") ||
      !fs::exists(*models / "nc_mobilenet_v2_224_int8.tflite")) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS not set: skipped");
    return;
  }
  for (const std::string name : {"C1-cascade.yaml", "C3-dp.yaml"}) {
    requireSameOutputsAtAnyThreadCount(name, *models / "openmv_blazeface_front_128_int8.tflite", {2, 4});
  }
  requireSameOutputsAtAnyThreadCount("C1-cascade.yaml", *models / "nc_mobilenet_v2_224_int8.tflite", {2, 4});
}

BOOST_AUTO_TEST_CASE(a_bad_codegen_option_writes_nothing) {
  const fs::path output = scratchDirectory("bad_option");
  const Result compiled = compile("C1-cascade.yaml", exampleModel(), output, "--set codegen.max_block_dependency=7");
  BOOST_TEST(compiled.exitCode == 2, compiled.output);
  BOOST_TEST(compiled.output.find("max_block_dependency") != std::string::npos, compiled.output);
  BOOST_TEST(fs::is_empty(output));
}

BOOST_AUTO_TEST_CASE(a_model_with_nothing_for_the_npu_is_written_without_an_ethos_u_operator) {
  const auto models = npu::test::sharedModelsDir();
  if (!models || !fs::exists(*models / "tflm_seanet_transpose_conv0_int16.tflite")) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS not set: skipped");
    return;
  }
  const fs::path output = scratchDirectory("cpu_only");
  const Result compiled = compile("C1-cascade.yaml", *models / "tflm_seanet_transpose_conv0_int16.tflite", output);
  BOOST_TEST_REQUIRE(compiled.exitCode == 0, compiled.output);
  const fs::path optimised = output / "tflm_seanet_transpose_conv0_int16_vela.tflite";
  const Result listed = run(quoted(binary("npu-pipeline")) + " inspect " + quoted(optimised));
  BOOST_TEST(listed.exitCode == 0, listed.output);
  BOOST_TEST(listed.output.find("TRANSPOSE_CONV") != std::string::npos, listed.output);
  BOOST_TEST(listed.output.find("ethos-u") == std::string::npos, listed.output);
}

BOOST_AUTO_TEST_CASE(a_concatenation_written_on_both_sides_of_a_cpu_operator_has_one_producer_in_the_written_model) {
  // fuzz_pipeline's input (fuzz/findings): two NPU regions each write part of a concatenation that is a
  // network output. The later region takes the tensor in and writes its part in place; listing it as an
  // output of both made a model that cannot be read back.
  const fs::path model = npu::test::sourceDir() / "fuzz" / "findings" / "codegen_two_writers_of_one_tensor.tflite";
  const fs::path output = scratchDirectory("two_writers");
  const Result compiled = compile("C1-cascade.yaml", model, output);
  BOOST_TEST_REQUIRE(compiled.exitCode == 0, compiled.output);
  const Result checked = run(quoted(binary("npu-pipeline")) + " inspect --check " +
                             quoted(output / "codegen_two_writers_of_one_tensor_vela.tflite"));
  BOOST_TEST(checked.exitCode == 0, checked.output);
  BOOST_TEST(checked.output.find("checked 2 accelerator operators: no problems") != std::string::npos, checked.output);
}

BOOST_AUTO_TEST_CASE(a_fully_connected_layer_of_a_strided_split_part_reads_a_copy_of_the_part) {
  // npu-model-gen random --seed 9: a FULLY_CONNECTED of the 2-column middle part of a 7x7 input split along
  // its width, a part no single run of bytes holds (Vela 3.10 compiles it into a program that reads 1x1x2;
  // we stopped with a compile error): the part is copied into a tensor of its own, which the layer reads.
  const fs::path folder = scratchDirectory("strided_part");
  const fs::path model =
      generateModel("random --seed 9 --operators 3 --kinds fully-connected,split,split-v,strided-slice,slice --no-cpu",
                    folder / "fc_of_strided_part.tflite");
  const Result compiled = compile("C1-cascade.yaml", model, folder / "out");
  BOOST_TEST_REQUIRE(compiled.exitCode == 0, compiled.output);
  const Result checked = run(quoted(binary("npu-pipeline")) + " inspect --check " +
                             quoted(folder / "out" / "fc_of_strided_part_vela.tflite"));
  BOOST_TEST(checked.exitCode == 0, checked.output);
  const Result lowered =
      run(quoted(binary("npu-pipeline")) + " inspect --pipeline " +
          quoted(npu::test::sourceDir() / "configs" / "reference" / "C1-cascade.yaml") + " --lowered " + quoted(model));
  BOOST_TEST(lowered.output.find("AvgPool (SPLIT") != std::string::npos, lowered.output);
}

BOOST_AUTO_TEST_CASE(a_memory_copy_of_a_part_not_on_sixteen_bytes_copies_the_part_not_the_whole_source) {
  // npu-model-gen random --seed 53: a RESHAPE of a STRIDED_SLICE part becomes a MEMCPY; Vela's DMA copies
  // the whole source from its start, past the destination (code generation's check refused our copy of
  // that program). The part does not start on 16 bytes, so it is copied by an AvgPool first.
  const fs::path folder = scratchDirectory("memcpy_part");
  const fs::path model =
      generateModel("random --seed 53 --operators 3 --kinds fully-connected,split,split-v,strided-slice,slice --no-cpu",
                    folder / "memcpy_of_part.tflite");
  for (const char* pipeline : {"C1-cascade.yaml", "C3-cascade.yaml"}) {
    const Result compiled = compile(pipeline, model, folder / pipeline);
    BOOST_TEST_REQUIRE(compiled.exitCode == 0, compiled.output);
    const Result checked = run(quoted(binary("npu-pipeline")) + " inspect --check " +
                               quoted(folder / pipeline / "memcpy_of_part_vela.tflite"));
    BOOST_TEST(checked.exitCode == 0, checked.output);
  }
}

BOOST_AUTO_TEST_CASE(a_memory_copy_of_a_channel_part_reads_a_copy_of_the_part) {
  // random_485 of the differential: a MEAN over a one-wide axis (a MEMCPY) of half the channels of a SPLIT.
  // No DMA copies a part that is not one run of bytes (Vela's copies the whole 1088-byte input into the
  // 544-byte output): an AvgPool copies the part first.
  const fs::path model =
      npu::test::sourceDir() / "tests" / "generated_networks" / "networks" / "cascade_memcpy_of_channel_part.tflite";
  const Result lowered =
      run(quoted(binary("npu-pipeline")) + " inspect --pipeline " +
          quoted(npu::test::sourceDir() / "configs" / "reference" / "C1-cascade.yaml") + " --lowered " + quoted(model));
  BOOST_TEST_REQUIRE(lowered.exitCode == 0, lowered.output);
  BOOST_TEST(lowered.output.find("AvgPool (SPLIT)") != std::string::npos, lowered.output);
  BOOST_TEST(lowered.output.find("Memcpy (MEAN)                           int8[1x36x1x15]") != std::string::npos,
             lowered.output);
}

BOOST_AUTO_TEST_SUITE_END()
