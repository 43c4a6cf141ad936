// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/plugin/accelerator.hpp"

namespace ethosu {

/// Feature map storage of the Ethos-U: linear NHWC or NHCWB16 bricks (depth rounded to 16), every
/// buffer a multiple of 16 bytes (Vela's storage_rounding_quantums and Tensor.storage_size).
class TensorLayout final : public npu::TensorLayout {
public:
  [[nodiscard]] bool supportsFormat(npu::TensorFormat format) const override;
  [[nodiscard]] npu::Shape4 storageRounding(npu::TensorFormat format) const override;
  [[nodiscard]] std::int64_t storageBytes(const npu::Shape4& shape, npu::DataType type,
                                          npu::TensorFormat format) const override;
};

} // namespace ethosu
