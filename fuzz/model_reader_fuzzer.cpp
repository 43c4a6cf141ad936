// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the TFLite reader on arbitrary bytes. A located npu::Error is the expected answer
// to a bad file; anything else (a crash, a sanitizer report, another exception, an internal error)
// is a finding.
#include "frontend_tflite/model_reader.hpp"

#include "npu/core/diagnostics.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const npu::Graph graph = npu::tflite_frontend::readModel(std::span(data, size), "fuzz.tflite");
    (void)graph;
  } catch (const npu::Error& error) {
    if (error.kind() == npu::ErrorKind::Internal) {
      std::fprintf(stderr, "%s\n", error.render().c_str());
      std::abort();
    }
  }
  return 0;
}
