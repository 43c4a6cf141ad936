// SPDX-License-Identifier: Apache-2.0
#include "npu/plugin/performance.hpp"

namespace npu {

OperationPerformance& OperationPerformance::operator+=(const OperationPerformance& other) {
  for (std::size_t i = 0; i < cycles.size(); ++i) {
    cycles[i] += other.cycles[i];
  }
  macs += other.macs;
  for (std::size_t area = 0; area < bytes.size(); ++area) {
    for (std::size_t purpose = 0; purpose < bytes[area].size(); ++purpose) {
      for (std::size_t direction = 0; direction < bytes[area][purpose].size(); ++direction) {
        bytes[area][purpose][direction] += other.bytes[area][purpose][direction];
      }
    }
  }
  return *this;
}

} // namespace npu
