// SPDX-License-Identifier: Apache-2.0
#pragma once

// Writing the IR as a TensorFlow Lite flatbuffer, laid out byte for byte as Vela 3.10's tflite_writer.py
// lays out its optimised models.
//
// What is written, per subgraph (all subgraphs of the graph, in order, with their names):
// * Tensors: the subgraph's inputs and every tensor an operation reads, writes or keeps as intermediate;
//   others are left out. They are sorted by name (byte order); Vela breaks ties between equal names by
//   Python set order, which changes from run to run, so here ties keep the graph's tensor order.
// * Buffers: buffer 0 is empty; then, subgraph after subgraph and in tensor order, one buffer per
//   written tensor (even tensors sharing constant data get a copy each, and tensors without data an
//   empty one), except tensors placed in the scratch areas, which point at buffer 0. Data is 16-byte
//   aligned. The metadata's buffers come last.
// * Operator codes: one per distinct (operation type, custom code, version), sorted in that order, where
//   types order as OpType does (Vela's Op enum); version is the operation's "version" attribute
//   (1 when absent). An ethos-u operator may be OpType::CustomNpuOp (Vela's type for the operators it
//   creates, ordered after third-party custom operators) or OpType::Custom with custom_code "ethos-u".
// * Operators: as the frontend reads them (see model_reader.hpp): TFLite's input order, kNoTensor as -1,
//   omitted intermediates dropped. An operation read from a file (sourceIndex >= 0) keeps its builtin
//   options and custom options exactly as that file (ModelWriteOptions::sourceModel) has them, whatever
//   the options table; an operation created by a pass must be a custom operator (its "custom_code" and
//   "custom_options" attributes are written) or one without options.
// * Model: version 3, description, the graph's metadata then the options' appended entries, and no
//   signature definitions.
//
// The bytes are checked before they are returned: the flatbuffers verifier and our own reader must
// accept them (an Internal error otherwise). What cannot be written (an attribute of the wrong type, an
// operator type without a TFLite operator code, a padding or activation TFLite cannot express) is an
// npu::Error naming the operator or tensor.

#include "npu/core/file_bytes.hpp"
#include "npu/ir/graph.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace npu::tflite_frontend {

/// Where a tensor of the output model lives at run time (Vela's assign_buffers_to_tensors and its
/// OfflineMemoryAllocation metadata).
struct TensorPlacement {
  /// Offset written to OfflineMemoryAllocation; -1 lets the runtime allocate the tensor.
  std::int32_t offlineOffset = -1;
  /// The tensor lives in the scratch areas (tensor arena or fast scratch) and so points at the empty
  /// buffer 0 instead of a buffer of its own. It must not hold data.
  bool inScratchArea = false;
  friend bool operator==(const TensorPlacement&, const TensorPlacement&) = default;
};

struct ModelWriteOptions {
  /// Model.description; nullopt writes the graph's own.
  std::optional<std::string> description;
  /// Entries written after the graph's own metadata, in order.
  std::vector<ModelMetadata> appendedMetadata;
  /// Appends "OfflineMemoryAllocation" (int32: version 0, number of subgraphs, number of written
  /// tensors, then every written tensor's offlineOffset in file order) after `appendedMetadata`, unless
  /// the graph's metadata already has an entry of that name (as Vela does).
  bool appendOfflineMemoryAllocation = false;
  /// Per subgraph, per tensor (indexed by TensorId of the graph); tensors beyond the end of a list, and
  /// subgraphs beyond the end of this one, get the default placement.
  std::vector<std::vector<TensorPlacement>> placements;
  /// The bytes of the model the graph was read from (subgraph i of the graph is its subgraph i): the
  /// options of operations read from it are copied from it.
  std::span<const std::uint8_t> sourceModel;
};

inline constexpr const char* kVelaVersion = "3.10.0";
inline constexpr const char* kOfflineMemoryAllocationName = "OfflineMemoryAllocation";

/// What Vela 3.10 writes around a graph: description "Vela 3.10.0 Optimised", "vela_version" =
/// "3.10.0" appended to the metadata, then OfflineMemoryAllocation. Placements are left to the caller.
[[nodiscard]] ModelWriteOptions velaWriteOptions();

/// Options that write a graph read from a file as it was: its description and metadata unchanged,
/// nothing appended. Placements are left to the caller.
[[nodiscard]] ModelWriteOptions unchangedWriteOptions();

/// The .tflite bytes of `graph`.
[[nodiscard]] std::vector<std::uint8_t> writeModel(const Graph& graph, const ModelWriteOptions& options);

/// The same bytes in pieces: the data of every constant of at least `referenceFrom` bytes (0: none) is
/// the constant's own buffer, referred to (and kept alive), not copied, so that a model made mostly of
/// one large constant (an NPU's read-only area) is not held twice while it is written out.
[[nodiscard]] FileBytes writeModelPieces(const Graph& graph, const ModelWriteOptions& options,
                                         std::size_t referenceFrom);

} // namespace npu::tflite_frontend
