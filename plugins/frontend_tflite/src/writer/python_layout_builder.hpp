// SPDX-License-Identifier: Apache-2.0
#pragma once

// A flatbuffers builder that lays a buffer out byte for byte as the Python flatbuffers builder (2.0.8)
// does, which is what Vela 3.10 writes its models with.
//
// The C++ builder differs from the Python one in three places, which this class replaces:
// * vtables: Python shares a vtable between tables whose field offsets are equal, whatever their object
//   sizes; C++ compares the whole vtable, object size included, and so writes more vtables.
// * empty vectors: Python aligns the position of an empty vector to the element alignment (8 for int64);
//   C++ skips the alignment when there is nothing to write.
// * explicitly aligned byte vectors (Vela's write_aligned_bytes): Python aligns the data to 16 bytes
//   without first aligning to 4, and even when the data is empty.
// Everything else (strings, scalar fields and their defaults, offsets, Finish with a file identifier)
// already matches, so tables are filled with the generated tflite::*Builder classes and ended here.

#include "npu/core/diagnostics.hpp"

#include <tflite/tflite_schema_generated.h>

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace npu::tflite_frontend::detail {

/// Gives a builder its storage uninitialised and shared, so that the finished buffer (which flatbuffers
/// builds at the end of its storage) is handed over without a copy (the model of a large network is
/// hundreds of MB), and room reserved but never written (PythonLayoutBuilder::reservedBytes) is never
/// paged in. It holds one buffer at a time; growing it copies the bytes in use into a larger one.
class SharedStorageAllocator : public flatbuffers::Allocator {
public:
  std::uint8_t* allocate(std::size_t size) override;
  void deallocate(std::uint8_t* bytes, std::size_t size) override;
  std::uint8_t* reallocate_downward(std::uint8_t* old, std::size_t oldSize, std::size_t newSize, std::size_t inUseBack,
                                    std::size_t inUseFront) override;
  /// The storage, which stays alive through the returned pointer after the builder is gone.
  [[nodiscard]] std::shared_ptr<const std::uint8_t[]> storage() const { return storage_; }
  /// A copy of the `finished` bytes (which must lie in the storage).
  [[nodiscard]] std::vector<std::uint8_t> copy(std::span<const std::uint8_t> finished) const;

private:
  std::shared_ptr<std::uint8_t[]> storage_;
  std::size_t size_ = 0;
};

class PythonLayoutBuilder : public flatbuffers::FlatBufferBuilder {
public:
  PythonLayoutBuilder() : FlatBufferBuilder(1024) {}
  /// A builder whose first buffer holds `initialSize` bytes, taken from `allocator` (which must outlive it).
  PythonLayoutBuilder(std::size_t initialSize, flatbuffers::Allocator& allocator)
      : FlatBufferBuilder(initialSize, &allocator, false) {}

  /// Ends a table started by a generated builder (e.g. tflite::TensorBuilder) whose fields were added
  /// in the order the Python code adds them.
  template <typename TableBuilder>
  flatbuffers::Offset<typename TableBuilder::Table> endTable(const TableBuilder& table) {
    return flatbuffers::Offset<typename TableBuilder::Table>(endPythonTable(table.start_));
  }

  /// A table without fields (options tables of operators that have no options).
  flatbuffers::Offset<void> emptyTable();

  /// A vector of scalars (int32, int64, float, uint8), elements in order.
  template <typename T>
  flatbuffers::Offset<flatbuffers::Vector<T>> scalarVector(std::span<const T> values) {
    startPythonVector(sizeof(T), values.size(), sizeof(T));
    for (auto value = values.rbegin(); value != values.rend(); ++value) {
      PushElement(*value);
    }
    return flatbuffers::Offset<flatbuffers::Vector<T>>(EndVector(values.size()));
  }

  /// A vector of offsets to tables created before it.
  template <typename T>
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<T>>>
  offsetVector(std::span<const flatbuffers::Offset<T>> offsets) {
    startPythonVector(sizeof(flatbuffers::uoffset_t), offsets.size(), sizeof(flatbuffers::uoffset_t));
    for (auto offset = offsets.rbegin(); offset != offsets.rend(); ++offset) {
      PushElement(*offset);
    }
    return flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<T>>>(EndVector(offsets.size()));
  }

  /// A byte vector whose data starts at a multiple of `alignment` from the end of the buffer (and so in
  /// the finished file, whose size is a multiple of the largest alignment used).
  flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>> alignedBytes(std::span<const std::uint8_t> bytes,
                                                                      std::size_t alignment);

  /// Room for a byte vector laid out as alignedBytes lays out `size` bytes, its length written but its
  /// data left unwritten (and so, in a SharedStorageAllocator's storage, never paged in): whoever writes
  /// the finished buffer out supplies those bytes. Returns the vector and where its data starts, counted
  /// from the end of the buffer (where it stays as the builder grows).
  std::pair<flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>>, std::size_t> reservedBytes(std::size_t size,
                                                                                               std::size_t alignment);

  /// A UTF-8 string (any bytes; no deduplication, as in Python).
  flatbuffers::Offset<flatbuffers::String> string(std::string_view text) {
    return CreateString(text.data(), text.size());
  }

private:
  /// Python's Prep: pads so that `size` is aligned once `additionalBytes` are written, even when there
  /// are none.
  void prepare(std::size_t size, std::size_t additionalBytes);
  void startPythonVector(std::size_t elementSize, std::size_t count, std::size_t alignment);
  flatbuffers::uoffset_t endPythonTable(flatbuffers::uoffset_t start);

  /// Vtables written so far, keyed by their field offsets (trailing unset fields dropped); the value is
  /// the vtable's position from the end of the buffer.
  std::map<std::vector<flatbuffers::voffset_t>, flatbuffers::uoffset_t> vtables_;
};

} // namespace npu::tflite_frontend::detail
