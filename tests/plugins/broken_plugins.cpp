// Deliberately broken plugins: each is compiled into its own library with one BROKEN_* macro set,
// and the plugin-host tests prove that each is refused with a clear reason.
#include "npu/plugin/frontend.hpp"

#include <stdexcept>

namespace {
class TestFrontend final : public npu::FrontendPlugin {
public:
  std::vector<std::string> fileExtensions() const override { return {".test"}; }
  npu::Graph read(const std::filesystem::path&, const npu::OptionValues&) const override { return {}; }
};

[[maybe_unused]] std::unique_ptr<npu::Plugin> makeFrontend() { return std::make_unique<TestFrontend>(); }
[[maybe_unused, noreturn]] std::unique_ptr<npu::Plugin> throwingFactory() {
  throw std::runtime_error("cannot open the vendor licence file");
}

#if defined(BROKEN_API_VERSION)
constexpr npu::PluginDescriptor kDescriptor{npu::kPluginApiVersion + 1, npu::kPluginHeaderHash, "wrong_api",
                                            npu::PluginKind::Frontend, "1.0", "", &makeFrontend};
#elif defined(BROKEN_HEADER_HASH)
constexpr npu::PluginDescriptor kDescriptor{npu::kPluginApiVersion, npu::kPluginHeaderHash ^ 0x1ULL, "wrong_hash",
                                            npu::PluginKind::Frontend, "1.0", "", &makeFrontend};
#elif defined(BROKEN_THROWING_FACTORY)
constexpr npu::PluginDescriptor kDescriptor{npu::kPluginApiVersion, npu::kPluginHeaderHash, "throwing_factory",
                                            npu::PluginKind::Frontend, "1.0", "", &throwingFactory};
#elif defined(BROKEN_WRONG_KIND)
constexpr npu::PluginDescriptor kDescriptor{npu::kPluginApiVersion, npu::kPluginHeaderHash, "wrong_kind",
                                            npu::PluginKind::Scheduler, "1.0", "", &makeFrontend};
#endif
} // namespace

#if defined(BROKEN_MISSING_ENTRY_POINT)
NPU_PIPELINE_PLUGIN_EXPORT int npu_pipeline_something_else() { return 42; }
#else
NPU_PIPELINE_PLUGIN_EXPORT const npu::PluginDescriptor* npu_pipeline_plugin_descriptor() { return &kDescriptor; }
#endif
