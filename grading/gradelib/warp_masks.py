"""Step 5's warp masks, checked in the PTX that the build assembled (inspection.py reads it
from <object>.device/, kept by cmake/CourseDeviceOnlyCompile.cmake): no verdict rests on the
source text, which `#line`, macros or string-literal joins can change.

Every warp-synchronous instruction (shfl.sync, vote.sync, match.sync, redux.sync, elect.sync,
bar.warp.sync) must use the full mask: an immediate 0xffffffff, or a register that every
definition reaching the instruction sets to that immediate (and that no path leaves unset).
The one exception is the course's checked shuffle, `course::step5::checked_shfl_xor_sync`
(warp_shuffle_check.cuh), a function of its own in these builds: there the mask may come from
its parameter, which it checks at run time (a wrong mask traps). It is compiled before any
student code (the PRELUDE of course_add_kernel_library), so the function of that name is the
course's, and no other function can take its name (a second definition does not compile). A
call of it with a constant mask must pass the full mask too: a constant is known wrong now.

The PTX is read as ptxas reads it: comments are spaces, an instruction's modifiers may be
separated by spaces (`shfl .sync`), statements end at ';', registers are scoped by braces.
Anything the reader cannot follow (a mask written as an expression, a warp instruction it
cannot parse) is a finding, never a pass.
"""
import re

FULL = 0xFFFFFFFF
CHECKED = "_ZN6course5step521checked_shfl_xor_syncEjfi"
WARP_OPCODES = ("shfl", "vote", "match", "redux", "elect", "activemask")
WARP_WORD = re.compile(r"(?<![\w$%.])(shfl|vote|match|redux|elect|bar\s*\.\s*warp)(?![\w$])")
_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DOTS = re.compile(r"\s*\.\s*(?=[A-Za-z_])")
_FUNCTION = re.compile(r"\.(?:entry|func)\s*(?:\([^)]*\))?\s*([A-Za-z_$%][\w$]*)")
_LABEL = re.compile(r"\s*([A-Za-z_$%][\w$]*)\s*:(?!:)")
_NAME = re.compile(r"%?[A-Za-z_$][\w$]*")
_INTEGER = re.compile(r"^(-)?(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)[uU]?$")
UNDEFINED = "a register left undefined on some path"
UNKNOWN = "a value computed at run time"
CHECKED_PARAMETER = "the checked shuffle's own mask parameter"


def integer(text):
    """The value of a PTX integer literal (hex, binary, octal, decimal, optional U), or
    None for anything else (registers, expressions)."""
    match = _INTEGER.match(text.strip())
    if not match:
        return None
    digits = match.group(2)
    if digits[:2] in ("0x", "0X"):
        value = int(digits[2:], 16)
    elif digits[:2] in ("0b", "0B"):
        value = int(digits[2:], 2)
    elif digits.startswith("0") and len(digits) > 1:
        value = int(digits[1:], 8)
    else:
        value = int(digits)
    return -value if match.group(1) else value


def full(value):
    return value is not None and value & FULL == FULL


def functions(text):
    """[(name, body text)] of the .entry and .func definitions of a PTX text (comments
    removed); a brace block at the top level that is neither a function nor a data
    initializer (`= {...}`) is returned with the name None."""
    text = _COMMENTS.sub(" ", text)
    result, depth, header_start, body_start, name = [], 0, 0, 0, None
    for index, character in enumerate(text):
        if character == "{":
            if depth == 0:
                header = _DOTS.sub(".", text[header_start:index])
                match = _FUNCTION.search(header)
                name = match.group(1) if match else ("" if "=" in header else None)
                body_start = index + 1
            depth += 1
        elif character == "}":
            depth -= 1
            if depth == 0:
                if name != "":
                    result.append((name, text[body_start:index]))
                header_start, name = index + 1, None
        elif character == ";" and depth == 0:
            header_start = index + 1
    return result


def split_operands(text):
    """Operands separated by top-level commas."""
    parts, depth, current = [], 0, ""
    for character in text:
        if character in "[{(":
            depth += 1
        elif character in "]})":
            depth -= 1
        if character == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += character
    if current.strip():
        parts.append(current.strip())
    return parts


class Statement:
    def __init__(self, text, scopes, labels):
        self.text = _DOTS.sub(".", " ".join(text.split()))
        self.scopes = scopes  # the chain of scope ids, innermost last
        self.labels = labels  # labels just before it
        words = self.text.split(None, 1)
        self.predicated = bool(words) and words[0].startswith("@")
        if self.predicated:
            words = words[1].split(None, 1) if len(words) > 1 else []
        self.opcode = words[0] if words else ""
        self.operands = split_operands(words[1]) if len(words) > 1 else []


def statements(body):
    """The statements of a function body, with their register scopes and labels."""
    result, chain, counter, labels = [], [0], [0], []
    index, length = 0, len(body)
    while index < length:
        while index < length and body[index].isspace():
            index += 1
        if index >= length:
            break
        if body[index] == "{":
            counter[0] += 1
            chain = chain + [counter[0]]
            index += 1
            continue
        if body[index] == "}":
            chain = chain[:-1] or [0]
            index += 1
            continue
        label = _LABEL.match(body, index)
        if label and not body[index] in ".@":
            labels.append(label.group(1))
            index = label.end()
            continue
        depth, end = 0, index
        while end < length and not (body[end] == ";" and depth == 0):
            if body[end] in "[{(":
                depth += 1
            elif body[end] in "]})":
                depth -= 1
            end += 1
        result.append(Statement(body[index:end], chain, labels))
        labels = []
        index = end + 1
    return result


class Function:
    """One PTX function: its statements, register scopes and the definitions that reach a
    statement."""

    def __init__(self, name, body):
        self.name = name
        self.statements = statements(body)
        self.declared = {}  # scope id: [(name, count or None)]
        for statement in self.statements:
            if statement.opcode.startswith(".reg"):
                for operand in statement.operands or []:
                    self._declare(statement.scopes[-1], operand)
                words = statement.text.split()
                if len(words) >= 3 and not statement.operands:
                    self._declare(statement.scopes[-1], words[-1])
        self._predecessors_cache = None
        self._definitions_cache = {}

    def _declare(self, scope, text):
        names = [word for word in text.split() if not word.startswith(".")]
        if not names:
            return
        match = re.match(r"^(%?[A-Za-z_$][\w$]*)<(\d+)>$", names[-1])
        entry = (match.group(1), int(match.group(2))) if match else (names[-1], None)
        self.declared.setdefault(scope, []).append(entry)

    def variable(self, statement, name):
        """(scope, name) of the register @p name as @p statement sees it, or None."""
        for scope in reversed(statement.scopes):
            for declared, count in self.declared.get(scope, []):
                if count is None and declared == name:
                    return scope, name
                if count is not None and name.startswith(declared):
                    number = name[len(declared):]
                    if number.isdigit() and int(number) < count:
                        return scope, name
        return None

    def definitions(self, index):
        """The registers statement @p index writes: those of its first operand, unless that
        is a memory operand (stores)."""
        statement = self.statements[index]
        if not statement.operands or statement.opcode.startswith(".") or \
                statement.operands[0].startswith("["):
            return []
        found = []
        for name in _NAME.findall(re.sub(r"\[[^\]]*\]", " ", statement.operands[0])):
            variable = self.variable(statement, name)
            if variable:
                found.append(variable)
        return found

    def _predecessors(self):
        """[set of statement indices that may run just before each statement]; -1 stands
        for the function's entry. A statement falls through to the next unless it is an
        unpredicated `bra`, `ret` or `exit`; a branch reaches its label, a branch through a
        table (`brx.idx`) every label (more paths only make the check stricter)."""
        if self._predecessors_cache is not None:
            return self._predecessors_cache
        count = len(self.statements)
        starts = {label: index for index, statement in enumerate(self.statements)
                  for label in statement.labels}
        predecessors = [set() for _ in range(count)]
        if count:
            predecessors[0].add(-1)
        for index, statement in enumerate(self.statements):
            base = statement.opcode.split(".")[0]
            ends = base in ("ret", "exit") or (base == "bra" and not statement.predicated)
            nexts = {index + 1} if index + 1 < count and not ends else set()
            if base == "bra":
                nexts |= {starts[name] for name in _NAME.findall(" ".join(statement.operands))
                          if name in starts}
            elif base == "brx":
                nexts |= set(starts.values())
            for nxt in nexts:
                predecessors[nxt].add(index)
        self._predecessors_cache = predecessors
        return predecessors

    def reaching(self, index, variable):
        """The definitions of @p variable that may reach statement @p index (indices), with
        UNDEFINED when a path from the entry sets it nowhere: a backward walk that stops at
        each unpredicated definition."""
        predecessors = self._predecessors()
        result, seen, todo = set(), set(), list(predecessors[index])
        while todo:
            where = todo.pop()
            if where in seen:
                continue
            seen.add(where)
            if where == -1:
                result.add(UNDEFINED)
                continue
            if variable in self._definitions(where):
                result.add(where)
                if not self.statements[where].predicated:
                    continue
            todo.extend(predecessors[where])
        return result

    def _definitions(self, index):
        if index not in self._definitions_cache:
            self._definitions_cache[index] = self.definitions(index)
        return self._definitions_cache[index]

    def values(self, index, operand):
        """The values @p operand may hold at statement @p index: integers, UNDEFINED,
        UNKNOWN or CHECKED_PARAMETER (the checked shuffle's own mask parameter)."""
        literal = integer(operand)
        if literal is not None:
            return {literal}
        statement = self.statements[index]
        variable = self.variable(statement, operand.strip())
        if variable is None:
            return {UNKNOWN}
        result = set()
        for where in self.reaching(index, variable):
            if where == UNDEFINED:
                result.add(UNDEFINED)
                continue
            source = self.statements[where]
            if source.opcode.split(".")[0] == "mov" and len(source.operands) == 2 and \
                    integer(source.operands[1]) is not None:
                result.add(integer(source.operands[1]))
            elif self.name == CHECKED and source.opcode.startswith("ld.param") and \
                    len(source.operands) == 2 and re.match(
                        rf"^\[{CHECKED}_param_0(\+0)?\]$", source.operands[1].replace(" ", "")):
                result.add(CHECKED_PARAMETER)
            else:
                result.add(UNKNOWN)
        return result or {UNDEFINED}


def describe(values):
    shown = []
    for value in sorted(values, key=str):
        shown.append(f"0x{value & FULL:08x}" if isinstance(value, int) else value)
    return ", ".join(shown)


def function_findings(function):
    """The findings of one PTX function."""
    findings = []
    where = f"in {function.name}"
    for index, statement in enumerate(function.statements):
        base = statement.opcode.split(".")[0]
        warp = base in WARP_OPCODES[:-1] or statement.opcode.startswith(("bar.warp",
                                                                          "barrier.warp"))
        if not warp:
            if WARP_WORD.search(statement.text) and base != "activemask":
                findings.append(f"{where}: `{statement.text[:80]}` names a warp instruction "
                                "the check cannot read")
            elif base == "call" and CHECKED in statement.text:
                findings += _checked_call(function, index, where)
            continue
        if ".sync" not in statement.opcode:
            findings.append(f"{where}: `{statement.text[:80]}` has no .sync (no mask at all)")
            continue
        if not statement.operands:
            findings.append(f"{where}: `{statement.text[:80]}` has no operands to read")
            continue
        values = function.values(index, statement.operands[-1])
        allowed = {CHECKED_PARAMETER} if function.name == CHECKED else set()
        if not all(full(value) if isinstance(value, int) else value in allowed
                   for value in values):
            findings.append(f"{where}: `{statement.text[:80]}` uses the mask "
                            f"{describe(values)}, not the full warp 0xffffffff")
    if function.name == CHECKED and not any(s.opcode == "trap" for s in function.statements):
        findings.append(f"{where}: the checked shuffle was compiled without its mask check "
                        "(no trap)")
    return findings


def _checked_call(function, index, where):
    statement = function.statements[index]
    arguments = [operand for operand in statement.operands if operand.startswith("(")]
    if not arguments:
        return []
    names = split_operands(arguments[-1].strip("()"))
    if not names:
        return []
    first = names[0]
    for earlier in range(index - 1, -1, -1):
        store = function.statements[earlier]
        if store.scopes != statement.scopes:
            continue
        if store.opcode.startswith("st.param") and len(store.operands) == 2 and \
                re.match(rf"^\[{re.escape(first)}(\+0)?\]$", store.operands[0].replace(" ", "")):
            values = function.values(earlier, store.operands[1])
            constants = [value for value in values if isinstance(value, int)]
            if constants and not all(full(value) for value in constants):
                return [f"{where}: calls checked_shfl_xor_sync with the constant mask "
                        f"{describe(values)}, not the full warp 0xffffffff"]
            return []
    return []


def ptx_findings(text):
    """The findings of a PTX text: one line each, naming the function and the instruction."""
    findings, names = [], []
    for name, body in functions(text):
        if name is None:
            findings.append("a block at the top level of the PTX that is neither a function "
                            "nor data: the check cannot read it")
            continue
        names.append(name)
        findings += function_findings(Function(name, body))
    if names.count(CHECKED) > 1:
        findings.append("the PTX defines checked_shfl_xor_sync more than once")
    return list(dict.fromkeys(findings))
