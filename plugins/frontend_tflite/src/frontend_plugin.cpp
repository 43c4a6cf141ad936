// SPDX-License-Identifier: Apache-2.0
#include "frontend_tflite/model_reader.hpp"

#include "npu/plugin/frontend.hpp"

namespace {

/// The TensorFlow Lite frontend: verified flatbuffer in, Graph out (see model_reader.hpp).
class TfliteFrontendPlugin final : public npu::FrontendPlugin {
public:
  [[nodiscard]] std::vector<std::string> fileExtensions() const override { return {".tflite"}; }

  [[nodiscard]] npu::Graph read(const std::filesystem::path& file,
                                const npu::OptionValues& /*options*/) const override {
    return npu::tflite_frontend::readModelFile(file);
  }
};

} // namespace

NPU_PIPELINE_PLUGIN("frontend_tflite", npu::PluginKind::Frontend, "1.0.0",
                    "TensorFlow Lite flatbuffers (.tflite), verified, all builtin operators mapped as Vela does",
                    TfliteFrontendPlugin)
