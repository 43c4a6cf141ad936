// SPDX-License-Identifier: Apache-2.0
#pragma once

// How the C library's allocator is set up for a compile. A compile of a MobileNet-sized model touches
// 30-40 MB of fresh memory, and each 4 KiB page's first touch costs a page fault (zeroing and
// accounting, about 1.5 us each here): a fifth of the CPU time of such a compile. Backing the malloc
// heaps with transparent huge pages (one fault per 2 MiB) and keeping freed megabytes for reuse instead
// of unmapping them takes most of those faults away. The price is memory: pages are taken 2 MiB at a
// time and freed memory is kept, tens of MB on a network of 10,000 layers whose peak is near its
// 400 MiB goal. So the tuning is chosen from the model's size: it is applied to models from
// kTunedModelMinBytes to below kTunedModelBytes (measured: MobileNet-v2's 4 MB and a 13 MB network gain
// 8-11% of CPU time for 4-6 MiB more peak memory, a 300 KB one breaks even), and never when the user set
// GLIBC_TUNABLES (theirs is kept as it is; `GLIBC_TUNABLES=` turns the tuning off).
//
// The tuning is applied in the running process (glibc reads its own huge-page tunable only when a
// process starts, and re-executing with it cost 2 ms of a 75 ms compile): mallopt sets the thresholds,
// the main heap is grown once and advised to use huge pages, and each TBB worker thread's heap (glibc
// gives each thread arena a heap of its own, aligned to its 64 MiB reservation) is advised when the
// worker joins the compile's task arena. The first worker's heap is made ready by a short-lived thread
// beside the plugins' loading (advised and its first 2 MiB collapsed into a huge page), so that none of
// it stays on small pages.

#include "npu/pipeline/compiler.hpp"

#include <tbb/task_group.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace npu::cli {

/// Models from kTunedModelMinBytes to below kTunedModelBytes are compiled with the tuned allocator.
inline constexpr std::uintmax_t kTunedModelMinBytes = std::uintmax_t{512} << 10U;
inline constexpr std::uintmax_t kTunedModelBytes = std::uintmax_t{32} << 20U;

/// Tunes the allocator in this process when it pays (see above): glibc on a 64-bit system,
/// GLIBC_TUNABLES and LD_PRELOAD (a tool or another allocator, whose heaps are not glibc's) not set, and a
/// regular file `model` of kTunedModelMinBytes to below kTunedModelBytes: freed blocks of up to 32 MiB
/// kept in the heap (glibc's mallopt limit), up to 256 MiB of free heap top kept, heaps grown 32 MiB at a
/// time, and the main heap on huge pages. Worker threads' heaps follow with a WorkerHeapTuning.
/// `threads` is the compile's parallelism (0: one thread per core): with more than one, a thread heap is made
/// ready for the first worker beside the plugins' loading.
void tuneAllocatorFor(const std::filesystem::path& model, std::size_t threads);

/// While it lives, each TBB worker thread joining the calling thread's task arena has its malloc heap
/// advised to use huge pages, if tuneAllocatorFor tuned the process (otherwise it does nothing). Make
/// it after any tbb::global_control that sets the parallelism: it attaches the thread to its arena.
class WorkerHeapTuning {
public:
  WorkerHeapTuning();
  ~WorkerHeapTuning();
  WorkerHeapTuning(const WorkerHeapTuning&) = delete;
  WorkerHeapTuning& operator=(const WorkerHeapTuning&) = delete;

private:
  class Observer; ///< a tbb::task_scheduler_observer
  std::unique_ptr<Observer> observer_;
};

/// Releases a finished compilation once its report and generated model are taken out of it. When the
/// model tuneAllocatorFor was given is a regular file below kTunedModelBytes, its compile took tens of MB,
/// so time is favoured over memory (whatever GLIBC_TUNABLES says): it is freed on `releasing`, beside the
/// rendering of the reports. A larger one's (hundreds of MB for a large network: the graph, schedules,
/// allocation and constants) is freed at once, and with `trim` its pages are given back before the
/// reports take their own.
void releaseCompilation(Compilation& compilation, tbb::task_group& releasing, bool trim);

/// How the allocator was set up, for --timing: "tuned for a small model (...)", "as GLIBC_TUNABLES sets
/// it", or "default (...)" with the reason.
std::string allocatorTuningDescription();

} // namespace npu::cli
