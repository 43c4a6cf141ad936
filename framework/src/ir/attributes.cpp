// SPDX-License-Identifier: Apache-2.0
#include "npu/ir/attributes.hpp"

#include <sstream>

namespace npu {

namespace {
template <typename T>
void printList(std::ostringstream& out, const std::vector<T>& values) {
  out << '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    out << (i == 0 ? "" : ", ") << values[i];
  }
  out << ']';
}
} // namespace

std::string toString(const AttributeValue& value) {
  std::ostringstream out;
  std::visit(
      [&out](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          out << (v ? "true" : "false");
        } else if constexpr (std::is_same_v<T, std::string>) {
          out << '"' << v << '"';
        } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>> || std::is_same_v<T, std::vector<double>>) {
          printList(out, v);
        } else {
          out << v;
        }
      },
      value);
  return out.str();
}

} // namespace npu
