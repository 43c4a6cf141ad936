#pragma once

#include "npu/plugin/codegen.hpp"

#include <string>

namespace npu::cli {

/// Where every buffer of the network was placed, memory by memory, in the layout of Vela's
/// --verbose-allocation: live range, address range, size and name, ordered by live range.
[[nodiscard]] std::string renderAllocation(const NetworkAddresses& addresses);

} // namespace npu::cli
