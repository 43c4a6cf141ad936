# SPDX-License-Identifier: Apache-2.0
"""Minimal TFLite flatbuffer walking for benchmarks: find the shape vectors of tensors in place.

Only what the benchmarks need (no dependency on the flatbuffers Python package): the root Model table,
its subgraphs, their tensors and each tensor's name and shape, as byte offsets so a shape can be patched
without re-serialising the file (the patched value must fit the same int32).
"""
import struct

# Field indices in the TFLite schema (schema/tflite_schema.fbs).
MODEL_SUBGRAPHS = 2
SUBGRAPH_TENSORS = 0
TENSOR_SHAPE = 0
TENSOR_NAME = 3


def _u32(data, offset):
    return struct.unpack_from("<I", data, offset)[0]


def _field(data, table, index):
    """Absolute offset of a table field's value, or None when absent."""
    vtable = table - struct.unpack_from("<i", data, table)[0]
    vtable_size = struct.unpack_from("<H", data, vtable)[0]
    entry = 4 + 2 * index
    if entry >= vtable_size:
        return None
    relative = struct.unpack_from("<H", data, vtable + entry)[0]
    return None if relative == 0 else table + relative


def _deref(data, offset):
    return offset + _u32(data, offset)


def _vector(data, table, index):
    """(first element offset, length) of a vector field, or (None, 0)."""
    field = _field(data, table, index)
    if field is None:
        return None, 0
    start = _deref(data, field)
    return start + 4, _u32(data, start)


def tensors(data, subgraph=0):
    """[(name, shape offset, shape list)] of a subgraph's tensors."""
    root = _u32(data, 0)
    subgraphs, count = _vector(data, root, MODEL_SUBGRAPHS)
    if subgraphs is None or subgraph >= count:
        raise ValueError("no subgraph %d" % subgraph)
    table = _deref(data, subgraphs + 4 * subgraph)
    items, count = _vector(data, table, SUBGRAPH_TENSORS)
    result = []
    for i in range(count):
        tensor = _deref(data, items + 4 * i)
        name_field = _field(data, tensor, TENSOR_NAME)
        name = ""
        if name_field is not None:
            start = _deref(data, name_field)
            name = bytes(data[start + 4:start + 4 + _u32(data, start)]).decode("utf-8", "replace")
        shape_at, rank = _vector(data, tensor, TENSOR_SHAPE)
        shape = [] if shape_at is None else list(struct.unpack_from("<%di" % rank, data, shape_at))
        result.append((name, shape_at, shape))
    return result


def set_dimension(data, shape_offset, axis, value):
    struct.pack_into("<i", data, shape_offset + 4 * axis, value)
