// SPDX-License-Identifier: Apache-2.0
#include "stream/high_level_stream.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <deque>
#include <memory>

namespace ethosu::codegen {

namespace {

IfmBoxQuery queryFor(const OperationGeometry& op, int input) {
  IfmBoxQuery query;
  query.strideY = op.strideY;
  query.strideX = op.strideX;
  query.skirt = op.skirt;
  query.ifmShape = input == 0 ? op.ifmShape : op.ifm2Shape.value_or(op.ifmShape);
  query.dotProduct = op.blockType == NpuBlockType::ConvolutionMxN || op.blockType == NpuBlockType::VectorProduct ||
                     op.blockType == NpuBlockType::ReduceSum;
  query.writeOffset = op.writeOffset.value_or(npu::Shape4{0, 0, 0, 0});
  query.dilatedKernelHeight = op.dilatedKernelHeight;
  query.readOffset = op.readOffsets[static_cast<std::size_t>(input)];
  query.readShape = op.readShapes[static_cast<std::size_t>(input)];
  query.upscaling = op.upscaling;
  query.binaryElementwise = op.binaryElementwise;
  return query;
}

/// Produces the commands of one operation stripe by stripe, pulling its cascade producer's commands
/// only when a stripe needs IFM rows that are not there yet (Vela generates these lazily).
class StripeCursor {
public:
  StripeCursor(std::span<const OperationGeometry> operations, std::span<const CascadeSpan> cascades,
               const std::vector<bool>& copyIsNeeded, int position)
      : op_(operations[static_cast<std::size_t>(position)]), position_(position),
        copyIsNeeded_(copyIsNeeded) {
    npu::require(op_.ofmStripe.height > 0 && op_.ofmStripe.width > 0, "OFM stripes are not empty");
    const bool firstInCascade =
        op_.cascade == 0 || cascades[static_cast<std::size_t>(op_.cascade - 1)].first == position;
    if (firstInCascade || op_.producer < 0) {
      ifmPresent_ = Box::whole(op_.ifmShape);
    } else {
      producer_ = std::make_unique<StripeCursor>(operations, cascades, copyIsNeeded, op_.producer);
    }
    start_ = Coordinate{0, 0, 0, op_.depthSlices.front()};
    end_ = Coordinate{op_.ofmShape.batch, op_.ofmShape.height, op_.ofmShape.width, op_.ofmShape.depth};
    if (op_.writeOffset) {
      const npu::Shape4 offset = *op_.writeOffset;
      const npu::Shape4 shape = op_.writeShape.value_or(op_.ofmShape);
      start_ = Coordinate{offset.batch, offset.height, offset.width, offset.depth};
      end_ = Coordinate{offset.batch + shape.batch, offset.height + shape.height, offset.width + shape.width,
                        offset.depth + shape.depth};
    }
    height_ = start_[1];
    width_ = start_[2];
    done_ = height_ >= end_[1] || width_ >= end_[2];
  }

  std::optional<HighLevelCommand> next() {
    while (queue_.empty() && !done_) {
      step();
    }
    if (queue_.empty()) {
      return std::nullopt;
    }
    HighLevelCommand command = std::move(queue_.front());
    queue_.pop_front();
    return command;
  }

private:
  /// One (height, width, depth slice) iteration: the producer's stripes it needs, its DMAs, its stripe.
  void step() {
    const int endHeight = std::min(height_ + op_.ofmStripe.height, end_[1]);
    const int endWidth = std::min(width_ + op_.ofmStripe.width, end_[2]);
    const auto slice = static_cast<std::size_t>(depthIndex_);
    const int startChannel = std::max(op_.depthSlices[slice], start_[3]);
    const int endChannel = std::min(op_.depthSlices[slice + 1], end_[3]);
    if (depthIndex_ == 0) {
      lookupTableLoaded_ = false;
    }

    StripeCommand stripe;
    stripe.operation = position_;
    stripe.ofmBox = Box{{start_[0], height_, width_, startChannel}, {end_[0], endHeight, endWidth, endChannel}};
    const IfmBox ifm = ifmBoxFor(stripe.ofmBox, queryFor(op_, 0));
    stripe.ifmBox = ifm.box;
    stripe.padTop = ifm.padTop;
    stripe.padBottom = ifm.padBottom;
    if (op_.ifm2Shape) {
      const IfmBox ifm2 = ifmBoxFor(stripe.ofmBox, queryFor(op_, 1));
      stripe.ifm2Box = ifm2.box;
      // The second input's transform decides the padding (as in Vela).
      stripe.padTop = ifm2.padTop;
      stripe.padBottom = ifm2.padBottom;
    }
    if (producer_ && !ifmPresent_.contains(stripe.ifmBox)) {
      pullProducerUntil(stripe.ifmBox);
    }
    requireRowsStillBuffered(stripe.ifmBox);
    stripe.firstStripeInHeight = height_ == start_[1];
    stripe.lastStripeInHeight = endHeight >= end_[1];
    if (op_.hasWeights) {
      stripe.weightBox = Box{{0, 0, 0, startChannel}, {1, 1, 1, endChannel}};
      if (op_.weightBuffers > 0) {
        stripe.weightBuffer = depthIndex_ % op_.weightBuffers;
        if (stripe.firstStripeInHeight) {
          queue_.push_back(DmaCommand{DmaCommand::Source::Weights, position_, *stripe.weightBox, stripe.weightBuffer});
        }
      }
    }
    if (op_.hasLookupTable && !lookupTableLoaded_) {
      lookupTableLoaded_ = true;
      queue_.push_back(DmaCommand{DmaCommand::Source::LookupTable, position_, Box{}, 0});
    }
    if (op_.memoryCopy) {
      if (copyIsNeeded_[static_cast<std::size_t>(position_)]) {
        queue_.push_back(DmaCommand{DmaCommand::Source::FeatureMap, position_, Box::whole(op_.ifmShape), 0});
      }
    } else {
      queue_.push_back(std::move(stripe));
    }
    advance();
  }

  void pullProducerUntil(const Box& required) {
    while (auto command = producer_->next()) {
      const auto* stripe = std::get_if<StripeCommand>(&*command);
      const bool fromProducer = stripe != nullptr && stripe->operation == op_.producer;
      const Coordinate producedEnd = fromProducer ? stripe->ofmBox.end : Coordinate{};
      queue_.push_back(std::move(*command));
      if (fromProducer) {
        ifmPresent_.end = producedEnd;
        if (ifmPresent_.contains(required)) {
          return;
        }
      }
    }
  }

  /// The producer may not have overwritten, in its rolling buffer, rows this stripe still reads: rows
  /// from the first one read to the last one written must fit the buffer.
  void requireRowsStillBuffered(const Box& required) const {
    if (!producer_ || op_.rollingBufferRows <= 0) {
      return;
    }
    const int span = ifmPresent_.end[1] - required.start[1];
    if (span > op_.rollingBufferRows) {
      npu::throwCompileError("operation '" + op_.name + "' reads IFM rows " + std::to_string(required.start[1]) +
                                 " to " + std::to_string(required.end[1]) + " after its producer wrote up to row " +
                                 std::to_string(ifmPresent_.end[1]) + ", but the rolling buffer holds only " +
                                 std::to_string(op_.rollingBufferRows) + " rows",
                             {}, "the schedule's cascade buffer is too small for its stripes; use another scheduler");
    }
  }

  void advance() {
    if (++depthIndex_ + 1 < static_cast<int>(op_.depthSlices.size())) {
      return;
    }
    depthIndex_ = 0;
    width_ += op_.ofmStripe.width;
    if (width_ < end_[2]) {
      return;
    }
    width_ = start_[2];
    height_ += op_.ofmStripe.height;
    done_ = height_ >= end_[1];
  }

  const OperationGeometry& op_;
  int position_;
  const std::vector<bool>& copyIsNeeded_;
  std::unique_ptr<StripeCursor> producer_;
  Box ifmPresent_;
  Coordinate start_{};
  Coordinate end_{};
  int height_ = 0;
  int width_ = 0;
  int depthIndex_ = 0;
  bool lookupTableLoaded_ = false;
  bool done_ = false;
  std::deque<HighLevelCommand> queue_;
};

} // namespace

std::vector<HighLevelCommand> generateHighLevelStream(std::span<const OperationGeometry> operations,
                                                      std::span<const CascadeSpan> cascades,
                                                      const std::vector<bool>& copyIsNeeded) {
  std::vector<HighLevelCommand> commands;
  std::vector<bool> cascadeDone(cascades.size(), false);
  for (std::size_t position = 0; position < operations.size(); ++position) {
    const OperationGeometry& op = operations[position];
    int start = static_cast<int>(position);
    if (op.cascade != 0) {
      const auto cascade = static_cast<std::size_t>(op.cascade - 1);
      if (cascadeDone[cascade]) {
        continue;
      }
      cascadeDone[cascade] = true;
      start = cascades[cascade].last; // the last operation pulls the rest of the cascade
    }
    StripeCursor cursor(operations, cascades, copyIsNeeded, start);
    while (auto command = cursor.next()) {
      commands.push_back(std::move(*command));
    }
  }
  return commands;
}

} // namespace ethosu::codegen
