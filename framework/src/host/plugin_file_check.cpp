// SPDX-License-Identifier: Apache-2.0
#include "plugin_file_check.hpp"

#include <elf.h>
#include <link.h>

#include <cstring>
#include <fstream>
#include <optional>
#include <vector>

namespace npu::detail {

namespace {

using Header = ElfW(Ehdr);
using ProgramHeader = ElfW(Phdr);
using SectionHeader = ElfW(Shdr);
using Symbol = ElfW(Sym);

constexpr unsigned char kHostClass = sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32;
constexpr unsigned char kHostByteOrder = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
#if defined(__x86_64__)
constexpr unsigned kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kHostMachine = EM_AARCH64;
#elif defined(__i386__)
constexpr unsigned kHostMachine = EM_386;
#elif defined(__arm__)
constexpr unsigned kHostMachine = EM_ARM;
#elif defined(__riscv)
constexpr unsigned kHostMachine = EM_RISCV;
#else
constexpr unsigned kHostMachine = EM_NONE; // unknown host: the loader alone checks the architecture
#endif

/// Reads byte ranges of the file, each checked against its size; values are copied out, so nothing
/// assumes the file's alignment.
class FileReader {
public:
  FileReader(const std::filesystem::path& file, std::uintmax_t size) : in_(file, std::ios::binary), size_(size) {}

  [[nodiscard]] bool contains(std::uint64_t offset, std::uint64_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }

  std::optional<std::vector<char>> bytes(std::uint64_t offset, std::uint64_t length) {
    if (!contains(offset, length)) {
      return std::nullopt;
    }
    std::vector<char> buffer(static_cast<std::size_t>(length));
    in_.seekg(static_cast<std::streamoff>(offset));
    if (!in_.read(buffer.data(), static_cast<std::streamsize>(length))) {
      return std::nullopt;
    }
    return buffer;
  }

  template <typename T>
  std::optional<T> value(std::uint64_t offset) {
    const auto buffer = bytes(offset, sizeof(T));
    if (!buffer) {
      return std::nullopt;
    }
    T result;
    std::memcpy(&result, buffer->data(), sizeof(T));
    return result;
  }

  template <typename T>
  std::optional<std::vector<T>> table(std::uint64_t offset, std::uint64_t count) {
    if (count > size_ / sizeof(T)) {
      return std::nullopt;
    }
    const auto buffer = bytes(offset, count * sizeof(T));
    if (!buffer) {
      return std::nullopt;
    }
    std::vector<T> result(static_cast<std::size_t>(count));
    std::memcpy(result.data(), buffer->data(), buffer->size());
    return result;
  }

  [[nodiscard]] std::uintmax_t size() const { return size_; }

private:
  std::ifstream in_;
  std::uintmax_t size_;
};

std::string checkHeader(const Header& header) {
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return "not an ELF file";
  }
  if (header.e_ident[EI_CLASS] != kHostClass) {
    return std::string("an ELF file for ") + (header.e_ident[EI_CLASS] == ELFCLASS32 ? "32" : "64") +
           "-bit code; this npu-pipeline is " + std::to_string(sizeof(void*) * 8) + "-bit";
  }
  if (header.e_ident[EI_DATA] != kHostByteOrder || header.e_ident[EI_VERSION] != EV_CURRENT) {
    return "an ELF file of another byte order or ELF version";
  }
  if (header.e_type != ET_DYN) {
    return "an ELF file that is not a shared library (type " + std::to_string(header.e_type) + ")";
  }
  if (kHostMachine != EM_NONE && header.e_machine != kHostMachine) {
    return "a shared library for another processor (ELF machine " + std::to_string(header.e_machine) +
           ", this one is " + std::to_string(kHostMachine) + ")";
  }
  if (header.e_ehsize != sizeof(Header) || header.e_phentsize != sizeof(ProgramHeader) ||
      (header.e_shnum != 0 && header.e_shentsize != sizeof(SectionHeader))) {
    return "a corrupt ELF header (entry sizes do not match the ELF class)";
  }
  return {};
}

std::string checkSegments(const std::vector<ProgramHeader>& segments, std::uintmax_t fileSize) {
  bool dynamic = false;
  for (std::size_t index = 0; index < segments.size(); ++index) {
    const auto& segment = segments[index];
    dynamic = dynamic || segment.p_type == PT_DYNAMIC;
    if (segment.p_type != PT_LOAD) {
      continue;
    }
    if (segment.p_offset > fileSize || segment.p_filesz > fileSize - segment.p_offset) {
      return "truncated: loadable segment " + std::to_string(index) + " ends at byte " +
             std::to_string(segment.p_offset + segment.p_filesz) + " but the file has " + std::to_string(fileSize);
    }
    if (segment.p_filesz > segment.p_memsz) {
      return "a corrupt ELF file (segment " + std::to_string(index) + " is larger in the file than in memory)";
    }
  }
  return dynamic ? std::string{} : "an ELF file without a dynamic segment (not a shared library)";
}

/// True when some loadable, executable segment maps the address from bytes present in the file.
bool inExecutableSegment(const std::vector<ProgramHeader>& segments, std::uint64_t address) {
  for (const auto& segment : segments) {
    if (segment.p_type == PT_LOAD && (segment.p_flags & PF_X) != 0 && address >= segment.p_vaddr &&
        address - segment.p_vaddr < segment.p_filesz) {
      return true;
    }
  }
  return false;
}

std::string symbolTypeName(unsigned type) {
  switch (type) {
  case STT_NOTYPE:
    return "an untyped symbol";
  case STT_OBJECT:
    return "a data object";
  case STT_TLS:
    return "a thread-local variable";
  case STT_GNU_IFUNC:
    return "an indirect function (resolved by running plugin code)";
  default:
    return "a symbol of type " + std::to_string(type);
  }
}

std::string checkEntryPoint(FileReader& reader, const std::vector<SectionHeader>& sections,
                            const std::vector<ProgramHeader>& segments, std::string_view entryPoint) {
  const std::string missing = "missing entry point '" + std::string(entryPoint) +
                              "': not an npu-pipeline plugin (declare it with NPU_PIPELINE_PLUGIN)";
  for (const auto& section : sections) {
    if (section.sh_type != SHT_DYNSYM) {
      continue;
    }
    if (section.sh_entsize != sizeof(Symbol) || section.sh_link >= sections.size() ||
        sections[section.sh_link].sh_type != SHT_STRTAB) {
      return "not a loadable shared library (a corrupt dynamic symbol table)";
    }
    const auto& names = sections[section.sh_link];
    const auto symbols = reader.table<Symbol>(section.sh_offset, section.sh_size / sizeof(Symbol));
    const auto text = reader.bytes(names.sh_offset, names.sh_size);
    if (!symbols || !text) {
      return "not a loadable shared library (truncated: the dynamic symbol table lies beyond the end of the file)";
    }
    for (const auto& symbol : *symbols) {
      if (symbol.st_name >= text->size()) {
        continue;
      }
      const char* name = text->data() + symbol.st_name;
      const std::size_t length = strnlen(name, text->size() - symbol.st_name);
      if (std::string_view(name, length) != entryPoint || symbol.st_shndx == SHN_UNDEF) {
        continue;
      }
      const unsigned type = ELF64_ST_TYPE(symbol.st_info);
      const unsigned binding = ELF64_ST_BIND(symbol.st_info);
      if (type != STT_FUNC) {
        return "entry point '" + std::string(entryPoint) + "' is " + symbolTypeName(type) + ", not a function";
      }
      if (binding != STB_GLOBAL && binding != STB_WEAK) {
        return missing;
      }
      if (symbol.st_shndx >= sections.size() ||
          (sections[symbol.st_shndx].sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR) ||
          !inExecutableSegment(segments, symbol.st_value)) {
        return "entry point '" + std::string(entryPoint) + "' is not in an executable section of the file";
      }
      return {};
    }
    return missing;
  }
  return "no dynamic symbol table: " + missing;
}

} // namespace

std::string checkPluginFile(const std::filesystem::path& file, std::string_view entryPoint) {
  const auto unloadable = [](const std::string& problem) { return "not a loadable shared library (" + problem + ")"; };
  std::error_code error;
  const auto status = std::filesystem::status(file, error);
  if (error || !std::filesystem::is_regular_file(status)) {
    return unloadable("not a regular file");
  }
  const auto size = std::filesystem::file_size(file, error);
  if (error) {
    return unloadable("cannot read its size: " + error.message());
  }
  if (size > kMaxPluginFileBytes) {
    return unloadable("larger than the plugin size limit: " + std::to_string(size) + " bytes, at most " +
                      std::to_string(kMaxPluginFileBytes));
  }
  FileReader reader(file, size);
  const auto header = reader.value<Header>(0);
  if (!header) {
    return unloadable(size < sizeof(Header) ? "not an ELF file: too short" : "cannot be read");
  }
  if (auto problem = checkHeader(*header); !problem.empty()) {
    return unloadable(problem);
  }
  const auto segments = reader.table<ProgramHeader>(header->e_phoff, header->e_phnum);
  if (!segments) {
    return unloadable("truncated: the program headers lie beyond the end of the file");
  }
  if (auto problem = checkSegments(*segments, size); !problem.empty()) {
    return unloadable(problem);
  }
  const auto sections = reader.table<SectionHeader>(header->e_shoff, header->e_shnum);
  if (!sections || sections->empty()) {
    return unloadable("truncated: the section headers lie beyond the end of the file");
  }
  for (std::size_t index = 0; index < sections->size(); ++index) {
    const auto& section = (*sections)[index];
    if (section.sh_type != SHT_NOBITS && section.sh_type != SHT_NULL &&
        !reader.contains(section.sh_offset, section.sh_size)) {
      return unloadable("truncated: section " + std::to_string(index) + " ends beyond the end of the file");
    }
  }
  return checkEntryPoint(reader, *sections, *segments, entryPoint);
}

} // namespace npu::detail
