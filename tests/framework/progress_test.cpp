// SPDX-License-Identifier: Apache-2.0
// The terminal progress bar: what a user watching a long compile sees.
#include "npu/core/progress.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

namespace {

struct CapturedOutput {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file{std::tmpfile(), &std::fclose};

  std::string text() const {
    std::fflush(file.get());
    std::rewind(file.get());
    std::string result;
    for (int c = std::fgetc(file.get()); c != EOF; c = std::fgetc(file.get())) {
      result.push_back(static_cast<char>(c));
    }
    return result;
  }
};

} // namespace

BOOST_AUTO_TEST_SUITE(terminal_progress)

BOOST_AUTO_TEST_CASE(the_bar_shows_the_stage_the_steps_done_and_the_elapsed_time) {
  CapturedOutput output;
  BOOST_REQUIRE(output.file);
  npu::TerminalProgress progress(output.file.get(), true);
  progress.begin("scheduling main_split_1", 4);
  progress.advance(1);
  const std::string text = output.text();
  BOOST_TEST(text.find("scheduling main_split_1 [") != std::string::npos);
  BOOST_TEST(text.find("] 1/4 0.0 s") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_elapsed_time_moves_while_the_steps_stand_still) {
  CapturedOutput output;
  BOOST_REQUIRE(output.file);
  npu::TerminalProgress progress(output.file.get(), true);
  progress.begin("searching", 1000000);
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  progress.advance(0); // the same permille: only the clock has moved
  const std::string text = output.text();
  const auto last = text.rfind("0/1000000 ");
  BOOST_REQUIRE(last != std::string::npos);
  BOOST_TEST(text.substr(last) != "0/1000000 0.0 s");
}

BOOST_AUTO_TEST_CASE(a_stage_of_unknown_length_shows_its_elapsed_time) {
  CapturedOutput output;
  BOOST_REQUIRE(output.file);
  npu::TerminalProgress progress(output.file.get(), true);
  progress.begin("lowering", 0);
  progress.end();
  BOOST_TEST(output.text().find("lowering ... 0.0 s") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(nothing_is_drawn_when_disabled) {
  CapturedOutput output;
  BOOST_REQUIRE(output.file);
  npu::TerminalProgress progress(output.file.get(), false);
  progress.begin("lowering", 3);
  progress.advance(2);
  progress.end();
  BOOST_TEST(output.text().empty());
}

BOOST_AUTO_TEST_SUITE_END()
