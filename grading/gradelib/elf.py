"""A reader of the relocatable objects (ELF64, x86-64) the inspection checks: sections with
their bytes, symbols, and relocations with their addends. Nothing of the object runs; only
its bytes are read (inspection.py)."""
import dataclasses
import pathlib
import struct

SHT_SYMTAB, SHT_RELA, SHT_NOBITS, SHT_GROUP = 2, 4, 8, 17
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR, SHF_TLS = 0x1, 0x2, 0x4, 0x400
STT_OBJECT, STT_FUNC, STT_SECTION, STT_FILE, STT_COMMON, STT_TLS, STT_GNU_IFUNC = (
    1, 2, 3, 4, 5, 6, 10)
STB_LOCAL, STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE = 0, 1, 2, 10
SHN_UNDEF, SHN_ABS, SHN_COMMON = 0, 0xFFF1, 0xFFF2
# x86-64 relocations whose field is a 32-bit displacement from the end of the field (for a
# call or jump: target = symbol + addend + 4).
PC_RELATIVE = {2, 4, 9, 41, 42}  # PC32, PLT32, GOTPCREL, GOTPCRELX, REX_GOTPCRELX


class ElfError(ValueError):
    """The file is not a relocatable ELF64 x86-64 object this reader understands."""


@dataclasses.dataclass
class Section:
    index: int
    name: str
    type: int
    flags: int
    size: int
    data: bytes
    link: int
    info: int

    @property
    def executable(self):
        return bool(self.flags & SHF_EXECINSTR)

    @property
    def writable(self):
        return bool(self.flags & SHF_WRITE)


@dataclasses.dataclass
class Symbol:
    index: int
    name: str
    value: int
    size: int
    type: int
    bind: int
    section: int  # section index, or SHN_UNDEF / SHN_ABS / SHN_COMMON

    @property
    def defined(self):
        return self.section != SHN_UNDEF


@dataclasses.dataclass
class Relocation:
    offset: int  # in the section it applies to
    type: int
    symbol: Symbol
    addend: int


class ElfObject:
    """One relocatable object: .sections (by index), .symbols, .relocations {section index:
    [Relocation]} (the relocations that apply to that section)."""

    def __init__(self, path):
        self.path = pathlib.Path(path)
        data = self.path.read_bytes()
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            raise ElfError(f"{self.path}: not a 64-bit little-endian ELF file")
        (kind, machine) = struct.unpack_from("<HH", data, 0x10)
        if kind != 1 or machine != 62:
            raise ElfError(f"{self.path}: not a relocatable x86-64 object")
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
        headers = []
        for index in range(shnum):
            headers.append(struct.unpack_from("<IIQQQQIIQQ", data, shoff + index * shentsize))
        names = headers[shstrndx]
        name_table = data[names[4]:names[4] + names[5]]
        self.sections = []
        for index, (name, kind, flags, _, offset, size, link, info, _, _) in enumerate(headers):
            content = b"" if kind == SHT_NOBITS else data[offset:offset + size]
            self.sections.append(Section(index, _string(name_table, name), kind, flags, size,
                                         content, link, info))
        self.symbols = []
        for section in self.sections:
            if section.type == SHT_SYMTAB:
                strings = self.sections[section.link].data
                for index in range(len(section.data) // 24):
                    name, info, _, shndx, value, size = struct.unpack_from(
                        "<IBBHQQ", section.data, index * 24)
                    self.symbols.append(Symbol(index, _string(strings, name), value, size,
                                               info & 0xF, info >> 4, shndx))
        self.relocations = {}
        for section in self.sections:
            if section.type != SHT_RELA:
                continue
            entries = self.relocations.setdefault(section.info, [])
            for index in range(len(section.data) // 24):
                offset, info, addend = struct.unpack_from("<QQq", section.data, index * 24)
                entries.append(Relocation(offset, info & 0xFFFFFFFF, self.symbols[info >> 32],
                                          addend))

    def section_of(self, symbol):
        """The section a defined symbol lies in, or None."""
        if 0 < symbol.section < len(self.sections):
            return self.sections[symbol.section]
        return None

    def symbol_at(self, section_index, offset):
        """The function or object symbol of @p section_index that starts at @p offset
        (None when none does)."""
        for symbol in self.symbols:
            if (symbol.section == section_index and symbol.value == offset
                    and symbol.type in (STT_FUNC, STT_OBJECT, 0) and symbol.name):
                return symbol
        return None

    def symbol_containing(self, section_index, offset):
        """The function symbol of @p section_index whose bytes hold @p offset, or None."""
        for symbol in self.symbols:
            if (symbol.section == section_index and symbol.type == STT_FUNC
                    and symbol.value <= offset < symbol.value + max(symbol.size, 1)):
                return symbol
        return None


def _string(table, offset):
    end = table.find(b"\0", offset)
    return table[offset:end if end >= 0 else len(table)].decode("utf-8", "replace")


def branch_target(relocation):
    """(section index, offset) that a call or jump through @p relocation reaches: for a
    32-bit PC-relative field the CPU adds the field to the address after it, so the target is
    symbol + addend + 4 (the -4 that the assembler puts in the addend of `call f` cancels
    out). None for other relocations."""
    if relocation.type not in PC_RELATIVE or not relocation.symbol.defined:
        return None
    return relocation.symbol.section, relocation.symbol.value + relocation.addend + 4
