// SPDX-License-Identifier: Apache-2.0
// Placeholder so the library has a source until the first area lands.
namespace ethosu {
/// Version of the shared Ethos-U model code, reported by the accelerator plugins.
const char* commonVersion() { return "0.1.0"; }
} // namespace ethosu
