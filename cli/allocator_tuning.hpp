// SPDX-License-Identifier: Apache-2.0
#pragma once

// How the C library's allocator is set up for a compile. A compile of a MobileNet-sized model touches
// 30-40 MB of fresh memory, and each 4 KiB page's first touch costs a page fault (zeroing and
// accounting, about 1.5 us each here): a fifth of the CPU time of such a compile. glibc's tunables
// can back the heap with transparent huge pages (one fault per 2 MiB) and keep freed megabytes for
// reuse instead of unmapping them, which takes most of those faults away. The price is memory: pages
// are taken 2 MiB at a time and freed memory is kept, tens of MB on a network of 10,000 layers whose
// peak is near its 400 MiB goal. And re-executing (below) costs about 1.5 ms, more than the faults of a
// tiny model's compile. So the tuning is chosen from the model's size: it is applied to models from
// kTunedModelMinBytes to below kTunedModelBytes (measured: MobileNet-v2's 4 MB and a 13 MB network gain
// 8-11% of CPU time for 4-6 MiB more peak memory, a 300 KB one breaks even), and never when the user set
// GLIBC_TUNABLES (theirs is kept as it is; `GLIBC_TUNABLES=` turns the tuning off). glibc reads its
// tunables only when a process starts, so applying them re-executes the program once, with the
// variable set; the re-executed process removes it again, so that nothing it starts inherits it.

#include <cstdint>
#include <filesystem>
#include <string>

namespace npu::cli {

/// Models from kTunedModelMinBytes to below kTunedModelBytes are compiled with the tuned allocator.
inline constexpr std::uintmax_t kTunedModelMinBytes = std::uintmax_t{512} << 10U;
inline constexpr std::uintmax_t kTunedModelBytes = std::uintmax_t{32} << 20U;

/// glibc's tunables for a small model's compile: huge pages for the heap (used when the system's
/// transparent huge pages are in `madvise` mode), freed blocks of up to 64 MiB kept in the heap and up
/// to 256 MiB of free heap top kept, and the heap grown 32 MiB at a time.
inline constexpr const char* kAllocatorTunables = "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=67108864:"
                                                  "glibc.malloc.trim_threshold=268435456:"
                                                  "glibc.malloc.top_pad=33554432";

/// Remembers the process's arguments (from main) for a re-execution, and notes whether this process
/// is one: then it runs with kAllocatorTunables, and the variable is removed from its environment.
void rememberProcess(int argc, char** argv);

/// Re-executes the process with kAllocatorTunables when it pays (see above): glibc 2.35 or later,
/// GLIBC_TUNABLES and LD_PRELOAD (a tool such as valgrind, which would not follow) not set, not already
/// re-executed, and a regular file `model` of kTunedModelMinBytes to below kTunedModelBytes.
/// Returns only when it does not re-execute (or re-executing failed: the compile then goes on as is).
void tuneAllocatorFor(const std::filesystem::path& model);

/// Whether the model tuneAllocatorFor was given is a regular file below kTunedModelBytes: its compile
/// takes tens of MB, so the CLI favours time over memory (e.g. frees the compilation beside the reports'
/// rendering instead of before it), whatever GLIBC_TUNABLES says.
bool compilingSmallModel();

/// How the allocator was set up, for --timing: "tuned for a small model (GLIBC_TUNABLES=...)",
/// "as GLIBC_TUNABLES sets it", or "default (...)" with the reason.
std::string allocatorTuningDescription();

} // namespace npu::cli
