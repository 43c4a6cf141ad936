// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Marks framework classes and functions that plugins use across shared-library boundaries. Plugins
/// are built with hidden visibility; polymorphic framework types must keep one identity (vtable,
/// typeinfo) across the host and every plugin so that dynamic_cast and catching npu::Error work.
#define NPU_API __attribute__((visibility("default")))
