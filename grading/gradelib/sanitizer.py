"""Reads compute-sanitizer's text output: the errors it reports, each with its tool, the
kernel it names and its first lines, and the error count of the summary line."""
import dataclasses
import re

PREFIX = "========="
SANITIZER_ERROR_CODE = 86  # --error-exitcode: the run found at least one error
# Lines of the report that are not errors: the banner, the summary, a test program that
# itself exited non-zero (its failure is the plain run's business), host back traces.
_NOT_AN_ERROR = re.compile(
    r"^(COMPUTE-SANITIZER|ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY|Target application "
    r"returned an error|Error: process didn't terminate successfully|No CUDA-capable)")
# The first summary line counts; a later "ERROR SUMMARY: 22 errors were not printed" does not.
_SUMMARY = re.compile(r"^(?:ERROR SUMMARY: (\d+) errors?$|"
                      r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?)")
_KERNEL = re.compile(r"\bat (?:0x[0-9a-f]+ in )?(.+?)(?:\+0x[0-9a-f]+)?(?: in \S+)?$")


@dataclasses.dataclass
class Finding:
    """One error block of a sanitizer report."""
    headline: str
    kernel: str
    lines: list

    def text(self, count=6):
        return "\n".join(([self.headline] + self.lines)[:count])


@dataclasses.dataclass
class Report:
    """What one compute-sanitizer run found."""
    tool: str
    errors: int  # from the summary line; the number of findings when there is none
    findings: list
    summary_seen: bool

    def kernels(self):
        return sorted({finding.kernel for finding in self.findings if finding.kernel})


def kernel_name(location):
    """The kernel's name from a location such as
    'void ns::kernel<32>(const float *, int)+0x1a0 in /x/file.cuh:42' (return type and
    parameter list dropped)."""
    match = _KERNEL.search(location.strip())
    text = match.group(1) if match else location.strip()
    depth, cut = 0, len(text)
    for index in range(len(text) - 1, -1, -1):  # the parameter list is the last (...)
        if text[index] == ")":
            depth += 1
        elif text[index] == "(":
            depth -= 1
            if depth == 0:
                cut = index
                break
    name = text[:cut].strip()
    if name.startswith("void "):
        name = name[len("void "):]
    return name


def _kernel_of(lines):
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("at ") or " access at " in stripped:
            return kernel_name(stripped[stripped.index("at "):] if stripped.startswith("at ")
                               else stripped[stripped.index(" access at ") + len(" access"):])
    return ""


def parse(output, tool):
    """Parses the text of one compute-sanitizer run (its stdout and stderr together)."""
    findings, block, summary = [], None, None
    for raw in output.splitlines():
        if not (raw == PREFIX or raw.startswith(PREFIX + " ")):
            continue  # the test program's own output (Catch2's ===== rules included)
        body = raw[len(PREFIX):]
        content = body.strip()
        match = _SUMMARY.match(content)
        if match:
            if summary is None:
                summary = int(match.group(1) or match.group(2))
            block = None
            continue
        if not content or _NOT_AN_ERROR.match(content):
            block = None
            continue
        if body.startswith(" ") and body[1:2] in (" ", "\t") and block is not None:
            block.lines.append(content)  # an indented detail line of the current error
            continue
        if body.startswith(" ") and body[1:2] in (" ", "\t"):
            continue  # detail without a headline (e.g. a back trace after the summary)
        block = Finding(content, "", [])
        findings.append(block)
    findings.sort(key=lambda finding: finding.headline.startswith("Warning"))
    for finding in findings:
        finding.kernel = _kernel_of([finding.headline] + finding.lines)
        finding.lines = [line for line in finding.lines if not line.startswith(
            ("Host Frame", "Saved host backtrace", "Device Frame"))][:8]
    errors = summary if summary is not None else len(findings)
    return Report(tool, errors, findings, summary is not None)
