// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading TensorFlow Lite flatbuffers into the IR.
//
// What the frontend produces (the contract lowering relies on):
//
// * Graph: name = file stem, sourcePath = the file, description = Model.description, metadata = the named
//   Model.metadata entries with their buffers' bytes, in file order. One Subgraph per TFLite subgraph, in
//   file order; subgraph 0 is the entry point (Vela's root subgraph). A subgraph without a name keeps the
//   empty name (messages refer to subgraphs by index).
// * Tensors: one per TFLite tensor, same indices. Shapes, types and layouts are the file's: CONV_2D and
//   TRANSPOSE_CONV weights are OHWI, DEPTHWISE_CONV_2D weights 1HW(C*M), FULLY_CONNECTED weights [OC, IC];
//   lowering reorders what the accelerator needs. Tensors holding data are constants (purpose Unknown,
//   lowering decides); tensors reading the same buffer share one ConstantBuffer and have the buffer index
//   as equivalenceId. Every other tensor is a FeatureMap (variable tensors too, with isVariable set).
//   Quantisation is copied as is: per-tensor or per-axis scales and zero points, quantized_dimension as
//   axis, and min/max when the file gives exactly one of each.
// * Operations: one per TFLite operator, in file order, named after their first output tensor (as Vela
//   names them), with sourceType = the TFLite operator name ("CONV_2D", "CUSTOM:<custom_code>") and
//   sourceIndex = the operator's index in its subgraph; the attribute "version" holds its operator code's
//   version (int64). Inputs keep TFLite's order (see OperandLayout); an omitted optional input (-1 in the
//   file) is kNoTensor. The type follows Vela's tflite_mapping.py;
//   builtins Vela does not map are OpType::Unknown, custom operators OpType::Custom.
// * Options: what the IR models structurally goes there and is not repeated as an attribute:
//     padding                        -> Operation::padding (Same/Valid)
//     stride_w/h, dilation_w/h_factor-> Operation::kernel (for 2D convolutions and pooling)
//     filter_width/height            -> Operation::kernel (pooling; convolutions take the weights' H, W)
//     fused_activation_function      -> Operation::activation (Relu, Relu6, ReluN1To1, Tanh, SignBit,
//                                       with Vela's clamp ranges)
//   Every other option is an attribute named exactly like the TFLite schema field (snake_case):
//   integers as int64, floats as double, booleans as bool, int vectors as vector<int64>, float vectors as
//   vector<double>, strings as string, tensor types as the IR's type name ("int32"), other enumerations
//   as their TFLite spelling ("REFLECT", "DEFAULT"). Custom operators carry "custom_code" and
//   "custom_options" (the raw bytes as int64 values). A depthwise depth_multiplier of 0 is replaced by
//   the implied value (weights channels / input channels), as Vela does; CAST always gets
//   in_data_type/out_data_type (from the tensors when the options are missing).
//
// Malformed input never crashes the reader: the flatbuffers verifier runs first, then every index,
// enumeration value, shape and buffer size is checked; each problem is an npu::Error of kind Model
// naming the file and the subgraph/operator/tensor involved.

#include "npu/ir/graph.hpp"

#include <cstdint>
#include <filesystem>
#include <span>

namespace npu::tflite_frontend {

/// Reads a TFLite model held in memory. `sourcePath` is reported in errors and stored in the Graph (its
/// stem becomes the graph name); nothing is read from disk.
[[nodiscard]] Graph readModel(std::span<const std::uint8_t> bytes, const std::filesystem::path& sourcePath);

/// As above; a buffer `i` whose bytes equal `*knownBuffers[i]` shares it instead of copying the bytes
/// (reading back a model just written from a graph holds its constants once). The buffers listed in
/// `placeholders` (sorted) share theirs without comparing: their data in `bytes` was left unwritten, as
/// the writer does for constants it refers to (writeModelPieces).
[[nodiscard]] Graph readModel(std::span<const std::uint8_t> bytes, const std::filesystem::path& sourcePath,
                              std::span<const ConstantBuffer> knownBuffers,
                              std::span<const std::uint32_t> placeholders = {});

/// Reads a .tflite file (a regular file of at most npu::kMaxModelFileBytes; anything else is a Usage error).
[[nodiscard]] Graph readModelFile(const std::filesystem::path& file);

} // namespace npu::tflite_frontend
