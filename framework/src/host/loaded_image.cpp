// SPDX-License-Identifier: Apache-2.0
#include "loaded_image.hpp"

#include <link.h>

#include <cstring>

namespace npu::detail {

namespace {

struct Search {
  std::uintptr_t address = 0;
  std::vector<LoadedImage::Segment> segments;
};

int visit(dl_phdr_info* object, std::size_t, void* data) {
  auto& search = *static_cast<Search*>(data);
  std::vector<LoadedImage::Segment> segments;
  bool holds = false;
  for (ElfW(Half) index = 0; index < object->dlpi_phnum; ++index) {
    const auto& header = object->dlpi_phdr[index];
    if (header.p_type != PT_LOAD) {
      continue;
    }
    const std::uintptr_t begin = object->dlpi_addr + header.p_vaddr;
    const LoadedImage::Segment segment{begin, begin + header.p_memsz, (header.p_flags & PF_R) != 0,
                                       (header.p_flags & PF_X) != 0};
    holds = holds || (search.address >= segment.begin && search.address < segment.end);
    segments.push_back(segment);
  }
  if (!holds) {
    return 0;
  }
  search.segments = std::move(segments);
  return 1;
}

} // namespace

std::optional<LoadedImage> LoadedImage::containing(const void* address) {
  Search search{reinterpret_cast<std::uintptr_t>(address), {}};
  if (dl_iterate_phdr(&visit, &search) == 0) {
    return std::nullopt;
  }
  LoadedImage image;
  image.segments_ = std::move(search.segments);
  return image;
}

const LoadedImage::Segment* LoadedImage::segmentOf(std::uintptr_t address) const {
  for (const auto& segment : segments_) {
    if (address >= segment.begin && address < segment.end) {
      return &segment;
    }
  }
  return nullptr;
}

bool LoadedImage::readable(const void* address, std::size_t size) const {
  const auto begin = reinterpret_cast<std::uintptr_t>(address);
  const Segment* segment = segmentOf(begin);
  return segment != nullptr && segment->readable && size <= segment->end - begin;
}

bool LoadedImage::executable(const void* address) const {
  const Segment* segment = segmentOf(reinterpret_cast<std::uintptr_t>(address));
  return segment != nullptr && segment->executable;
}

bool LoadedImage::holdsString(const char* text) const {
  const auto begin = reinterpret_cast<std::uintptr_t>(text);
  const Segment* segment = segmentOf(begin);
  return segment != nullptr && segment->readable && strnlen(text, segment->end - begin) < segment->end - begin;
}

} // namespace npu::detail
