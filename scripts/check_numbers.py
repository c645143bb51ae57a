#!/usr/bin/env python3
"""Traces every measured figure that the lessons, READMEs and book pages quote to the
committed result file they cite, and lists the figures it cannot trace.

    python3 scripts/check_numbers.py [--strict] [FILE.md ...]

Without files it reads README.md, every README.md one folder down (the lessons, the grading
guide), the READMEs of the step folders' sub-folders (going_further/, lab/, ...) and docs/*.md. Run from anywhere; paths are taken relative to the repository.

The convention (see also docs/results.md, "How a quoted number is traced"):

* A *measured figure* is a number with a decimal point (0.841, 2.75, 21.48), or a whole
  number with a unit of time, rate or ratio (100 s, 448 ms, 95 %, 5×). Sizes and counts
  (4096×4096, K = 256, 132 SMs), numbers inside code (`--size 2048`, code blocks, Doxygen
  @verbatim blocks) and version numbers (CUDA 12.4, compute capability 9.0, PMPP section
  4.5) are not figures. Configured limits and computed sizes are written as code (a `300` s
  time limit) so that they are not taken for measurements.
* A block of text (a paragraph, a list item, a table, a heading) *cites* a file when it
  links to it (`[text](results/bench_h200.csv)`), names it in code (`results/bench_h200.md`,
  relative to the page's folder or to the repository root), or carries a comment
  `<!-- source: path [path ...] -->` (invisible on GitHub and in the book). A figure may come
  from any file its block, its section (up to the next heading of the same or a higher
  level) or its page (a `<!-- source: ... -->` before the first heading) cites.
* A figure is *traced* when one of those files holds the same number, written the same way
  or with more digits that round to it (0.84 is traced by 0.8412; 0.85 is not).
* A block after `<!-- quoted: note 002 -->` (or any other outside work) holds figures quoted
  from that work, not measured by the course; they are listed as quoted, not as untraced.

Report mode (the default) prints the untraced figures per file with their line and exits 0;
--strict (what CI runs) exits 1 when there is one.
"""
import argparse
import csv
import pathlib
import re
import sys

REPO = pathlib.Path(__file__).resolve().parents[1]
SOURCE_SUFFIXES = {".csv", ".md", ".txt", ".log", ".json"}

UNIT = r"(?:ms|µs|us|ns|s|min|GB/s|TB/s|GiB/s|MiB|GiB|GB|GFLOP/s|TFLOP/s|%|×|x)"
# A number (thousands may be grouped by spaces or commas), not part of a name or a size.
FIGURE = re.compile(r"(?<![\w.^/\\#-])(\d{1,3}(?:[ ,]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
                    r"(?![\w^]|\.\d|[×x]\s?\d|²|³)(\s*" + UNIT + r"(?![\w/]))?")
VERSION_CONTEXT = re.compile(
    r"(CUDA|nvcc|sm_|capability|version|CMake|Doxygen|Catch2|§|section|sections|PMPP|C\+\+|"
    r"Python|Debian|Ubuntu|clang|gcc|Chromium|compute-sanitizer|Nsight|HBM|PCIe|v)\s*[\"'(]?$",
    re.I)
FILE_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`([^`]+)`")
SOURCE_COMMENT = re.compile(r"<!--\s*source:\s*(.*?)-->", re.S)
QUOTED_COMMENT = re.compile(r"<!--\s*quoted:\s*(.*?)-->", re.S)
HEADING = re.compile(r"^(#{1,6})\s")


def blocks_of(text):
    """Splits Markdown into blocks: (first line number, kind, text, level). A heading's level
    is its number of #; a text block's is -1 when it is the next item of the same list (no
    blank line before it), else 0. Fenced code blocks (``` or Doxygen's @verbatim) are dropped; each list item is a block
    of its own; table rows stay together."""
    blocks, current, start, fence = [], [], 0, False
    lines = text.split("\n")

    joined = [False]  # the block being read follows the previous one with no blank line

    def flush(next_joined=False):
        if current:
            blocks.append((start, "text", "\n".join(current), -1 if joined[0] else 0))
            current.clear()
        joined[0] = next_joined

    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith("```") or (
                line.strip() in ("@verbatim", "@endverbatim") and
                fence == (line.strip() == "@endverbatim")):
            flush()  # a code block, Markdown's or Doxygen's (the results pages' raw logs)
            fence = not fence
            continue
        if fence:
            continue
        heading = HEADING.match(line)
        if heading:
            flush()
            blocks.append((number, "heading", line, len(heading.group(1))))
            continue
        starts_item = re.match(r"\s{0,3}([-*+]|\d+\.)\s", line)
        if not line.strip():
            flush()
        elif starts_item and current:
            flush(next_joined=True)  # the next item of the same list
        if line.strip():
            if not current:
                start = number
            current.append(line)
    flush()
    return blocks


def cited_files(text, page_dir):
    """The existing result files a block of text cites."""
    names = LINK.findall(text) + CODE_SPAN.findall(text)
    for comment in SOURCE_COMMENT.findall(text):
        names += comment.split()
    found = set()
    for name in names:
        name = name.split("#")[0].strip()
        if not name or "://" in name or " " in name:
            continue
        for base in (page_dir, REPO):
            path = (base / name).resolve()
            if path.is_file() and path.suffix in SOURCE_SUFFIXES and REPO in path.parents:
                found.add(path)
                break
    return found


def figures_in(text):
    """(figure text, value) of each measured figure in a block, code and links removed."""
    text = SOURCE_COMMENT.sub(" ", QUOTED_COMMENT.sub(" ", text))
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = CODE_SPAN.sub(" ", LINK.sub("] ", text))
    text = re.sub(r"@(ref|subpage)\s+\S+", " ", text)
    figures = []
    for match in FIGURE.finditer(text):
        number, unit = match.group(1), match.group(2)
        if "." not in number and not unit:
            continue  # a whole number without a unit: a size, a count, an index
        if VERSION_CONTEXT.search(text[max(0, match.start() - 24):match.start()]):
            continue
        figures.append((number + (unit or ""), number.replace(" ", "").replace(",", "")))
    return figures


def line_of(figure, block, start):
    """The line of the file where @p figure first appears in @p block (which starts at line
    @p start); the block's first line if it cannot be found."""
    number = re.match(r"[\d ,.]+", figure).group(0).strip()
    for offset, text in enumerate(block.split("\n")):
        if re.search(r"(?<![\w.])" + re.escape(number) + r"(?![\w]|\.\d)", text):
            return start + offset
    return start


class NumberIndex:
    """The numbers of each cited file, read once."""

    def __init__(self):
        self.cache = {}

    def numbers(self, path):
        if path not in self.cache:
            text = path.read_text(encoding="utf-8", errors="replace")
            if path.suffix == ".csv":
                # A CSV's commas separate cells: drop only the grouping commas inside a cell
                # (removing every comma would join the numbers of neighbouring cells).
                text = "\n".join(" ".join(cell.replace(",", "") for cell in row)
                                 for row in csv.reader(text.splitlines()))
            else:
                text = text.replace(",", "")
            self.cache[path] = set(FILE_NUMBER.findall(text))
        return self.cache[path]

    def traces(self, value, paths):
        """Traced by the same number, or by one with up to 3 more decimals that rounds to it
        (0.84 and 0.841 are traced by 0.8412; 0.85 is not)."""
        decimals = len(value.split(".")[1]) if "." in value else 0
        wanted = float(value)
        for path in paths:
            for number in self.numbers(path):
                digits = len(number.split(".")[1]) if "." in number else 0
                if decimals <= digits <= decimals + 3 and \
                        abs(round(float(number), decimals) - wanted) < 1e-9:
                    return True
        return False


def check_file(path, index):
    """Returns ([(line, figure, why)] untraced, [(line, figure, work)] quoted)."""
    text = path.read_text(encoding="utf-8")
    page_dir = path.parent
    first_heading = text.find("\n#")
    head = text[:first_heading] if first_heading > 0 else ""
    page_sources = cited_files("".join(m.group(0) for m in SOURCE_COMMENT.finditer(head)),
                               page_dir)
    blocks = blocks_of(text)
    # The sources of each section: every block up to the next heading of the same or a
    # higher level.
    section_sources, stack = {}, []
    for position, (_, kind, block, level) in enumerate(blocks):
        if kind == "heading":
            while stack and stack[-1][1] >= level:
                stack.pop()
            stack.append((position, level))
        cited = cited_files(block, page_dir)
        for owner, _ in stack:
            section_sources.setdefault(owner, set()).update(cited)
    untraced, quoted, stack = [], [], []
    pending = active = None
    for position, (start, kind, block, level) in enumerate(blocks):
        if kind == "heading":
            while stack and stack[-1][1] >= level:
                stack.pop()
            stack.append((position, level))
        marker = QUOTED_COMMENT.search(block)
        if kind == "heading":
            pending = active = None
        if marker and not figures_in(block):
            pending = marker.group(1).strip()  # a marker alone: for the block after it
            continue
        if marker:
            active = marker.group(1).strip()
        elif pending:
            active, pending = pending, None
        elif level != -1:
            active = None  # a quote covers one block, or one whole list
        work = active
        # The block's own sources first; without any, its section's; then the page's.
        sources = cited_files(block, page_dir)
        for owner, _ in reversed(stack):
            if sources:
                break
            sources = set(section_sources.get(owner, set()))
        sources = sources or set(page_sources)
        for figure, value in figures_in(block):
            line = line_of(figure, block, start)
            if work:
                quoted.append((line, figure, work))
            elif not sources:
                untraced.append((line, figure, "no result file cited"))
            elif not index.traces(value, sources):
                untraced.append((line, figure, "not in " + ", ".join(
                    sorted(str(p.relative_to(REPO)) for p in sources))))
    return untraced, quoted


def default_files():
    # The step folders' own rooms (going_further/, lab/, device_pattern/) have READMEs too.
    files = [REPO / "README.md"] + sorted(REPO.glob("*/README.md")) + sorted(
        REPO.glob("step*/*/README.md")) + sorted((REPO / "docs").glob("*.md"))
    return [path for path in files if path.is_file() and not path.parent.name.startswith(
        ("build", ".")) and path.parent.name != "data"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a figure is untraced (report mode otherwise)")
    parser.add_argument("--quoted", action="store_true", help="also list the quoted figures")
    args = parser.parse_args()
    files = [path.resolve() for path in args.files] or default_files()
    index = NumberIndex()
    total_untraced = total_figures_files = total_quoted = 0
    for path in files:
        untraced, quoted = check_file(path, index)
        total_quoted += len(quoted)
        if untraced or (args.quoted and quoted):
            total_figures_files += bool(untraced)
            print("%s: %d untraced" % (path.relative_to(REPO), len(untraced)))
            for line, figure, why in untraced:
                print("  line %d: %s (%s)" % (line, figure, why))
            if args.quoted:
                for line, figure, work in quoted:
                    print("  line %d: %s quoted from %s" % (line, figure, work))
        total_untraced += len(untraced)
    print("%d untraced figure(s) in %d of %d file(s); %d quoted from outside work%s" % (
        total_untraced, total_figures_files, len(files), total_quoted,
        "" if args.strict else " (report mode: --strict makes untraced figures fail)"))
    return 1 if args.strict and total_untraced else 0


if __name__ == "__main__":
    sys.exit(main())
