// SPDX-License-Identifier: Apache-2.0
// Deliberately broken plugins: each is compiled into its own library with one BROKEN_* macro set,
// and the plugin-host tests prove that each is refused with a clear reason. The variants follow the
// hostile libraries of issue 13 (a data symbol as entry point, a garbage factory that passes the
// version and hash checks, a null descriptor, constructors that abort or exit while loading).
#include "npu/plugin/frontend.hpp"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>

namespace {
class TestFrontend final : public npu::FrontendPlugin {
public:
  std::vector<std::string> fileExtensions() const override { return {".test"}; }
  npu::Graph read(const std::filesystem::path&, const npu::OptionValues&) const override { return {}; }
};

[[maybe_unused]] std::unique_ptr<npu::Plugin> makeFrontend() {
  return std::make_unique<TestFrontend>();
}
[[maybe_unused, noreturn]] std::unique_ptr<npu::Plugin> throwingFactory() {
  throw std::runtime_error("cannot open the vendor licence file");
}

#if defined(BROKEN_API_VERSION)
constexpr npu::PluginDescriptor kDescriptor{npu::kPluginApiVersion + 1,
                                            npu::kPluginHeaderHash,
                                            "wrong_api",
                                            npu::PluginKind::Frontend,
                                            "1.0",
                                            "",
                                            &makeFrontend};
#elif defined(BROKEN_HEADER_HASH)
constexpr npu::PluginDescriptor kDescriptor{
    npu::kPluginApiVersion, npu::kPluginHeaderHash ^ 0x1ULL, "wrong_hash", npu::PluginKind::Frontend, "1.0", "",
    &makeFrontend};
#elif defined(BROKEN_THROWING_FACTORY)
constexpr npu::PluginDescriptor kDescriptor{
    npu::kPluginApiVersion, npu::kPluginHeaderHash, "throwing_factory", npu::PluginKind::Frontend, "1.0", "",
    &throwingFactory};
#elif defined(BROKEN_WRONG_KIND)
constexpr npu::PluginDescriptor kDescriptor{
    npu::kPluginApiVersion, npu::kPluginHeaderHash, "wrong_kind", npu::PluginKind::Scheduler, "1.0", "", &makeFrontend};
#elif defined(BROKEN_GARBAGE_FACTORY)
// Passes the version and hash checks; calling the factory would jump to address 0x1234.
const npu::PluginDescriptor kDescriptor{npu::kPluginApiVersion,
                                        npu::kPluginHeaderHash,
                                        "garbage_factory",
                                        npu::PluginKind::Frontend,
                                        "1.0",
                                        "",
                                        reinterpret_cast<npu::PluginFactory>(std::uintptr_t{0x1234})};
#elif defined(BROKEN_CTOR_ABORT) || defined(BROKEN_CTOR_EXIT)
constexpr npu::PluginDescriptor kDescriptor{
    npu::kPluginApiVersion, npu::kPluginHeaderHash, "ending_constructor", npu::PluginKind::Frontend, "1.0", "",
    &makeFrontend};
#endif

#if defined(BROKEN_CTOR_ABORT)
[[gnu::constructor]] void abortWhileLoading() {
  std::abort();
}
#elif defined(BROKEN_CTOR_EXIT)
[[gnu::constructor]] void exitWhileLoading() {
  std::exit(0);
}
#endif
} // namespace

#if defined(BROKEN_MISSING_ENTRY_POINT)
NPU_PIPELINE_PLUGIN_EXPORT int npu_pipeline_something_else() {
  return 42;
}
#elif defined(BROKEN_DATA_SYMBOL)
// The entry point's name on bytes: calling it would execute data.
NPU_PIPELINE_PLUGIN_EXPORT const unsigned char npu_pipeline_plugin_descriptor[16] = {0xff, 0xff, 0xff, 0xff};
#elif defined(BROKEN_NULL_DESCRIPTOR)
NPU_PIPELINE_PLUGIN_EXPORT const npu::PluginDescriptor* npu_pipeline_plugin_descriptor() {
  return nullptr;
}
#elif defined(BROKEN_WILD_DESCRIPTOR)
NPU_PIPELINE_PLUGIN_EXPORT const npu::PluginDescriptor* npu_pipeline_plugin_descriptor() {
  return reinterpret_cast<const npu::PluginDescriptor*>(std::uintptr_t{0x40});
}
#else
NPU_PIPELINE_PLUGIN_EXPORT const npu::PluginDescriptor* npu_pipeline_plugin_descriptor() {
  return &kDescriptor;
}
#endif
