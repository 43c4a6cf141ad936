// SPDX-License-Identifier: Apache-2.0
// The register command stream of hand-made NPU operations: what a register cannot hold is a compile
// error naming the operation, the decoder reads back what the generator wrote, and the checker accepts
// a sound stream and catches the same stream once corrupted.
#include "checker/stream_check.hpp"
#include "codegen_ethosu/command_stream.hpp"
#include "codegen_ethosu/registers.hpp"
#include "decoder/command_decoder.hpp"

#include "ethosu/architecture/architecture.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace ethosu;
using namespace ethosu::codegen;

namespace {

npu::MemorySystem sharedSram() {
  npu::MemorySystem memory;
  memory.constantArea = npu::MemoryArea::OffChipFlash;
  memory.featureMapArea = npu::MemoryArea::Sram;
  memory.fastStorageArea = npu::MemoryArea::Sram;
  memory.arenaCacheSize = 1 << 20;
  return memory;
}

const Architecture& u55() {
  static const Architecture architecture(*findVariant("ethos-u55-128"), sharedSram());
  return architecture;
}

FeatureMap featureMap(std::string name, std::int64_t address) {
  FeatureMap map;
  map.type = NpuDataType::Int8;
  map.region = region::kScratch;
  map.shape = Shape3{8, 8, 16};
  map.tiles = TileBox{8, 8, 8, {address, 0, 0, 0}};
  map.quantisation = Quantisation{0.5, 0};
  map.strides = Shape3{8 * 16, 16, 1};
  map.name = std::move(name);
  return map;
}

/// A 1x1 convolution from scratch 0x0 to scratch 0x400, its weights and scales copied into scratch
/// 0x800 by a DMA from flash first.
std::vector<NpuOperation> copyThenConvolve() {
  DmaOperation copy;
  copy.name = "conv_weights";
  copy.source = AddressRange{region::kReadOnly, 0, 512};
  copy.destination = AddressRange{region::kScratch, 0x800, 512};
  BlockOperation conv;
  conv.kind = BlockOperation::Kind::Conv2D;
  conv.name = "conv";
  conv.ifm = featureMap("input", 0);
  conv.ofm = featureMap("output", 0x400);
  conv.kernel = NpuKernel{};
  conv.padding = NpuPadding{};
  conv.biases = {AddressRange{region::kScratch, 0x800, 160}};
  conv.weights = {AddressRange{region::kScratch, 0x8a0, 352}};
  conv.blockConfig = Shape3{8, 8, 16};
  conv.blockTraversal = BlockTraversal::DepthFirst;
  return {copy, conv};
}

std::vector<std::uint8_t> payloadOf(const std::vector<NpuOperation>& operations) {
  const RegisterStreamOptions options{3, defaultRegionLimits(u55())};
  return driverPayload(generateRegisterStream(operations, u55(), options), u55());
}

StreamMemory memoryForCopyThenConvolve() {
  StreamMemory memory;
  memory.regionBytes = {{region::kReadOnly, 512}, {region::kScratch, 0x1000}};
  memory.inputs = {{region::kScratch, 0, 0x400, false}};
  memory.outputs = {{region::kScratch, 0x400, 0x800, true}};
  return memory;
}

/// Rewrites the first command word with the given code (a cmd0) to `replacement`.
std::vector<std::uint8_t> withCommandReplaced(std::vector<std::uint8_t> payload, Cmd0 code, std::uint32_t replacement) {
  const DriverPayloadView view = readDriverPayload(payload);
  const std::size_t streamStart = payload.size() - view.registerStream.size() * 4;
  for (const DecodedCommand& command : decodeCommands(view.registerStream)) {
    if (!command.hasPayload && command.command() == static_cast<std::uint16_t>(code)) {
      for (int byte = 0; byte < 4; ++byte) {
        payload[streamStart + command.offset + static_cast<std::size_t>(byte)] =
            static_cast<std::uint8_t>(replacement >> (8 * byte));
      }
      return payload;
    }
  }
  BOOST_FAIL("the stream has no such command");
  return payload;
}

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& problem) { return problem.find(text) != std::string::npos; });
}

} // namespace

BOOST_AUTO_TEST_SUITE(register_stream)

BOOST_AUTO_TEST_CASE(a_stream_generated_one_operation_at_a_time_equals_the_stream_of_the_whole_list) {
  const RegisterStreamOptions options{3, defaultRegionLimits(u55())};
  std::vector<NpuOperation> operations;
  for (int repeat = 0; repeat < 4; ++repeat) { // more than the outstanding DMAs and kernels the waits track
    for (const NpuOperation& operation : copyThenConvolve()) {
      operations.push_back(operation);
    }
  }
  RegisterStreamGenerator generator(u55(), options);
  for (const NpuOperation& operation : operations) {
    generator.add(operation);
  }
  BOOST_TEST((generator.finish() == generateRegisterStream(operations, u55(), options)));
}

BOOST_AUTO_TEST_CASE(a_copy_then_a_convolution_decode_to_their_commands_and_pass_the_checker) {
  const auto payload = payloadOf(copyThenConvolve());
  const DriverPayloadView view = readDriverPayload(payload);
  BOOST_TEST_REQUIRE(view.variant != nullptr);
  BOOST_TEST(view.variant->name == "ethos-u55-128");
  const auto commands = decodeCommands(view.registerStream);
  const auto named = [&](Cmd0 code) {
    return std::count_if(commands.begin(), commands.end(), [&](const DecodedCommand& command) {
      return !command.hasPayload && command.command() == static_cast<std::uint16_t>(code);
    });
  };
  BOOST_TEST(named(Cmd0::OpDmaStart) == 1);
  BOOST_TEST(named(Cmd0::OpDmaWait) == 1); // the convolution reads what the DMA writes
  BOOST_TEST(named(Cmd0::OpConv) == 1);
  BOOST_TEST(named(Cmd0::OpStop) == 1);
  const std::string listing = formatCommands(commands);
  BOOST_TEST(listing.find("cmd0.NPU_OP_CONV") != std::string::npos);
  BOOST_TEST(listing.find("Number of commands = " + std::to_string(commands.size())) != std::string::npos);
  const auto problems = checkCommandStream(payload, memoryForCopyThenConvolve());
  BOOST_TEST(problems.empty(), (problems.empty() ? "" : problems.front()));
}

BOOST_AUTO_TEST_CASE(the_checker_catches_a_stream_whose_dma_wait_was_taken_out) {
  // NPU_OP_KERNEL_WAIT with 0x7fff outstanding waits for nothing.
  const auto corrupted = withCommandReplaced(payloadOf(copyThenConvolve()), Cmd0::OpDmaWait, 0x7fff0012U);
  const auto problems = checkCommandStream(corrupted, memoryForCopyThenConvolve());
  BOOST_TEST(mentions(problems, "a wait for it is missing"));
}

BOOST_AUTO_TEST_CASE(the_checker_catches_an_ofm_written_outside_the_scratch_tensor) {
  auto operations = copyThenConvolve();
  std::get<BlockOperation>(operations[1]).ofm.tiles.addresses[0] = 0x7F000;
  auto memory = memoryForCopyThenConvolve();
  const auto problems = checkCommandStream(payloadOf(operations), memory);
  BOOST_TEST(mentions(problems, "writes region 1"));
  BOOST_TEST(mentions(problems, "never written")); // and the real output stays unwritten
}

BOOST_AUTO_TEST_CASE(the_checker_catches_a_read_of_scratch_nothing_wrote) {
  auto memory = memoryForCopyThenConvolve();
  memory.inputs.clear();
  BOOST_TEST(mentions(checkCommandStream(payloadOf(copyThenConvolve()), memory), "before anything wrote it"));
}

BOOST_AUTO_TEST_CASE(a_dma_copying_a_written_feature_map_may_read_the_padding_of_its_buffer) {
  // A 3x3x3 OFM is 27 bytes in a 32-byte buffer; a DMA copies whole 16-byte units of it.
  auto operations = copyThenConvolve();
  auto& conv = std::get<BlockOperation>(operations[1]);
  for (FeatureMap* map : {&conv.ifm, &conv.ofm}) {
    map->shape = Shape3{3, 3, 3};
    map->tiles.height0 = map->tiles.height1 = map->tiles.width0 = 3;
    map->strides = Shape3{9, 3, 1};
  }
  DmaOperation copyOut;
  copyOut.name = "copy_of_output";
  copyOut.source = AddressRange{region::kScratch, 0x400, 32};
  copyOut.destination = AddressRange{region::kScratch, 0xc00, 32};
  operations.push_back(copyOut);
  StreamMemory memory;
  memory.regionBytes = {{region::kReadOnly, 512}, {region::kScratch, 0x1000}};
  memory.inputs = {{region::kScratch, 0, 27, false}};
  const auto problems = checkCommandStream(payloadOf(operations), memory);
  BOOST_TEST(problems.empty(), (problems.empty() ? "" : problems.front()));
}

BOOST_AUTO_TEST_CASE(an_address_beyond_the_region_is_a_compile_error_naming_the_operation) {
  auto operations = copyThenConvolve();
  std::get<BlockOperation>(operations[1]).ofm.tiles.addresses[0] = std::int64_t{1} << 33;
  try {
    static_cast<void>(payloadOf(operations));
    BOOST_FAIL("the stream was generated");
  } catch (const npu::Error& error) {
    BOOST_TEST((error.kind() == npu::ErrorKind::Compile));
    BOOST_TEST(error.message().find("'conv'") != std::string::npos, error.message());
  }
}

BOOST_AUTO_TEST_CASE(a_misaligned_stride_is_a_compile_error_naming_the_feature_map) {
  auto operations = copyThenConvolve();
  auto& conv = std::get<BlockOperation>(operations[1]);
  conv.ofm.layout = NpuLayout::NHCWB16;
  conv.ofm.strides = Shape3{8 * 16 + 4, 16, 8 * 16};
  try {
    static_cast<void>(payloadOf(operations));
    BOOST_FAIL("the stream was generated");
  } catch (const npu::Error& error) {
    BOOST_TEST((error.kind() == npu::ErrorKind::Compile));
    BOOST_TEST(error.message().find("'output' stride") != std::string::npos, error.message());
  }
}

BOOST_AUTO_TEST_CASE(a_block_dependency_above_three_is_refused) {
  const RegisterStreamOptions options{4, defaultRegionLimits(u55())};
  const auto operations = copyThenConvolve();
  BOOST_CHECK_THROW(static_cast<void>(generateRegisterStream(operations, u55(), options)), npu::Error);
}

BOOST_AUTO_TEST_CASE(a_truncated_or_foreign_command_stream_is_a_model_error) {
  auto payload = payloadOf(copyThenConvolve());
  payload.resize(payload.size() - 8);
  BOOST_CHECK_THROW(static_cast<void>(readDriverPayload(payload)), npu::Error);
  BOOST_CHECK_THROW(static_cast<void>(readDriverPayload(std::vector<std::uint8_t>{1, 2, 3, 4})), npu::Error);
  const std::vector<std::uint32_t> unknownCode{0x0000007fU};
  BOOST_CHECK_THROW(static_cast<void>(decodeCommands(unknownCode)), npu::Error);
  const std::vector<std::uint32_t> missingPayload{0x00004000U};
  BOOST_CHECK_THROW(static_cast<void>(decodeCommands(missingPayload)), npu::Error);
  // The checker turns what cannot be decoded into a problem, not a crash.
  BOOST_TEST(!checkCommandStream(payload, memoryForCopyThenConvolve()).empty());
}

BOOST_AUTO_TEST_SUITE_END()
