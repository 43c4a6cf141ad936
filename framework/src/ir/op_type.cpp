// SPDX-License-Identifier: Apache-2.0
#include "npu/ir/op_type.hpp"

#include <array>
#include <utility>

namespace npu {

namespace {
struct OpTypeInfo {
  std::string_view name;
  OpCategory categories;
  OperandLayout layout;
};

constexpr std::array kOpTypes{
#define NPU_OP(name, categories, layout) OpTypeInfo{#name, categories, layout},
#include "npu/ir/op_types.def"
#undef NPU_OP
};

const OpTypeInfo& infoOf(OpType type) { return kOpTypes.at(static_cast<std::size_t>(type)); }
} // namespace

std::string_view nameOf(OpType type) { return infoOf(type).name; }
OpCategory categoriesOf(OpType type) { return infoOf(type).categories; }
OperandLayout operandLayoutOf(OpType type) { return infoOf(type).layout; }

std::optional<OpType> opTypeFromName(std::string_view name) {
  for (std::size_t i = 0; i < kOpTypes.size(); ++i) {
    if (kOpTypes[i].name == name) {
      return static_cast<OpType>(i);
    }
  }
  return std::nullopt;
}

} // namespace npu
