// SPDX-License-Identifier: Apache-2.0
#include "ethosu/accelerator/tensor_layout.hpp"

#include "ethosu/architecture/architecture.hpp"

#include <algorithm>

namespace ethosu {

bool TensorLayout::supportsFormat(npu::TensorFormat format) const {
  return format == npu::TensorFormat::NHWC || format == npu::TensorFormat::NHCWB16;
}

npu::Shape4 TensorLayout::storageRounding(npu::TensorFormat format) const {
  return Architecture::storageRounding(format);
}

std::int64_t TensorLayout::storageBytes(const npu::Shape4& shape, npu::DataType type, npu::TensorFormat format) const {
  const npu::Shape4 stored = npu::roundUp(shape, storageRounding(format));
  // An empty tensor still takes space (Tensor.storage_size).
  const std::int64_t bytes = std::max<std::int64_t>(stored.elements() * npu::bytesOf(type), 1);
  return npu::roundUp(bytes, CommonArchitecture::kStorageAlignment);
}

} // namespace ethosu
