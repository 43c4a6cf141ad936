// SPDX-License-Identifier: Apache-2.0
// The one gate every file we read passes: a regular file under the cap of its kind, else a clear error.
// Nothing here may hang: a FIFO is refused from a non-blocking open, without waiting for a writer.
#include "npu/core/input_file.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <functional>
#include <stdexcept>

namespace {

/// The error `action` throws (fails the test when it throws none).
npu::Error errorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const npu::Error& error) {
    return error;
  }
  BOOST_FAIL("expected an error");
  throw std::logic_error("unreachable");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

} // namespace

BOOST_AUTO_TEST_SUITE(input_file)

BOOST_AUTO_TEST_CASE(a_regular_file_is_read_whole) {
  npu::test::TemporaryDirectory folder;
  const auto file = folder.path() / "p.yaml";
  std::string content(200'000, 'x');
  content += "end";
  npu::test::writeFile(file, content);
  BOOST_TEST(npu::readInputFile(file, npu::kPipelineFile) == content);
  const auto bytes = npu::readInputFileBytes(file, npu::kModelFile);
  BOOST_TEST(bytes.size() == content.size());
  BOOST_TEST(bytes.back() == 'd');
}

BOOST_AUTO_TEST_CASE(a_directory_a_device_and_a_fifo_are_not_regular_files) {
  npu::test::TemporaryDirectory folder;
  const auto directory = errorOf([&] { (void)npu::readInputFile(folder.path(), npu::kPipelineFile); });
  BOOST_TEST(contains(directory.message(), "is not a regular file (it is a directory)"), directory.message());
  BOOST_TEST(directory.exitCode() == 2);

  const auto device = errorOf([] { (void)npu::readInputFile("/dev/zero", npu::kConfigFile); });
  BOOST_TEST(contains(device.message(), "config file '/dev/zero' is not a regular file (it is a character device)"),
             device.message());

  // No writer ever opens this FIFO: a blocking open would hang the test.
  const auto fifo = folder.path() / "pipe.yaml";
  BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto named = errorOf([&] { (void)npu::readInputFile(fifo, npu::kPipelineFile); });
  BOOST_TEST(contains(named.message(), "is not a regular file (it is a FIFO (named pipe))"), named.message());
  BOOST_CHECK_THROW(npu::checkInputFile(fifo, npu::kModelFile), npu::Error);
}

BOOST_AUTO_TEST_CASE(a_file_above_the_cap_of_its_kind_is_refused_before_it_is_read) {
  npu::test::TemporaryDirectory folder;
  const auto file = folder.path() / "big.yaml";
  npu::test::writeFile(file, std::string(2048, '#'));
  const npu::InputFileKind small{"test file", 1024, npu::ErrorKind::Config};
  const auto error = errorOf([&] { (void)npu::readInputFile(file, small); });
  BOOST_TEST(contains(error.message(), "is too large (2048 bytes; a test file may have at most 1024 bytes)"),
             error.message());
  BOOST_TEST(npu::readInputFile(file, npu::kPipelineFile).size() == 2048U);
  BOOST_TEST(npu::kMaxTextFileBytes == 4U << 20);
  BOOST_TEST(npu::kMaxModelFileBytes == 1U << 30);
}

BOOST_AUTO_TEST_CASE(the_error_is_located_at_the_setting_that_names_the_file_and_has_the_kind_s_exit_code) {
  const npu::SourceLocation where{"pipeline.yaml", 5, 11, {}};
  const auto missing = errorOf([&] { (void)npu::readInputFile("/no/such/file.yaml", npu::kConfigFile, where); });
  BOOST_TEST(missing.location().str() == "pipeline.yaml:5:11");
  BOOST_TEST(contains(missing.message(), "'/no/such/file.yaml' does not exist"));
  BOOST_TEST((missing.kind() == npu::ErrorKind::Config));
  const auto model = errorOf([] { (void)npu::readInputFileBytes("/dev/zero", npu::kModelFile); });
  BOOST_TEST(model.location().file == "/dev/zero");
  BOOST_TEST((model.kind() == npu::ErrorKind::Usage));
  BOOST_TEST(model.exitCode() == 2);
}

BOOST_AUTO_TEST_CASE(a_file_s_bytes_are_given_whole_however_they_are_read_and_an_empty_file_has_none) {
  npu::test::TemporaryDirectory folder;
  const auto file = folder.path() / "m.tflite";
  std::string content(100'000, 'm');
  content += "last";
  npu::test::writeFile(file, content);
  for (const auto reading : {npu::InputFileBytes::Reading::Whole, npu::InputFileBytes::Reading::Parts}) {
    const npu::InputFileBytes bytes(file, npu::kModelFile, reading);
    BOOST_TEST(std::string(bytes.bytes().begin(), bytes.bytes().end()) == content);
  }
  const auto empty = folder.path() / "empty.tflite";
  npu::test::writeFile(empty, "");
  BOOST_TEST(npu::InputFileBytes(empty, npu::kModelFile, npu::InputFileBytes::Reading::Whole).bytes().empty());
}

BOOST_AUTO_TEST_CASE(file_bytes_are_refused_as_the_read_file_is) {
  npu::test::TemporaryDirectory folder;
  const auto directory =
      errorOf([&] { npu::InputFileBytes(folder.path(), npu::kModelFile, npu::InputFileBytes::Reading::Whole); });
  BOOST_TEST(contains(directory.message(), "is not a regular file (it is a directory)"), directory.message());
  const auto device =
      errorOf([] { npu::InputFileBytes("/dev/zero", npu::kModelFile, npu::InputFileBytes::Reading::Parts); });
  BOOST_TEST(device.exitCode() == 2);
  const npu::InputFileKind small{"test file", 10, npu::ErrorKind::Usage};
  const auto file = folder.path() / "big.tflite";
  npu::test::writeFile(file, std::string(11, 'x'));
  const auto large = errorOf([&] { npu::InputFileBytes(file, small, npu::InputFileBytes::Reading::Whole); });
  BOOST_TEST(contains(large.message(), "is too large (11 bytes; a test file may have at most 10 bytes)"),
             large.message());
}

BOOST_AUTO_TEST_SUITE_END()
