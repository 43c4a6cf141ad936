// SPDX-License-Identifier: Apache-2.0
// A SOFTMAX of one half of a SPLIT (npu-model-gen random --seed 139 --operators 12): its max pool reads
// the part [1, 1, 1, 50] of the source [1, 1, 1, 100] as [1, 1, 50, 1], a 50-wide kernel. The command
// stream check cannot see a read of the wrong written bytes, so the registers are checked here.
#include "codegen_ethosu/registers.hpp"
#include "decoder/command_decoder.hpp"
#include "reference_compile.hpp"

#include <boost/test/unit_test.hpp>

#include <optional>

using namespace ethosu::codegen;

namespace {

/// The IFM base and width registers in force at an operation of the stream.
struct IfmAt {
  std::int64_t base = -1;
  int widthM1 = -1;
};

/// The IFM of the first operation of `kind` in the stream and of the first operation after it.
std::pair<IfmAt, IfmAt> firstOperationAndNext(const std::vector<std::uint8_t>& payload, Cmd0 kind) {
  IfmAt current;
  std::optional<IfmAt> first;
  for (const DecodedCommand& command : decodeCommands(readDriverPayload(payload).registerStream)) {
    const auto code = command.command();
    if (command.hasPayload && code == static_cast<std::uint16_t>(Cmd1::IfmBase0)) {
      current.base = command.address();
    } else if (!command.hasPayload && code == static_cast<std::uint16_t>(Cmd0::IfmWidth0M1)) {
      current.widthM1 = command.param;
    } else if (!command.hasPayload && (code == static_cast<std::uint16_t>(Cmd0::OpPool) ||
                                       code == static_cast<std::uint16_t>(Cmd0::OpElementwise))) {
      if (first) {
        return {*first, current};
      }
      if (code == static_cast<std::uint16_t>(kind)) {
        first = current;
      }
    }
  }
  BOOST_FAIL("the stream has no such operation followed by another");
  return {};
}

} // namespace

BOOST_AUTO_TEST_SUITE(split_part_view)

BOOST_AUTO_TEST_CASE(a_softmax_max_pool_reads_its_split_part_in_its_own_view_where_the_part_is) {
  const test::ReferenceCompiler compiler;
  const npu::Compilation compilation = compiler.compile(npu::test::sourceDir() / "tests" / "generated_networks" /
                                                        "networks" / "cascade_softmax_split_part.tflite");
  BOOST_TEST_REQUIRE(compilation.output.has_value());
  const std::vector<std::vector<std::uint8_t>> streams = test::ethosuPayloads(compilation);
  BOOST_TEST_REQUIRE(streams.size() == 3U);
  // The SOFTMAX is the last NPU region: its max pool comes first, then the Sub that reads the same part.
  const auto [pool, subtract] = firstOperationAndNext(streams.back(), Cmd0::OpPool);
  BOOST_TEST(pool.widthM1 == 49);         // the 50 values of the part as one row, not a 1-wide IFM
  BOOST_TEST(pool.base == subtract.base); // where the part starts, not the split source
}

BOOST_AUTO_TEST_SUITE_END()
