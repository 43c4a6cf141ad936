// SPDX-License-Identifier: Apache-2.0
#include "reader_context.hpp"

#include <algorithm>
#include <memory>

namespace npu::tflite_frontend::detail {

ReaderContext::ReaderContext(std::span<const std::uint8_t> file, std::string path, const tflite::Model& model,
                             std::span<const ConstantBuffer> knownBuffers, std::span<const std::uint32_t> placeholders)
    : file_(file), path_(std::move(path)), model_(model), knownBuffers_(knownBuffers), placeholders_(placeholders) {
  const std::size_t count = model.buffers() == nullptr ? 0 : model.buffers()->size();
  bufferCache_.resize(count);
  bufferRead_.resize(count, false);
}

std::size_t ReaderContext::subgraphCount() const {
  return model_.subgraphs() == nullptr ? 0 : model_.subgraphs()->size();
}

ConstantBuffer ReaderContext::buffer(std::uint32_t index, const std::string& who) {
  require(index < bufferCache_.size(), "buffer index checked by the caller");
  if (bufferRead_[index]) {
    return bufferCache_[index];
  }
  const tflite::Buffer* buffer = model_.buffers()->Get(index);
  std::span<const std::uint8_t> bytes;
  if (buffer != nullptr && buffer->data() != nullptr && buffer->data()->size() > 0) {
    bytes = std::span<const std::uint8_t>(buffer->data()->data(), buffer->data()->size());
  } else if (buffer != nullptr && buffer->offset() > 1 && buffer->size() > 0) {
    // Models above 2 GiB store constants after the flatbuffer; offsets are from the start of the file.
    bytes = fileRange(buffer->offset(), buffer->size(), who + " (buffer " + std::to_string(index) + ")");
  }
  const ConstantBuffer known = index < knownBuffers_.size() ? knownBuffers_[index] : nullptr;
  const bool placeholder = std::binary_search(placeholders_.begin(), placeholders_.end(), index);
  if (known != nullptr && placeholder && bytes.size() == known->size()) {
    bufferCache_[index] = known;
  } else if (placeholder) {
    fail("buffer " + std::to_string(index) + " has " + std::to_string(bytes.size()) + " bytes of room for " +
             std::to_string(known == nullptr ? 0 : known->size()),
         who);
  } else if (known != nullptr && std::equal(bytes.begin(), bytes.end(), known->begin(), known->end())) {
    bufferCache_[index] = known;
  } else if (!bytes.empty()) {
    bufferCache_[index] = std::make_shared<const std::vector<std::uint8_t>>(bytes.begin(), bytes.end());
  }
  bufferRead_[index] = true;
  return bufferCache_[index];
}

std::span<const std::uint8_t> ReaderContext::fileRange(std::uint64_t offset, std::uint64_t size,
                                                       const std::string& who) const {
  if (offset > file_.size() || size > file_.size() - offset) {
    fail("data at file offset " + std::to_string(offset) + " with " + std::to_string(size) +
             " bytes lies beyond the end of the file (" + std::to_string(file_.size()) + " bytes)",
         who, "the file is truncated or was not written completely");
  }
  return file_.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(size));
}

void ReaderContext::fail(std::string message, std::string object, std::string hint) const {
  throwModelError(std::move(message), SourceLocation{path_, 0, 0, std::move(object)}, std::move(hint));
}

std::string describeTensor(std::size_t subgraph, std::size_t tensor, const std::string& name) {
  std::string text = "subgraph " + std::to_string(subgraph) + ", tensor " + std::to_string(tensor);
  if (!name.empty()) {
    text += " '" + name + "'";
  }
  return text;
}

std::string describeOperator(std::size_t subgraph, std::size_t op) {
  return "subgraph " + std::to_string(subgraph) + ", operator " + std::to_string(op);
}

} // namespace npu::tflite_frontend::detail
