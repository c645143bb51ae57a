"""The source rules of the inspection (inspection.py), checked after the preprocessor in the
lines that come from the student's files (the preprocessor's line markers say which): the
step's forbidden primitives (step 5: raw warp shuffles and reductions, which must go through
checked_shfl_xor_sync) after macro expansion, and macro tricks: a `#define` or `#undef` of a
name the course or the compiler defines or uses (`__syncthreads`, `checked_shfl_xor_sync`,
`COURSE_CHECK_WARP_MASKS`, ...), `#pragma push_macro`/`pop_macro` and `_Pragma`. The
preprocessor runs once per device architecture of the compile command and once for the host,
so that code behind `#if __CUDA_ARCH__` is seen too."""
import dataclasses
import re
import shlex

from gradelib import sandbox as sandbox_module

LINE_MARKER = re.compile(r'^#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"')
DIRECTIVE = re.compile(r"^\s*#\s*(define|undef)\s+([A-Za-z_]\w*)")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
LITERAL = re.compile(r'R"([^(\s]{0,16})\((?:.|\n)*?\)\1"|"(?:\\.|[^"\\\n])*"|'
                     r"'(?:\\.|[^'\\\n])*'")
KEYWORDS = set("""alignas alignof and asm auto bool break case catch char class const constexpr
const_cast continue decltype default delete do double dynamic_cast else enum explicit export
extern false float for friend goto if inline int long mutable namespace new noexcept not
nullptr operator or private protected public register reinterpret_cast return short signed
sizeof static static_assert static_cast struct switch template this thread_local throw true try
typedef typeid typename union unsigned using virtual void volatile wchar_t while""".split())
# A step's primitives that a student file must not bypass: forbidden identifiers (after
# macro expansion) and words forbidden in string literals (inline PTX).
PRIMITIVES = {
    "step5": (re.compile(r"^(__shfl\w*|shfl(_up|_down|_xor)?|__reduce_\w+_sync|__nvvm_\w+"
                         r"|reduce|WarpReduce|WarpScan|Shuffle\w*)$"),
              re.compile(r"shfl|redux"),
              "step 5's warp reductions must go through checked_shfl_xor_sync "
              "(warp_shuffle_check.cuh), which traps on a mask that leaves out a lane taking "
              "part; a raw shuffle or reduction skips that check"),
}


@dataclasses.dataclass
class Finding:
    """One rule a student's file breaks."""
    files: tuple  # the student files concerned (names within their step folder)
    rule: str  # host-symbols, host-definitions, static-initializer, system-call, primitive, macro
    text: str

    def line(self):
        return f"{', '.join(self.files)}: {self.text}"


def preprocess_commands(entry):
    """The nvcc -E commands (one per device architecture and one for the host) of a
    compile_commands.json entry, with -dD so that macro directives stay in the output."""
    arguments = shlex.split(entry["command"])
    kept, skip = [], False
    for argument in arguments:
        if skip:
            skip = False
            continue
        if argument in ("-c", "-MD"):
            continue
        if argument in ("-o", "-MT", "-MF"):
            skip = True
            continue
        kept.append(argument)
    architectures = sorted(set(re.findall(r"(?:arch=compute_|-arch=sm_|code=sm_)(\d+)",
                                          entry["command"])))
    without = [a for a in kept if not re.match(r"^(--generate-code|-gencode|-arch|--gpu-arch"
                                               r"|--generate-code=|-gencode=)", a)]
    commands = [(f"sm_{arch}", without[:1] + ["-E", "-Xcompiler", "-dD", f"-arch=sm_{arch}"]
                 + without[1:]) for arch in architectures or ["90"]]
    host = without[:1] + ["-E", "-Xcompiler", "-dD", "-Xcompiler", "-U__CUDA_ARCH__",
                          f"-arch=sm_{(architectures or ['90'])[0]}"] + without[1:]
    return commands + [("host", host)]


def segments(text):
    """Splits preprocessed text into (file, lines) runs by its line markers."""
    current, lines, runs = "", [], []
    for line in text.splitlines():
        match = LINE_MARKER.match(line)
        if match:
            if lines:
                runs.append((current, lines))
            current, lines = match.group(2), []
            continue
        lines.append(line)
    if lines:
        runs.append((current, lines))
    return runs


def source_findings(text, step_label, pass_name, student_root=sandbox_module.SUBMISSION,
                    course_root=sandbox_module.COURSE):
    """The source rules over one preprocessed translation unit (@p student_root and
    @p course_root: where the compiler saw the submission and the course)."""
    student_prefix = student_root + "/"
    protected, student = set(KEYWORDS), {}
    for path, lines in segments(text):
        if path.startswith(student_prefix):
            name = path[len(student_prefix):].split("/", 1)[-1]
            student.setdefault(name, []).extend(lines)
            continue
        for line in lines:
            directive = DIRECTIVE.match(line)
            if directive:
                protected.add(directive.group(2))
            elif path.startswith(course_root + "/"):
                protected.update(IDENTIFIER.findall(LITERAL.sub(" ", line)))
            elif path in ("<command-line>", "<built-in>"):
                protected.update(IDENTIFIER.findall(line))
    findings = []
    for name, lines in student.items():
        code = "\n".join(line for line in lines if not DIRECTIVE.match(line))
        stripped = LITERAL.sub(" ", code)
        identifiers = set(IDENTIFIER.findall(stripped))
        rule = PRIMITIVES.get(step_label)
        if rule:
            bad = sorted(word for word in identifiers if rule[0].match(word))
            strings = [m.group(0) for m in LITERAL.finditer(code) if rule[1].search(m.group(0))]
            if bad or strings:
                what = ", ".join(bad[:4]) or "inline PTX " + strings[0][:40]
                findings.append(Finding((name,), "primitive", f"uses {what}: " + rule[2]))
        tricks = []
        for line in lines:
            directive = DIRECTIVE.match(line)
            if directive and (directive.group(2) in protected
                              or re.match(r"^(__|_[A-Z])", directive.group(2))):
                tricks.append(f"#{directive.group(1)} {directive.group(2)}")
            elif re.match(r"^\s*#\s*pragma\s+(push_macro|pop_macro)", line) or "_Pragma" in line:
                tricks.append(line.strip()[:60])
        if tricks:
            findings.append(Finding((name,), "macro", f"{'; '.join(sorted(set(tricks))[:4])}: a "
                                    "step's files may not redefine or undefine what the "
                                    "course or the compiler defines (it would change the "
                                    "course's code or the checks)"))
    return findings
