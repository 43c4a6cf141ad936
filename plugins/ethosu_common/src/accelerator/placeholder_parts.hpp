#pragma once

// Stand-in for the part of the accelerator that lands separately (supported-operator checks in
// src/support). Replaced as soon as that class is committed.

#include "npu/plugin/accelerator.hpp"

#include <memory>

namespace ethosu {

/// Accepts every operation.
[[nodiscard]] std::unique_ptr<npu::OperatorSupport> makePlaceholderOperatorSupport();

} // namespace ethosu
