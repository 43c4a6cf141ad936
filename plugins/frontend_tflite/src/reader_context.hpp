// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/diagnostics.hpp"
#include "npu/ir/tensor.hpp"

#include <tflite/tflite_schema_generated.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace npu::tflite_frontend::detail {

/// State shared while one file is read: the bytes, the verified model, the constant buffers made so far.
class ReaderContext {
public:
  /// `knownBuffers`: contents to share instead of copying where a buffer's bytes equal them (by index);
  /// `placeholders` (sorted): buffers whose bytes are unwritten room for their known contents.
  ReaderContext(std::span<const std::uint8_t> file, std::string path, const tflite::Model& model,
                std::span<const ConstantBuffer> knownBuffers = {}, std::span<const std::uint32_t> placeholders = {});

  [[nodiscard]] const tflite::Model& model() const { return model_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] std::size_t bufferCount() const { return bufferCache_.size(); }
  [[nodiscard]] std::size_t subgraphCount() const;

  /// The contents of a buffer (inline data, or the byte range outside the flatbuffer that large models
  /// use), shared by every tensor reading it; null when the buffer is empty. `who` names the reader in
  /// errors. The index must have been checked against bufferCount().
  [[nodiscard]] ConstantBuffer buffer(std::uint32_t index, const std::string& who);

  /// Bytes of the file at [offset, offset + size), checked against the file's end.
  [[nodiscard]] std::span<const std::uint8_t> fileRange(std::uint64_t offset, std::uint64_t size,
                                                        const std::string& who) const;

  /// Throws a Model error located at this file and `object` ("subgraph 0, tensor 3 'x'").
  [[noreturn]] void fail(std::string message, std::string object = {}, std::string hint = {}) const;

private:
  std::span<const std::uint8_t> file_;
  std::string path_;
  const tflite::Model& model_;
  std::span<const ConstantBuffer> knownBuffers_;
  std::span<const std::uint32_t> placeholders_;
  std::vector<ConstantBuffer> bufferCache_;
  std::vector<bool> bufferRead_;
};

/// "subgraph 0, tensor 3 'name'" for messages.
[[nodiscard]] std::string describeTensor(std::size_t subgraph, std::size_t tensor, const std::string& name);
/// "subgraph 0, operator 5" for messages about an operator whose name is not known yet.
[[nodiscard]] std::string describeOperator(std::size_t subgraph, std::size_t op);

} // namespace npu::tflite_frontend::detail
