// SPDX-License-Identifier: Apache-2.0
#include "commands/dependencies.hpp"

#include "npu/core/shape.hpp"

#include <algorithm>

namespace ethosu::codegen {

namespace {

constexpr int kBrick = 16;
constexpr std::int64_t kLutBytes = 2048;

int elementBytes(const FeatureMap& map) { return bitsOf(map.type) / 8; }

bool usesLookupTable(const BlockOperation& op) {
  return op.activation && op.activation->function == ActivationFunction::TableLookup;
}

bool hasIfm2(const BlockOperation& op) { return op.ifm2.has_value() && !op.ifm2Scalar.has_value(); }

// Vela: register_command_stream_util.get_address.
std::int64_t addressAt(const FeatureMap& map, int y, int x, int c) {
  int tile = 0;
  const std::int64_t strideC = map.layout == NpuLayout::NHWC ? kBrick * elementBytes(map) : map.strides.depth;
  const std::int64_t strideX = map.layout == NpuLayout::NHCWB16 ? kBrick * elementBytes(map) : map.strides.width;
  if (x >= map.tiles.width0) {
    x -= map.tiles.width0;
    tile = 1;
    if (y >= map.tiles.height1) {
      y -= map.tiles.height1;
      tile += 2;
    }
  } else if (y >= map.tiles.height0) {
    y -= map.tiles.height0;
    tile += 2;
  }
  return map.tiles.addresses[static_cast<std::size_t>(tile)] + std::int64_t{y} * map.strides.height + x * strideX +
         (c / kBrick) * strideC + std::int64_t{c % kBrick} * elementBytes(map);
}

/// From (y0, x0, c0) to (y1, x1, c1) inclusive, within one tile.
AddressRange rangeBetween(const FeatureMap& map, int y0, int x0, int c0, int y1, int x1, int c1) {
  const std::int64_t start = addressAt(map, y0, x0, c0);
  const std::int64_t end = addressAt(map, y1, x1, c1);
  return AddressRange{map.region, start, end - start + elementBytes(map)};
}

void add(std::map<int, RangeList>& set, const AddressRange& range) {
  if (range.length == 0) {
    return;
  }
  RangeList& list = set[range.region];
  list.emplace_back(range.address, range.address + range.length);
  std::sort(list.begin(), list.end());
}

// Vela: RangeSet.intersects (a sweep over both sorted lists).
bool intersects(const RangeList& a, const RangeList& b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::max(a[i].first, b[j].first) < std::min(a[i].second, b[j].second)) {
      return true;
    }
    if (a[i].first < b[j].first) {
      ++i;
    } else {
      ++j;
    }
  }
  return false;
}

bool intersects(const std::map<int, RangeList>& a, const std::map<int, RangeList>& b) {
  for (const auto& [region, ranges] : a) {
    if (const auto other = b.find(region); other != b.end() && intersects(ranges, other->second)) {
      return true;
    }
  }
  return false;
}

bool overlap(const AddressRange& a, const AddressRange& b) {
  return a.region == b.region && a.address < b.address + b.length && b.address < a.address + a.length;
}

bool anyOverlap(const std::vector<AddressRange>& a, const std::vector<AddressRange>& b) {
  for (const AddressRange& x : a) {
    for (const AddressRange& y : b) {
      if (overlap(x, y)) {
        return true;
      }
    }
  }
  return false;
}

} // namespace

std::vector<AddressRange> featureMapRanges(const FeatureMap& map) {
  const int height = map.shape.height;
  const int width = map.shape.width;
  const int depth = map.shape.depth;
  const TileBox& tiles = map.tiles;
  std::vector<AddressRange> ranges;
  ranges.push_back(rangeBetween(map, 0, 0, 0, std::min(height, tiles.height0) - 1, std::min(width, tiles.width0) - 1,
                                depth - 1));
  const bool tile1 = width > tiles.width0;
  const bool tile2 = height > tiles.height0;
  if (tile1) {
    ranges.push_back(rangeBetween(map, 0, tiles.width0, 0, std::min(height, tiles.height1) - 1, width - 1, depth - 1));
  }
  if (tile2) {
    ranges.push_back(rangeBetween(map, tiles.height0, 0, 0, height - 1, std::min(width, tiles.width0) - 1, depth - 1));
  }
  if (tile1 && tile2) {
    ranges.push_back(rangeBetween(map, tiles.height1, tiles.width0, 0, height - 1, width - 1, depth - 1));
  }
  return ranges;
}

// Vela: get_op_memory_accesses and get_dma_memory_accesses.
MemoryAccesses accessesOf(const NpuOperation& operation, const Architecture& architecture) {
  MemoryAccesses accesses;
  if (const auto* dma = std::get_if<DmaOperation>(&operation)) {
    add(accesses.reads, dma->source);
    add(accesses.writes, dma->destination);
    return accesses;
  }
  const auto& op = std::get<BlockOperation>(operation);
  for (const AddressRange& range : featureMapRanges(op.ifm)) {
    add(accesses.reads, range);
  }
  if (hasIfm2(op)) {
    for (const AddressRange& range : featureMapRanges(*op.ifm2)) {
      add(accesses.reads, range);
    }
  }
  for (const AddressRange& range : op.weights) {
    add(accesses.reads, range);
  }
  for (const AddressRange& range : op.biases) {
    add(accesses.reads, range);
  }
  const bool lookup = usesLookupTable(op);
  constexpr int kBankBytes = CommonArchitecture::kShramBankBytes;
  if (lookup) {
    add(accesses.reads, AddressRange{region::kMemoryToMemory,
                                     std::int64_t{kBankBytes} * architecture.availableShramBanks(true), kLutBytes});
  }
  for (const AddressRange& range : featureMapRanges(op.ofm)) {
    add(accesses.writes, range);
  }
  // The accumulators may overwrite SHRAM up to the tables (or all of it without a table).
  add(accesses.writes, AddressRange{region::kMemoryToMemory, 0,
                                    std::int64_t{kBankBytes} * architecture.availableShramBanks(lookup)});
  return accesses;
}

bool conflicts(const MemoryAccesses& a, const MemoryAccesses& b) {
  return intersects(a.writes, b.reads) || intersects(a.reads, b.writes) || intersects(a.writes, b.writes);
}

// Vela: register_command_stream_util.get_wait_dependency.
Waits WaitTracker::before(bool isDma, MemoryAccesses accesses) {
  std::vector<MemoryAccesses>& own = isDma ? dmas_ : kernels_;
  std::vector<MemoryAccesses>& others = isDma ? kernels_ : dmas_;
  Waits waits;
  int count = -1;
  for (std::size_t i = others.size(); i-- > 0;) {
    ++count;
    if (conflicts(others[i], accesses)) {
      (isDma ? waits.kernels : waits.dma) = count;
      // Once waited for, those and every older one are no longer outstanding.
      others.erase(others.begin(), others.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      break;
    }
  }
  own.push_back(std::move(accesses));
  const auto limit = static_cast<std::size_t>(isDma ? architecture_.variant().maxOutstandingDma
                                                    : architecture_.variant().maxOutstandingKernels);
  if (own.size() > limit) {
    own.erase(own.begin());
  }
  return waits;
}

namespace {

struct Point {
  int x = 0;
  int y = 0;
  int z = 0;
};

struct Rect {
  Point start;
  Point end; ///< inclusive
  [[nodiscard]] Point size() const { return {end.x - start.x + 1, end.y - start.y + 1, end.z - start.z + 1}; }
};

Rect rectOf(const Shape3& shape) {
  return Rect{{0, 0, 0}, {shape.width - 1, shape.height - 1, shape.depth - 1}};
}

// Vela: get_offset_block_coords.
std::optional<Point> blockCoordinates(const Rect& area, const Point& block, int offset) {
  const Point size = area.size();
  const int widthBlocks = static_cast<int>(npu::divRoundUp(size.x, block.x));
  const int heightBlocks = static_cast<int>(npu::divRoundUp(size.y, block.y));
  const int depthBlocks = static_cast<int>(npu::divRoundUp(size.z, block.z));
  const int total = widthBlocks * heightBlocks * depthBlocks;
  const int index = offset < 0 ? total + offset : offset;
  if (index >= total) {
    return std::nullopt;
  }
  // Python's floor division and modulo: an offset before the first block wraps around, as in Vela.
  const auto floorDiv = [](int a, int b) { return a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0); };
  const auto floorMod = [&](int a, int b) { return a - b * floorDiv(a, b); };
  return Point{block.x * floorMod(floorDiv(index, depthBlocks), widthBlocks) + area.start.x,
               block.y * floorDiv(index, depthBlocks * widthBlocks) + area.start.y,
               block.z * floorMod(index, depthBlocks) + area.start.z};
}

// Vela: ArchitectureFeatures.get_ifm_block_size, with the largest OFM block as sub-kernel limit.
Point ifmBlockSize(const Architecture& architecture, int depth, const Point& ofmBlock, const NpuKernel& kernel) {
  const npu::Shape4& micro = architecture.variant().ifmMicroBlock;
  const npu::Shape4& maxBlock = CommonArchitecture::kOfmBlockMax;
  const int dilatedHeight = (kernel.height - 1) * kernel.dilationY + 1;
  const int dilatedWidth = (kernel.width - 1) * kernel.dilationX + 1;
  const int height = (ofmBlock.y - 1) * kernel.strideY + std::min(maxBlock.height, dilatedHeight);
  const int width = (ofmBlock.x - 1) * kernel.strideX + std::min(maxBlock.width, dilatedWidth);
  return Point{static_cast<int>(npu::roundUp(width, micro.width)), static_cast<int>(npu::roundUp(height, micro.height)),
               depth};
}

bool coordinatesIntersect(const Point& startA, const Point& endA, const Point& startB, const Point& endB) {
  return std::min(endA.x, endB.x) - std::max(startA.x, startB.x) > 0 &&
         std::min(endA.y, endB.y) - std::max(startA.y, startB.y) > 0 &&
         std::min(endA.z, endB.z) - std::max(startA.z, startB.z) > 0;
}

// Vela: get_address_ranges_for_area (rows of the area, tile by tile; `end` inclusive).
std::vector<AddressRange> areaRanges(const FeatureMap& map, const Point& start, const Point& end) {
  const int y0 = start.y;
  const int x0 = start.x;
  const int c0 = start.z;
  const int y1 = std::min(end.y, map.shape.height - 1);
  const int x1 = std::min(end.x, map.shape.width - 1);
  const int c1 = std::min(end.z, map.shape.depth - 1);
  const TileBox& tiles = map.tiles;
  std::vector<AddressRange> ranges;
  const auto rows = [&](int fromY, int fromX, int toY, int toX) {
    for (int y = fromY; y <= toY; ++y) {
      ranges.push_back(rangeBetween(map, y, fromX, c0, y, toX, c1));
    }
  };
  if (x0 < tiles.width0 && y0 < tiles.height0) {
    rows(y0, x0, std::min(y1, tiles.height0 - 1), std::min(x1, tiles.width0 - 1));
  }
  if (x1 >= tiles.width0 && y0 < tiles.height1) {
    rows(y0, std::max(x0, tiles.width0), std::min(y1, tiles.height1 - 1), x1);
  }
  if (x0 < tiles.width0 && y1 >= tiles.height0) {
    rows(std::max(y0, tiles.height0), x0, y1, std::min(x1, tiles.width0 - 1));
  }
  if (x1 >= tiles.width0 && y1 >= tiles.height1) {
    rows(std::max(y0, tiles.height1), std::max(x0, tiles.width0), y1, x1);
  }
  return ranges;
}

bool areasIntersect(const FeatureMap& ifm, const Point& ifmStart, const Point& ifmEnd, const FeatureMap& previousOfm,
                    const Point& ofmStart, const Point& ofmEnd) {
  if (ifm.shape == previousOfm.shape && ifm.tiles == previousOfm.tiles) {
    return coordinatesIntersect(ifmStart, ifmEnd, ofmStart, ofmEnd);
  }
  return anyOverlap(areaRanges(ifm, ifmStart, ifmEnd), areaRanges(previousOfm, ofmStart, ofmEnd));
}

} // namespace

int blockDependency(const Architecture& architecture, const BlockOperation* previous, const BlockOperation& current) {
  if (previous == nullptr) {
    return 0;
  }
  if (usesLookupTable(*previous) && architecture.shramReservedEndBanks() == 0 && !usesLookupTable(current)) {
    return 0;
  }
  const auto previousOfm = featureMapRanges(previous->ofm);
  const bool ifmOverlaps = anyOverlap(previousOfm, featureMapRanges(current.ifm));
  const bool ifm2Overlaps = hasIfm2(current) && anyOverlap(previousOfm, featureMapRanges(*current.ifm2));
  if (ifmOverlaps && ifm2Overlaps) {
    return 0;
  }
  if (!ifmOverlaps && !ifm2Overlaps) {
    return kMaxBlockDependency;
  }
  const auto volume = [](const Shape3& s) { return std::int64_t{s.height} * s.width * s.depth; };
  if (ifm2Overlaps && volume(current.ifm2->shape) < volume(current.ifm.shape)) {
    return 0; // the previous OFM is a broadcast IFM2
  }
  const FeatureMap& overlapping = ifmOverlaps ? current.ifm : *current.ifm2;
  const int ifmBlockDepth = current.kind == BlockOperation::Kind::Conv2D
                                ? std::min(8 * 32 / bitsOf(current.ifm.type),
                                           static_cast<int>(npu::roundUp(current.ifm.shape.depth,
                                                                         architecture.variant().ifmMicroBlock.depth)))
                                : current.ofm.shape.depth;
  const Point ofmBlock{current.blockConfig.width, current.blockConfig.height, current.blockConfig.depth};
  const Rect ofmRect = rectOf(current.ofm.shape);
  const Rect ifmRect = rectOf(current.ifm.shape);
  const NpuPadding padding = current.padding.value_or(NpuPadding{});
  const NpuKernel kernel = current.kernel.value_or(NpuKernel{});
  const Point previousBlock{previous->blockConfig.width, previous->blockConfig.height, previous->blockConfig.depth};
  const Rect previousRect = rectOf(previous->ofm.shape);
  const Point ifmBlock = ifmBlockSize(architecture, ifmBlockDepth, ofmBlock, kernel);
  const int ifmDepthBlocks = static_cast<int>(npu::divRoundUp(ifmRect.size().z, ifmBlockDepth));
  int dependency = kMaxBlockDependency;
  int elapsed = 0;
  for (int forward = 0; forward < kMaxBlockDependency; ++forward) {
    // The IFM block the forward-th job of the current operation reads (get_first_job_input_volume).
    const auto ofmCoordinate = blockCoordinates(ofmRect, ofmBlock, forward / ifmDepthBlocks);
    if (!ofmCoordinate) {
      break;
    }
    // As Vela: the left padding for x, the right padding for y.
    const Point inStart{std::max(0, ofmCoordinate->x * kernel.strideX - padding.left),
                        std::max(0, ofmCoordinate->y * kernel.strideY - padding.right),
                        ifmRect.start.z + (forward % ifmDepthBlocks) * ifmBlock.z};
    const Point inEnd{inStart.x + ifmBlock.x, inStart.y + ifmBlock.y, inStart.z + ifmBlock.z};
    int outstanding = 0;
    for (int back = 0; back < kMaxBlockDependency; ++back) {
      const auto outStart = blockCoordinates(previousRect, previousBlock, -1 - back);
      if (!outStart) {
        break;
      }
      const Point outEnd{outStart->x + previousBlock.x, outStart->y + previousBlock.y, outStart->z + previousBlock.z};
      if (areasIntersect(overlapping, inStart, inEnd, previous->ofm, *outStart, outEnd)) {
        break;
      }
      if (outstanding > kMaxBlockDependency) {
        break;
      }
      outstanding += 1;
    }
    dependency = std::min(dependency, elapsed + outstanding);
    elapsed += 1;
    if (elapsed > kMaxBlockDependency) {
      break;
    }
  }
  return dependency;
}

} // namespace ethosu::codegen
