// SPDX-License-Identifier: Apache-2.0
#include "python_layout_builder.hpp"

#include <cstring>

namespace npu::tflite_frontend::detail {

std::uint8_t* SharedStorageAllocator::allocate(std::size_t size) {
  if (storage_ != nullptr) {
    throwInternalError("the model builder asked for a second buffer");
  }
  storage_ = std::shared_ptr<std::uint8_t[]>(new std::uint8_t[size]); // not value-initialised: not paged in
  size_ = size;
  return storage_.get();
}

void SharedStorageAllocator::deallocate(std::uint8_t* bytes, std::size_t /*size*/) {
  if (bytes == storage_.get()) {
    storage_.reset(); // the bytes live on while storage() handed them to someone
    size_ = 0;
  }
}

std::uint8_t* SharedStorageAllocator::reallocate_downward(std::uint8_t* old, std::size_t oldSize, std::size_t newSize,
                                                          std::size_t inUseBack, std::size_t inUseFront) {
  std::shared_ptr<std::uint8_t[]> grown(new std::uint8_t[newSize]);
  memcpy_downward(old, oldSize, grown.get(), newSize, inUseBack, inUseFront);
  storage_ = std::move(grown);
  size_ = newSize;
  return storage_.get();
}

std::vector<std::uint8_t> SharedStorageAllocator::copy(std::span<const std::uint8_t> finished) const {
  const std::uint8_t* begin = storage_.get();
  if (begin == nullptr || finished.data() < begin || finished.data() + finished.size() > begin + size_) {
    throwInternalError("the finished model does not lie in the builder's buffer");
  }
  return {finished.begin(), finished.end()};
}

flatbuffers::Offset<void> PythonLayoutBuilder::emptyTable() {
  return flatbuffers::Offset<void>(endPythonTable(StartTable()));
}

flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>>
PythonLayoutBuilder::alignedBytes(std::span<const std::uint8_t> bytes, std::size_t alignment) {
  NotNested();
  nested = true;
  prepare(alignment, bytes.size());
  PushBytes(bytes.data(), bytes.size());
  return flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>>(EndVector(bytes.size()));
}

std::pair<flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>>, std::size_t>
PythonLayoutBuilder::reservedBytes(std::size_t size, std::size_t alignment) {
  NotNested();
  nested = true;
  prepare(alignment, size);
  buf_.make_space(size);
  const std::size_t fromEnd = GetSize();
  return {flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>>(EndVector(size)), fromEnd};
}

void PythonLayoutBuilder::prepare(std::size_t size, std::size_t additionalBytes) {
  TrackMinAlign(size);
  buf_.fill(flatbuffers::PaddingBytes(GetSize() + additionalBytes, size));
}

void PythonLayoutBuilder::startPythonVector(std::size_t elementSize, std::size_t count, std::size_t alignment) {
  NotNested();
  nested = true;
  prepare(sizeof(flatbuffers::uoffset_t), elementSize * count);
  prepare(alignment, elementSize * count);
}

// The layout of flatbuffers' python/flatbuffers/builder.py (WriteVtable, 2.0.8): the object's vtable
// offset first, then either a reference to an earlier vtable with the same field offsets or a new vtable
// right below the object.
flatbuffers::uoffset_t PythonLayoutBuilder::endPythonTable(flatbuffers::uoffset_t start) {
  require(nested, "a table is ended that was not started");
  const flatbuffers::uoffset_t object = PushElement<flatbuffers::soffset_t>(0);

  std::vector<flatbuffers::voffset_t> fields;
  if (max_voffset_ != 0) {
    fields.resize(max_voffset_ / sizeof(flatbuffers::voffset_t) - 1);
  }
  const std::uint8_t* end = buf_.scratch_end();
  for (const std::uint8_t* it = end - num_field_loc * sizeof(FieldLoc); it < end; it += sizeof(FieldLoc)) {
    const auto* field = reinterpret_cast<const FieldLoc*>(it);
    fields[field->id / sizeof(flatbuffers::voffset_t) - 2] = static_cast<flatbuffers::voffset_t>(object - field->off);
  }
  ClearOffsets();

  flatbuffers::uoffset_t vtable = 0;
  if (const auto known = vtables_.find(fields); known != vtables_.end()) {
    vtable = known->second;
  } else {
    require(object - start < 0x10000, "a table is larger than a vtable can describe");
    for (auto field = fields.rbegin(); field != fields.rend(); ++field) {
      PushElement(*field);
    }
    PushElement(static_cast<flatbuffers::voffset_t>(object - start));
    PushElement(static_cast<flatbuffers::voffset_t>((fields.size() + 2) * sizeof(flatbuffers::voffset_t)));
    vtable = GetSize();
    vtables_.emplace(std::move(fields), vtable);
  }
  flatbuffers::WriteScalar(buf_.data_at(object),
                           static_cast<flatbuffers::soffset_t>(vtable) - static_cast<flatbuffers::soffset_t>(object));
  nested = false;
  return object;
}

} // namespace npu::tflite_frontend::detail
