// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Vela 3.10 performance model (npu_performance.py) as pure functions of an architecture and a
// query. No state: every function may run on many threads at once.

#include "ethosu/architecture/architecture.hpp"
#include "ethosu/architecture/operation_traits.hpp"
#include "ethosu/blocks/block_config.hpp"

#include "npu/plugin/performance.hpp"

#include <optional>

namespace ethosu {

/// Vela's PerformanceQuery: one operation (or stripe) with its block config and memory homing.
struct PerformanceQuery {
  NpuBlockType blockType = NpuBlockType::Default;
  npu::OpType opType = npu::OpType::Unknown;
  std::optional<npu::OpType> activation; ///< fused activation function
  npu::FeatureMapQuery ifm;
  std::optional<npu::FeatureMapQuery> ifm2;
  npu::FeatureMapQuery ofm;
  int constantDepth = 0; ///< OFM depth when scales/biases are streamed, else 0 (Vela's const_shape)
  npu::MemoryArea constantArea = npu::MemoryArea::Unknown;
  npu::Kernel kernel;
  ArchitectureBlockConfig config;
};

/// Builds the query for an operation from the framework's cost query.
[[nodiscard]] PerformanceQuery performanceQueryFor(const OperationTraits& traits, const npu::CostQuery& query);

/// npu_performance.measure_cycle_cost: MACs and compute cycles.
[[nodiscard]] npu::CycleCost measureCycleCost(const Architecture& arch, const PerformanceQuery& query);
/// npu_performance.measure_element_access: elements read and written.
[[nodiscard]] npu::ElementAccess measureElementAccess(const Architecture& arch, const PerformanceQuery& query);
/// npu_performance._estimate_memory_transfer_efficiency: `bytes` scaled by the burst efficiency of
/// accessing `shape` in blocks of `block`.
[[nodiscard]] double memoryTransferEfficiency(const Architecture& arch, bool isRead, npu::MemoryArea area,
                                              npu::TensorFormat format, int elementBits, const npu::Shape4& block,
                                              const npu::Shape4& shape, double bytes);
/// npu_performance.measure_mem2mem_cycles: DMA cycles to copy `bytes` between memories.
[[nodiscard]] double memoryToMemoryCycles(const Architecture& arch, npu::MemoryArea from, npu::MemoryArea to,
                                          double bytes);

/// The fewest output cycles per OFM element any block config gives the operation (the hardware's output
/// and activation rates, npu_performance._estimate_output_cycles_per_element without its block terms).
[[nodiscard]] double leastOutputCyclesPerElement(const Architecture& arch, const PerformanceQuery& query);

/// A lower bound on estimateFullPerformance's total for any block config and stripe: compute at the
/// hardware's peak rate for the kind of operation, and the bytes each memory must move at its bandwidth.
[[nodiscard]] npu::OperationBound estimateBound(const Architecture& arch, const OperationTraits& traits,
                                                const npu::PerformanceContext& context);

/// Python's float floor division (a // b), which Vela's DMA estimate uses.
[[nodiscard]] double pythonFloorDivide(double numerator, double denominator);

/// npu_performance.estimate_full_op_performance: cycles per memory, bandwidths, MACs of a scheduled
/// operation with its weight buffering and DMA.
[[nodiscard]] npu::OperationPerformance estimateFullPerformance(const Architecture& arch, const OperationTraits& traits,
                                                                const npu::PerformanceContext& context);

} // namespace ethosu
