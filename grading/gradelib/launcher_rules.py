"""Step 1's launcher, the only host code a student writes, checked against an allowlist in its
compiled object (inspection.py): what it defines, what it references, its sections, its code
before main, its machine code. Anything not on the lists is a finding that names the symbol,
section or instruction; nothing of the object runs.

- **Defined**: functions of the step's namespace (`course::step1::`: the launchers, kernels,
  helpers), functions local to the file, kernels and nvcc's launch stubs and registration;
  weak copies of other inline functions (the C++ library's, the course's) only when the
  course's own launcher object has the same copy, byte for byte (a different one could
  replace the library's at link time). No writable data but nvcc's own, no thread-local
  data, no indirect functions (resolved by the loader before main).
- **Referenced**: the launch API, nvcc's registration, the error checks (CUDA's and the
  course's), and what building a message and throwing it needs (strings, `ostringstream`,
  the standard exceptions, memory primitives): no file, process, environment, clock,
  memory copy or managed memory.
- **Sections**: code, read-only data, nvcc's fatbinary and registration, exception tables;
  `.init_array` holds exactly nvcc's registration entry, and the code it reaches calls only
  nvcc's registration; no `.preinit_array`, prioritized `.init_array.*`, `.ctors`, `.dtors`,
  `.fini*`, `.init`, TLS or any other section.
- **Code**: no system-call byte sequence at any offset of any executable section (one hidden
  in another instruction's immediate is caught too); no floating-point arithmetic (a launcher
  computes a grid, not a product); code refers to writable data only inside nvcc's own.
"""
import dataclasses
import re

from gradelib import elf, runner

# nvcc's writable data: the fatbinary handle, its registration state, the function-local
# statics of its launch stubs and registration callbacks, the exception personality pointer.
NVCC_DATA = re.compile(
    r"^(_ZL\d+__cudaFatCubinHandle|__cudaFatCubinHandle|_ZL\d+__fatDeviceText|__fatDeviceText"
    r"|_ZL\d+__nv_inited_managed_rt|__nv_inited_managed_rt"
    r"|_ZL\d+__nv_fatbinhandle_for_managed_rt|__nv_fatbinhandle_for_managed_rt"
    r"|_ZZL?\d+__device_stub__\w+|_ZGVZL?\d+__device_stub__\w+"
    r"|_ZZL?\d+(____nv_dummy_param_ref|__nv_cudaEntityRegisterCallback)\w*"
    r"|DW\.ref\.__gxx_personality_v0|fatbinData)$")
# nvcc's registration code, the only code before main (names as nvcc defines them).
NVCC_INIT = re.compile(r"^(_ZL24__sti____cudaRegisterAllv|__sti____cudaRegisterAll)$")
NVCC_INIT_LOCAL = re.compile(
    r"^(_ZL24__sti____cudaRegisterAllv|_ZL31__nv_cudaEntityRegisterCallbackPPv"
    r"|_ZL\d+____nv_dummy_param_refPv|_ZL\d+__nv_save_fatbinhandle_for_managed_rtPPv"
    r"|_ZL26__cudaUnregisterBinaryUtilv|_ZL\d+__nv_init_managed_rt_with_modulePPv)$")
REGISTRATION = {"__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaRegisterFunction",
                "__cudaRegisterVar", "__cudaUnregisterFatBinary", "atexit"}
# What a launcher may reference, by name (C and nvcc's) or demangled (C++).
ALLOWED_NAMES = REGISTRATION | {
    "__cudaPushCallConfiguration", "__cudaPopCallConfiguration", "__cudaLaunchKernel",
    "__cudaGetKernel", "__cudaInitModule", "cudaLaunchKernel", "cudaLaunchKernelExC",
    "cudaGetLastError", "cudaPeekAtLastError", "cudaGetErrorString", "cudaGetErrorName",
    "__cxa_allocate_exception", "__cxa_free_exception", "__cxa_throw", "__cxa_begin_catch",
    "__cxa_end_catch", "__cxa_rethrow", "__cxa_guard_acquire", "__cxa_guard_release",
    "__cxa_guard_abort", "__cxa_call_terminate", "_Unwind_Resume", "__gxx_personality_v0",
    "__stack_chk_fail", "_GLOBAL_OFFSET_TABLE_", "__dso_handle",
    "memcpy", "memmove", "memset", "memcmp", "strlen"}
_CHAR = r"<char, std::char_traits<char>(, std::allocator<char>)? >"
_EXCEPTIONS = r"(invalid_argument|runtime_error|out_of_range|logic_error|length_error)"
ALLOWED_DEMANGLED = re.compile("|".join([
    r"^course::(check_cuda|check_launch)\(",
    rf"^std::__cxx11::basic_string{_CHAR}::",
    rf"^std::__cxx11::basic_(ostringstream|stringbuf){_CHAR}::",
    rf"^(vtable|VTT|typeinfo|typeinfo name) for std::(__cxx11::)?basic_(ostringstream|stringbuf"
    rf"|ios|streambuf|ostream){_CHAR}$",
    rf"^std::basic_ios{_CHAR}::(init|clear)\(",
    rf"^std::basic_ostream{_CHAR}::(operator<<|_M_insert<)",
    rf"^std::basic_ostream{_CHAR}& std::(__ostream_insert|operator<<)",
    r"^std::ios_base::~?ios_base\(\)$",
    r"^std::locale::~?locale\(\)$",
    rf"^std::{_EXCEPTIONS}::~?{_EXCEPTIONS}\(",
    rf"^(typeinfo|vtable) for std::{_EXCEPTIONS}$",
    r"^std::__throw_\w+\(",
    r"^std::terminate\(\)$",
    r"^operator (new|delete)(\[\])?\(",
]))
# Sections a launcher's object may hold (the rest are findings): code, read-only data,
# writable data (whose symbols must be nvcc's), nvcc's fatbinary and registration, exception
# tables, and the object's own bookkeeping.
ALLOWED_SECTION = re.compile(
    r"^(|\.text(\.[\w.$]+)?|\.rodata(\.[\w.$]+)?|\.data\.rel\.ro(\.[\w.$]+)?|\.data(\.rel)?"
    r"(\.local)?(\.[\w.$]+)?|\.bss(\.[\w.$]+)?|\.init_array|\.nv_fatbin|\.nvFatBinSegment"
    r"|__nv_module_id|\.gcc_except_table(\.[\w.$]+)?|\.eh_frame|\.group|\.comment"
    r"|\.note\.GNU-stack|\.note\.gnu\.property|\.debug\w*|\.rela.*|\.symtab|\.strtab"
    r"|\.shstrtab)$")
RELRO = re.compile(r"^\.data\.rel\.ro")
SYSCALL_BYTES = {b"\x0f\x05": "syscall", b"\x0f\x34": "sysenter", b"\xcd\x80": "int $0x80"}
FLOATING = re.compile(
    r"^v?(add|sub|mul|div|sqrt|rcp|rsqrt|dp|hadd|hsub|addsub)(ss|sd|ps|pd|sh|ph)$"
    r"|^v?f(n)?m(add|sub|addsub|subadd)\d*(ss|sd|ps|pd|sh|ph)$"
    r"|^fi?(add|sub|subr|mul|div|divr)[pslt]?$|^f(sqrt|prem1?|scale|yl2x|yl2xp1|sin|cos"
    r"|sincos|ptan|patan|2xm1)$")
PREFIXES = {"rep", "repz", "repnz", "repe", "repne", "lock", "notrack", "bnd", "data16",
            "addr32", "cs", "ds", "es", "ss", "fs", "gs"}
_LINE = re.compile(r"^\s*([0-9a-f]+):\t([^\t]*)(?:\t(.*))?$")
_RELOC = re.compile(r"([0-9a-f]+): (R_X86_64_\w+)\t(\S+)")
_SECTION = re.compile(r"^Disassembly of section (\S+):$")


@dataclasses.dataclass
class Instruction:
    address: int
    end: int
    mnemonic: str
    operands: str
    relocations: list  # offsets (in the section) of the relocations inside it


def disassemble(path):
    """{section name: [Instruction]} of every executable section (objdump, linear)."""
    result = runner.run_limited(["objdump", "-d", "-r", "-w", "--no-show-raw-insn", str(path)],
                                120)
    if result.status != 0:
        raise elf.ElfError(f"objdump cannot disassemble {path}: "
                           + runner.first_lines(result.output, 2))
    sections, current = {}, None
    for line in result.output.splitlines():
        match = _SECTION.match(line)
        if match:
            current = sections.setdefault(match.group(1), [])
            continue
        match = _LINE.match(line)
        if current is None or not match:
            continue
        words = match.group(2).split()
        while words and (words[0] in PREFIXES or words[0].startswith("rex")):
            words = words[1:]
        mnemonic = words[0] if words else ""
        operands = " ".join(words[1:])
        offsets = [int(found.group(1), 16) for found in _RELOC.finditer(match.group(3) or "")]
        current.append(Instruction(int(match.group(1), 16), 0, mnemonic, operands, offsets))
    return sections


def _finish(instructions, size):
    for index, instruction in enumerate(instructions):
        instruction.end = (instructions[index + 1].address if index + 1 < len(instructions)
                           else size)


def launcher_findings(student_path, reference_path, demangle):
    """The allowlist's findings (strings) for step 1's object at @p student_path, against the
    course's own launcher object at @p reference_path (None: no weak copy outside the step's
    namespace is allowed); @p demangle maps a list of names to their demangled forms."""
    student = elf.ElfObject(student_path)
    reference = elf.ElfObject(reference_path) if reference_path else None
    code = disassemble(student_path)
    for section in student.sections:
        if section.name in code:
            _finish(code[section.name], section.size)
    readable = _readable(student, demangle)
    findings = []
    findings += _section_findings(student)
    findings += _definition_findings(student, reference, readable)
    findings += _reference_findings(student, readable)
    findings += _init_findings(student, code, readable)
    findings += _code_findings(student, code, readable)
    return findings


def _readable(obj, demangle):
    names = sorted({symbol.name for symbol in obj.symbols if symbol.name})
    return dict(zip(names, demangle(names)))


def _section_findings(obj):
    findings = []
    for section in obj.sections:
        if not ALLOWED_SECTION.match(section.name) or section.flags & elf.SHF_TLS:
            why = {".preinit_array": "code before main (run before every other initializer)",
                   ".fini_array": "code after main", ".ctors": "code before main",
                   ".dtors": "code after main", ".init": "code before main",
                   ".fini": "code after main"}.get(re.sub(r"\.\d+$", "", section.name)) or (
                "code before main (a prioritized initializer)"
                if section.name.startswith(".init_array.") else
                "thread-local data" if section.flags & elf.SHF_TLS else "not a section nvcc or "
                "the host compiler emits for a launcher")
            findings.append(f"holds the section {section.name}: {why}")
        elif section.executable and not section.name.startswith(".text"):
            findings.append(f"holds code in the section {section.name}")
        elif section.executable and section.writable:
            findings.append(f"holds writable code (section {section.name})")
    return findings


def _in_step(name):
    """Whether a demangled name is the file's or the step's own: a function of the step's
    namespace, the type information of its classes, or anything in an anonymous namespace
    (cudafe++ names those uniquely per file: `_GLOBAL__N__<hash>_<file>_<hash>`, global but
    hidden, so they cannot stand for another file's or a library's names)."""
    return re.match(r"^((typeinfo|typeinfo name|vtable|VTT) for )?(course::step1::"
                    r"|\(anonymous namespace\)::)", name) is not None


def kernel_of_stub(name):
    """The mangled kernel name that a symbol of nvcc's launch stub names, or None: the stub
    itself ('__device_stub__Z...', or C++-mangled '_Z<length>__device_stub__Z...<parameters>',
    '_ZL...' for a static kernel's) or a static variable of it ('_ZZL<length>__device_stub__
    Z...E8__handle': a static kernel's stub may be inlined, leaving only those)."""
    if name.startswith("__device_stub__Z"):
        return name[len("__device_stub_"):]
    match = re.search(r"(\d+)(__device_stub__Z)", name)
    if match:
        identifier = name[match.start(2):match.start(2) + int(match.group(1))]
        return identifier[len("__device_stub_"):]
    return None


def _definition_findings(student, reference, readable):
    findings = []
    stubs = {kernel_of_stub(symbol.name) for symbol in student.symbols} - {None}
    theirs = {symbol.name: symbol for symbol in reference.symbols} if reference else {}
    for symbol in student.symbols:
        if not symbol.defined or symbol.type in (elf.STT_SECTION, elf.STT_FILE) or (
                not symbol.name or symbol.name.startswith(".L")):
            continue
        name, shown = symbol.name, readable.get(symbol.name, symbol.name)
        section = student.section_of(symbol)
        if symbol.type == elf.STT_GNU_IFUNC:
            findings.append(f"defines {shown} as an indirect function (the loader runs its "
                            "resolver before main)")
            continue
        if symbol.type == elf.STT_TLS or symbol.section in (elf.SHN_COMMON, elf.SHN_ABS):
            findings.append(f"defines {shown}, data that is not a launcher's "
                            "(thread-local, common or absolute)")
            continue
        if section is None:
            continue
        if section.writable and not RELRO.match(section.name):
            if not NVCC_DATA.match(name):
                findings.append(f"defines the writable variable {shown} (section "
                                f"{section.name}): a launcher keeps no state; only nvcc's own "
                                "data may be writable")
            continue
        if symbol.bind == elf.STB_LOCAL:
            continue  # helpers and constants local to the file, nvcc's registration
        kernel = name in stubs or kernel_of_stub(name) is not None
        if _in_step(shown) or kernel:
            continue
        copy = theirs.get(name)
        if symbol.bind == elf.STB_WEAK and copy is not None and copy.defined and (
                _bytes(student, symbol) == _bytes(reference, copy)):
            continue  # the same inline copy as the course's launcher
        where = "a weak copy that differs from the course's launcher's" if (
            symbol.bind == elf.STB_WEAK and copy is not None) else "outside course::step1"
        findings.append(f"defines {shown} ({where}): a definition there could replace the C "
                        "or C++ library's or the course's when the runner is linked; a "
                        "launcher defines its own functions (course::step1) and kernels")
    return findings


def _bytes(obj, symbol):
    section = obj.section_of(symbol)
    if section is None:
        return None
    relocations = sorted((r.offset - symbol.value, r.type, r.symbol.name
                          or obj.sections[r.symbol.section].name, r.addend)
                         for r in obj.relocations.get(section.index, [])
                         if symbol.value <= r.offset < symbol.value + symbol.size)
    return section.data[symbol.value:symbol.value + symbol.size], relocations


def _reference_findings(obj, readable):
    bad = sorted({readable.get(symbol.name, symbol.name) for symbol in obj.symbols
                  if not symbol.defined and symbol.name
                  and symbol.name not in ALLOWED_NAMES
                  and not ALLOWED_DEMANGLED.match(readable.get(symbol.name, symbol.name))})
    if not bad:
        return []
    managed = [name for name in bad if "Managed" in name]
    why = ("a __managed__ variable, whose memory host code could read or write" if managed
           else "a launcher launches kernels and checks errors; files, processes, the "
           "environment, clocks, memory copies and host or managed memory are not its")
    shown = ", ".join(bad[:8]) + (f" and {len(bad) - 8} more" if len(bad) > 8 else "")
    return [f"references {shown}: {why}"]


def _function_at(obj, section_index, offset):
    symbol = obj.symbol_containing(section_index, offset)
    return symbol.name if symbol else f"{obj.sections[section_index].name}+{offset:#x}"


def _init_findings(obj, code, readable):
    """.init_array must hold nvcc's registration entry alone, and the code it reaches must
    call nothing but nvcc's registration."""
    findings = []
    entries = [section for section in obj.sections if section.name == ".init_array"]
    targets = []
    for section in entries:
        relocations = obj.relocations.get(section.index, [])
        if section.size != 8 * len(relocations):
            findings.append(f"holds {section.size} bytes of .init_array for "
                            f"{len(relocations)} relocation(s)")
        for relocation in relocations:
            targets.append((relocation.symbol.section,
                            relocation.symbol.value + relocation.addend))
    names = [_function_at(obj, section, offset) for section, offset in targets
             if 0 < section < len(obj.sections)]
    if len(targets) != 1 or not names or not NVCC_INIT.match(names[0]):
        shown = ", ".join(readable.get(name, name) for name in names) or "nothing"
        findings.append(f"runs code before main: .init_array names {shown} (only nvcc's "
                        "registration, __sti____cudaRegisterAll, may run there)")
        return findings
    reached, externals, indirect = _reach(obj, code, targets[0])
    foreign = sorted(name for name in reached if not NVCC_INIT_LOCAL.match(name))
    calls = sorted(name for name in externals if name not in REGISTRATION
                   and not name.startswith("__cuda"))
    if foreign or calls or indirect:
        what = [readable.get(name, name) for name in foreign + calls] + indirect
        findings.append("runs code before main: nvcc's registration reaches "
                        + ", ".join(what[:6]))
    return findings


def _reach(obj, code, start):
    """The local functions reached from @p start (section index, offset) by direct calls and
    jumps, the external symbols their code refers to, and their indirect calls."""
    seen, todo, externals, indirect = set(), [start], set(), []
    relocations = {index: {r.offset: r for r in entries}
                   for index, entries in obj.relocations.items()}
    while todo:
        section_index, offset = todo.pop()
        symbol = obj.symbol_containing(section_index, offset)
        if symbol is None or (section_index, symbol.value) in seen:
            continue
        seen.add((section_index, symbol.value))
        section = obj.sections[section_index]
        for instruction in code.get(section.name, []):
            if not symbol.value <= instruction.address < symbol.value + symbol.size:
                continue
            branch = instruction.mnemonic.startswith(("call", "j"))
            if branch and instruction.operands.startswith("*"):
                indirect.append(f"an indirect {instruction.mnemonic} in {symbol.name}")
            found = [relocations.get(section_index, {}).get(at) for at in instruction.relocations]
            for relocation in filter(None, found):
                if not relocation.symbol.defined:
                    externals.add(relocation.symbol.name)
                elif branch:
                    target = relocation.symbol.value + relocation.addend + (
                        instruction.end - relocation.offset)
                    todo.append((relocation.symbol.section, target))
            if branch and not found:
                match = re.match(r"^([0-9a-f]+) <", instruction.operands)
                if match:
                    todo.append((section_index, int(match.group(1), 16)))
    return {obj.symbol_containing(index, at).name for index, at in seen}, externals, indirect


def _code_findings(obj, code, readable):
    findings = []
    for section in obj.sections:
        if not section.executable:
            continue
        for pattern, name in SYSCALL_BYTES.items():
            start = section.data.find(pattern)
            while start >= 0:
                where = readable.get(_function_at(obj, section.index, start),
                                     _function_at(obj, section.index, start))
                findings.append(f"holds the bytes of a system call ({name}) in {where} "
                                f"({section.name}+{start:#x}): a launcher does not talk to "
                                "the operating system")
                start = section.data.find(pattern, start + 1)
        relocations = {r.offset: r for r in obj.relocations.get(section.index, [])}
        floating = {}  # function: [instructions]
        for instruction in code.get(section.name, []):
            if FLOATING.match(instruction.mnemonic):
                function = _function_at(obj, section.index, instruction.address)
                floating.setdefault(readable.get(function, function), []).append(
                    f"{instruction.mnemonic} {instruction.operands}".strip())
            for at in instruction.relocations:
                relocation = relocations.get(at)
                if relocation is None or not relocation.symbol.defined:
                    continue
                target = obj.sections[relocation.symbol.section] if (
                    0 < relocation.symbol.section < len(obj.sections)) else None
                if target is None or not target.writable or RELRO.match(target.name):
                    continue
                address = relocation.symbol.value + relocation.addend + (
                    instruction.end - relocation.offset if relocation.type in elf.PC_RELATIVE
                    else 0)
                owner = _data_at(obj, target.index, address)
                if owner is None or not NVCC_DATA.match(owner):
                    user = _function_at(obj, section.index, instruction.address)
                    findings.append(f"{readable.get(user, user)} uses writable data at "
                                    f"{target.name}+{address:#x}"
                                    f"{' (' + readable.get(owner, owner) + ')' if owner else ''}"
                                    ", which is not nvcc's: a launcher keeps no state")
        for function, instructions in floating.items():
            more = f" and {len(instructions) - 3} more" if len(instructions) > 3 else ""
            findings.append(f"computes in floating point in {function} ("
                            f"{', '.join(instructions[:3])}{more}): a launcher computes a grid, "
                            "not a product")
    return list(dict.fromkeys(findings))


def _data_at(obj, section_index, address):
    for symbol in obj.symbols:
        if (symbol.section == section_index and symbol.type in (elf.STT_OBJECT, 0)
                and symbol.name and symbol.value <= address < symbol.value + max(symbol.size, 1)):
            return symbol.name
    return None
