#include "placeholder_parts.hpp"

namespace ethosu {

namespace {

class AcceptAllOperatorSupport final : public npu::OperatorSupport {
public:
  [[nodiscard]] npu::SupportVerdict check(const npu::Subgraph& /*subgraph*/,
                                          const npu::Operation& /*op*/) const override {
    return {};
  }
};

} // namespace

std::unique_ptr<npu::OperatorSupport> makePlaceholderOperatorSupport() {
  return std::make_unique<AcceptAllOperatorSupport>();
}

} // namespace ethosu
