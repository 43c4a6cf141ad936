// SPDX-License-Identifier: Apache-2.0
// The same options give byte-identical files: in one process, across processes (a golden checksum) and
// from the command line.
#include "model_generator/model_generator.hpp"
#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace {

using namespace npu::modelgen;

NetworkOptions smallV2() {
  NetworkOptions options;
  options.architecture = Architecture::MobileNetV2;
  options.alpha = 0.35;
  options.resolution = 48;
  options.blocks = 9;
  options.classes = 10;
  options.seed = 7;
  return options;
}

/// FNV-1a, 64 bits.
std::uint64_t fingerprint(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const std::uint8_t byte : bytes) {
    hash = (hash ^ byte) * 0x100000001b3ULL;
  }
  return hash;
}

} // namespace

BOOST_AUTO_TEST_SUITE(determinism)

BOOST_AUTO_TEST_CASE(the_same_options_give_byte_identical_files) {
  BOOST_TEST((generate(smallV2()).bytes == generate(smallV2()).bytes));
}

BOOST_AUTO_TEST_CASE(the_seed_changes_the_weights_but_not_the_network) {
  NetworkOptions other = smallV2();
  other.seed = 8;
  const GeneratedModel a = generate(smallV2());
  const GeneratedModel b = generate(other);
  BOOST_TEST((a.bytes != b.bytes));
  BOOST_TEST(a.summary.macs == b.summary.macs);
  BOOST_TEST((a.summary.operatorCounts == b.summary.operatorCounts));
}

BOOST_AUTO_TEST_CASE(a_known_model_keeps_its_golden_checksum) {
  // Changes only when the generator is changed on purpose (then update the number) or when output stops
  // being deterministic (a bug).
  const GeneratedModel model = generate(smallV2());
  BOOST_TEST(model.bytes.size() == 370832U);
  BOOST_TEST(fingerprint(model.bytes) == 0x5242b8363a49c3b1ULL);
}

BOOST_AUTO_TEST_CASE(the_command_line_writes_what_the_library_generates) {
  const npu::test::TemporaryDirectory directory;
  const auto file = directory.path() / "v2.tflite";
  const auto tool = npu::test::buildDir() / "bin" / "npu-model-gen";
  const std::string command =
      tool.string() + " mobilenet-v2 --alpha 0.35 --resolution 48 --blocks 9 --classes 10 --seed 7 -o " + file.string();
  BOOST_TEST_REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream stream(file, std::ios::binary);
  const std::vector<std::uint8_t> written((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
  BOOST_TEST((written == generate(smallV2()).bytes));
}

BOOST_AUTO_TEST_SUITE_END()
