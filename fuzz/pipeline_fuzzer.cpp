// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the whole compile of one model file — read, lower, schedule, allocate, evaluate and
// generate code — with configs/reference/C1-cascade.yaml (Ethos-U55-128, cascade scheduler, hill-climb
// allocator, code generation with its own stream checker), through the plugins as npu-pipeline loads
// them. A located npu::Error is the expected answer to a bad model; a crash, a sanitizer report, an
// exception of another type or an internal error is a finding. libFuzzer's -timeout and -rss_limit_mb
// turn a compile that runs away in time or memory into a finding too. The pipeline is the copy CMake puts
// beside the target (pipeline.yaml), the plugins those of its build tree; NPU_FUZZ_PIPELINE and
// NPU_FUZZ_PLUGIN_DIR replace them (scripts/ci-fuzz.sh runs a copy at a fixed path).
#include "npu/core/diagnostics.hpp"
#include "npu/core/progress.hpp"
#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/compiler.hpp"
#include "npu/pipeline/pipeline.hpp"

#include <tbb/global_control.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>

namespace {

struct Compiler {
  npu::PluginHost host;
  npu::ResolvedPipeline pipeline;
  std::filesystem::path directory; ///< this process's scratch directory, removed at exit
  std::filesystem::path model;
  // One thread: coverage and timing of one input stay comparable; the parallel code has its own checks.
  tbb::global_control threads{tbb::global_control::max_allowed_parallelism, 1};
};

std::unique_ptr<Compiler> compiler;

/// The variable's value, or `fallback` relative to this program's directory (<build>/fuzz).
std::filesystem::path environmentOr(const char* name, const std::filesystem::path& fallback) {
  const char* value = std::getenv(name);
  if (value != nullptr && *value != '\0') {
    return value;
  }
  return std::filesystem::read_symlink("/proc/self/exe").parent_path() / fallback;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  compiler = std::make_unique<Compiler>();
  compiler->host.loadDirectory(environmentOr("NPU_FUZZ_PLUGIN_DIR", "../lib/npu-pipeline/plugins"));
  const auto spec = npu::parsePipelineFile(environmentOr("NPU_FUZZ_PIPELINE", "pipeline.yaml"));
  compiler->pipeline = npu::resolvePipeline(spec, compiler->host, npu::defaultConfigSearchPath());
  // The compile sees the same path length in every process (the process id zero-padded to ten digits) and
  // the same file name: paths reach messages, and a message's length changes the string code it runs, so
  // with a shorter or longer path one input would cover other edges from one run (or machine) to the next.
  const std::filesystem::path scratch = std::filesystem::exists("/dev/shm") ? "/dev/shm" : "/tmp";
  std::string pid = std::to_string(::getpid());
  pid.insert(0, pid.size() < 10 ? 10 - pid.size() : 0, '0');
  compiler->directory = scratch / ("npu_fuzz_" + pid);
  std::filesystem::create_directories(compiler->directory);
  compiler->model = compiler->directory / "model.tflite";
  std::atexit([] {
    std::error_code ignored;
    std::filesystem::remove_all(compiler->directory, ignored);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::ofstream(compiler->model, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    npu::SilentProgress progress;
    const npu::Compilation compilation = npu::compileModel(compiler->pipeline, compiler->model, progress);
    (void)compilation;
  } catch (const npu::Error& error) {
    if (error.kind() == npu::ErrorKind::Internal) {
      std::fprintf(stderr, "%s\n", error.render().c_str());
      std::abort();
    }
  }
  return 0;
}
