// SPDX-License-Identifier: Apache-2.0
#pragma once
// The real Ethos-U accelerator of a reference configuration (reference/README.md: C1/C2/C5 ethos-u55-128,
// C3 ethos-u65-256, C4 ethos-u55-64, each with its Vela system config and memory mode), built by
// ethosu::makeAccelerator with its supported-operator checks (Vela 3.10's).

#include "ethosu/accelerator/accelerator.hpp"

#include <memory>
#include <string>

namespace ethosu::lowering::test {

/// `options` are the accelerator plugin's options (e.g. force_symmetric_int_weights); missing ones default.
[[nodiscard]] std::unique_ptr<ethosu::Accelerator> makeReferenceAccelerator(const std::string& config,
                                                                            npu::OptionValues options = {});

} // namespace ethosu::lowering::test
