#!/usr/bin/env python3
"""Checks that every measured figure the lessons, READMEs and book pages quote is bound to the
committed cell (or log line) it comes from, and that it equals that cell with its rounding.

    python3 scripts/check_numbers.py [--strict] [--self-test] [--quoted] [FILE.md ...]

Without files it checks README.md, every README.md one folder down (the lessons, the grading
guide), the READMEs of the step folders' sub-folders (going_further/, lab/, exercise/, ...)
and docs/*.md. Given files, it checks those only (and reports each of them). Paths are taken
relative to the repository; run it from anywhere.

The convention (docs/results.md, "How a quoted number is bound to its source"):

* A *measured figure* is a number with a decimal point (0.841, 2.75, 21.48), or a whole
  number with a unit of time, rate or ratio (100 s, 448 ms, 95 %, 5×). Sizes and counts
  (4096×4096, K = 256, 132 SMs), numbers inside code (code spans, code blocks, @verbatim
  blocks) and version numbers (CUDA 12.4, compute capability 9.0) are not figures.
* Each figure is bound by an HTML comment right after it (invisible on GitHub and in the
  book); only spaces and emphasis marks (`*`, `_`, `)`) may stand between the two:
  - `<!-- cell: PATH | ROW | COLUMN -->`: PATH is a committed result file (from the
    repository root; `.md` with Markdown tables, or `.csv`), optionally ending in
    `#Heading text` to take the tables under that heading; ROW selects the row whose cells
    hold every `;`-separated part as an exact cell value; COLUMN is the exact header text.
    `COLUMN@N` takes the N-th number of the cell (counting from 1; default 1).
  - `<!-- line: PATH | TEXT -->`: the figure is one of the numbers on the single line of PATH
    that contains TEXT (`<!-- line: PATH | TEXT | @N -->` takes its N-th number).
  - `<!-- table: PATH[#Heading] -->` on the line before a table: every figure in the table
    equals the source cell with the same row (the first column, and the other columns that
    hold no figure where the first is not enough) and the same column header; the quoted
    table may show any subset of the source's columns, in any order.
  - Inside a table cell, write the fields' separators as `\\|` (a bare `|` ends the cell).
  - `<!-- quoted: note 002 -->` marks the next block (a paragraph, a table, a list) or the
    block it sits in as quoted from outside work: its figures are not the course's.
* The figure must equal the source's number rounded to the figure's own number of decimals
  (0.84 and 0.841 are bound by 0.8412; 0.85 is not; 0.84120 claims more digits than the
  source and fails).

Report mode (the default) prints each file's counts and its problems and exits 0;
--strict exits 1 when a figure is unbound, a binding is broken or a value differs.
--self-test raises the last digit of every bound figure by one (9 becomes 0), one at a time,
in memory, and runs the same comparison on it: every perturbation must be caught (exit 1
otherwise). CI runs both.
"""
import argparse
import csv
import decimal
import functools
import pathlib
import re
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[1]

UNIT = r"(?:ms|µs|us|ns|s|min|GB/s|TB/s|GiB/s|MiB|GiB|GB|GFLOP/s|TFLOP/s|%|×|x)"
# A number (thousands may be grouped by spaces or commas), not part of a name or a size.
# A unit of time or ratio may also follow without a space ("22.3ms", "5×"; but "80GB" is a
# product's name); 4096×4096 is a size.
ATTACHED_UNIT = r"(?:ms|µs|us|ns|s|min|%|×|x)"
FIGURE = re.compile(r"(?<![\w.^/\\#-])(\d{1,3}(?:[ ,]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
                    r"(?:(\s+" + UNIT + r"|" + ATTACHED_UNIT + r")(?![\w/])(?!\s?\d)"
                    r"|(?![\w^]|\.\d|[×x]\s?\d|[²³⁰¹⁴-⁹]))")
VERSION_CONTEXT = re.compile(
    r"(CUDA|nvcc|sm_|capability|version|CMake|Doxygen|Catch2|§|section|sections|PMPP|C\+\+|"
    r"Python|Debian|Ubuntu|clang|gcc|Chromium|compute-sanitizer|Nsight|HBM|PCIe|v)\s*[\"'(]?$",
    re.I)
# A number in a source cell or line: not part of a name (window_4096_w64, 1x4096x4096).
SOURCE_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
                           r"(?=(?:ms|us|µs|ns|s|x|GB|TB|GiB|MiB|KiB|B|%|×)?(?!\w))")
COMMENT = re.compile(r"<!--(.*?)-->", re.S)
BINDING = re.compile(r"^\s*(cell|line|table|quoted|source)\s*:(.*)$", re.S)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
# Characters that may stand between a figure and its binding: spaces and emphasis.
GLUE = re.compile(r"^[\s*_)\]]*$")
SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


# ----------------------------------------------------------------------------- text

def normalise(text):
    """A cell, header or key as compared: markup, escapes and emphasis removed, 2¹⁰ read as
    2^10, × as x, dashes as '-', spaces collapsed."""
    text = (text or "").strip()
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    text = re.sub(r"\\([\\|@#%_*\-<>`&$])", r"\1", text)
    text = re.sub(r"(\*\*|__|`)", "", text)
    text = re.sub(r"(?<=\d)([⁰¹²³⁴⁵⁶⁷⁸⁹]+)", lambda m: "^" + m.group(1).translate(SUPERSCRIPTS),
                  text)
    text = text.replace("×", "x").replace("–", "-").replace("—", "-").replace("−", "-")
    return re.sub(r"\s+", " ", text).strip()


def source_numbers(text):
    """The numbers of a source cell or line, in order (grouping commas removed)."""
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", normalise(text))
    return SOURCE_NUMBER.findall(text)


def split_row(line):
    """The cells of a Markdown table row (a `\\|` stays inside its cell)."""
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line)]


def heading_text(line):
    match = HEADING.match(line)
    if not match:
        return None
    return normalise(re.sub(r"\{#[\w-]+\}\s*$", "", match.group(2)))


def mask(text, keep_comments=False):
    """@p text with everything that holds no figure blanked out, lengths and line breaks kept:
    code blocks (``` fences, @verbatim), code spans, HTML comments (unless @p keep_comments:
    to find the bindings outside code), link targets, heading labels and Doxygen
    references."""
    out = list(text)

    def blank(start, end):
        for index in range(start, end):
            if out[index] != "\n":
                out[index] = " "

    position, fence = 0, None
    for line in text.split("\n"):
        stripped = line.strip()
        end = position + len(line)
        if fence:
            blank(position, end)
            if (fence == "@verbatim" and stripped in ("@endverbatim", "\\endverbatim")) or (
                    fence != "@verbatim" and stripped.startswith(fence)):
                fence = None
        elif FENCE.match(line):
            fence = FENCE.match(line).group(1)
            blank(position, end)
        elif stripped in ("@verbatim", "\\verbatim"):
            fence = "@verbatim"
            blank(position, end)
        position = end + 1
    # Table columns of versions ("compute capability", "CUDA version") hold no figures.
    lines, position = text.split("\n"), 0
    starts = []
    for line in lines:
        starts.append(position)
        position += len(line) + 1
    index = 0
    while index + 1 < len(lines):
        if lines[index].lstrip().startswith("|") and TABLE_DELIMITER.match(lines[index + 1]):
            versions = [n for n, h in enumerate(split_row(lines[index]))
                        if re.search(r"capability|version", h, re.I)]
            end = index + 2
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                if versions:
                    bars = [m.start() for m in re.finditer(r"(?<!\\)\|", lines[end])]
                    offset = 0 if lines[end].lstrip().startswith("|") else -1
                    for n in versions:
                        if n + 1 + offset < len(bars):
                            left = bars[n + offset] if n + offset >= 0 else -1
                            blank(starts[end] + left + 1, starts[end] + bars[n + 1 + offset])
                end += 1
            index = end
            continue
        index += 1
    masked = "".join(out)
    patterns = [] if keep_comments else [COMMENT]
    for pattern in patterns + [re.compile(r"`(?:[^`\n]|\n(?![ \t]*\n))+?`"),
                    re.compile(r"\]\([^)\s]*\)"), re.compile(r"\{#[\w-]+\}"),
                    re.compile(r"[@\\](ref|subpage|anchor|page|image)\s+\S+"),
                    re.compile(r"<[a-zA-Z/][^<>]*>"), re.compile(r"https?://\S+")]:
        for match in pattern.finditer(masked):
            blank(match.start(), match.end())
        masked = "".join(out)
    return masked


def figures_in(masked, whole=False):
    """(start, end, figure text) of each measured figure in masked text; with @p whole, whole
    numbers without a unit too (a count may be bound, though it need not be)."""
    found = []
    for match in FIGURE.finditer(masked):
        number, unit = match.group(1), match.group(2)
        if "." not in number and not unit and not whole:
            continue  # a whole number without a unit: a size, a count, an index
        if VERSION_CONTEXT.search(masked[max(0, match.start() - 24):match.start()]):
            continue
        found.append((match.start(), match.end(), match.group(0)))
    return found


def figure_value(figure):
    """The number of a figure's text ('1 250.5 ms' -> '1250.5')."""
    return re.match(r"[\d ,.]+", figure).group(0).strip().replace(" ", "").replace(",", "")


def rounds_to(figure, source):
    """None when the source number @p source, rounded to the figure's decimals, gives the
    figure; else why not."""
    value = figure_value(figure)
    decimals = len(value.split(".")[1]) if "." in value else 0
    source_decimals = len(source.split(".")[1].split("e")[0].split("E")[0]) \
        if "." in source else 0
    try:
        wanted, have = decimal.Decimal(value), decimal.Decimal(source)
    except decimal.InvalidOperation:
        return "the source holds %r, not a number" % source
    if decimals > source_decimals and "e" not in source.lower():
        return "the figure has more decimals than the source (%s)" % source
    # Rounded half up, as a reader rounds (0.925 -> 0.93): one rounding only, so that a
    # figure one unit off in its last digit never passes.
    if have.quantize(decimal.Decimal(1).scaleb(-decimals),
                     rounding=decimal.ROUND_HALF_UP) == wanted:
        return None
    return "the source says %s" % source


# ----------------------------------------------------------------------------- sources

class SourceError(Exception):
    pass


class Table:
    def __init__(self, headers, rows, heading, line):
        self.headers = headers            # raw header texts
        self.keys = [normalise(h) for h in headers]
        self.rows = rows                  # lists of raw cell texts
        self.heading = heading            # normalised text of the heading above it, or None
        self.line = line

    def column(self, name, occurrence=1):
        """The index of the column headed @p name (its @p occurrence-th, where a header
        repeats), or None."""
        name = normalise(name)
        found = [i for i, key in enumerate(self.keys) if key == name]
        return found[occurrence - 1] if len(found) >= occurrence else None


class Source:
    """A committed result file read once: its lines and its tables."""

    def __init__(self, path):
        self.path = path
        text = path.read_text(encoding="utf-8", errors="replace")
        self.lines = text.split("\n")
        self.tables = []
        self.headings = set()
        if path.suffix == ".csv":
            body = [line for line in self.lines if line.strip() and
                    not line.lstrip().startswith("#")]
            table = list(csv.reader(body))
            if table:
                self.tables.append(Table(table[0], [r for r in table[1:] if any(r)], None, 1))
            return
        heading, number = None, 0
        while number < len(self.lines):
            line = self.lines[number]
            title = heading_text(line)
            if title is not None:
                heading = title
                self.headings.add(title)
            elif (line.lstrip().startswith("|") and number + 1 < len(self.lines)
                  and TABLE_DELIMITER.match(self.lines[number + 1])):
                end = number + 2
                while end < len(self.lines) and self.lines[end].lstrip().startswith("|"):
                    end += 1
                rows = [split_row(row) for row in self.lines[number + 2:end]]
                self.tables.append(Table(split_row(line), rows, heading, number + 1))
                number = end
                continue
            number += 1

    def tables_under(self, heading):
        """The tables under a heading (all of them for None); where no heading has that
        text, the first table after the one line that holds it (a log's '== run' line)."""
        if heading is None:
            return self.tables
        wanted = normalise(heading)
        if wanted in self.headings:
            return [table for table in self.tables if table.heading == wanted]
        holding = [i for i, line in enumerate(self.lines) if heading.strip() in line]
        if len(holding) == 1:
            after = [table for table in self.tables if table.line > holding[0] + 1]
            if after:
                return after[:1]
        raise SourceError("no heading '%s' in %s (nor one line holding it, then a table)" % (
            heading, self.path.name))


class Sources:
    """The result files bindings name, read once, and the repository's committed files."""

    def __init__(self, repo):
        self.repo = repo
        self.cache = {}
        try:
            listed = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"],
                                    capture_output=True, check=True).stdout
            self.committed = set(listed.decode("utf-8", "replace").split("\0"))
        except (OSError, subprocess.CalledProcessError):
            self.committed = None  # not a git checkout: existence is checked only

    def get(self, name):
        relative = name.strip()
        path = (self.repo / relative).resolve()
        if not path.is_file():
            raise SourceError("%s does not exist" % relative)
        if self.committed is not None and relative not in self.committed:
            raise SourceError("%s is not a committed file" % relative)
        if path not in self.cache:
            self.cache[path] = Source(path)
        return self.cache[path]


def split_path(field):
    path, _, heading = field.strip().partition("#")
    return path.strip(), (heading.strip() or None)


def row_matches(row, parts):
    cells = {normalise(cell) for cell in row}
    return all(part in cells for part in parts)


def find_cell(source, heading, row_parts, column):
    """The raw text of the single cell that @p row_parts and @p column select."""
    parts = [normalise(part) for part in row_parts.split(";") if part.strip()]
    if not parts:
        raise SourceError("the binding names no row")
    found = []
    for table in source.tables_under(heading):
        index = table.column(column)
        if index is None:
            continue
        for row in table.rows:
            if row_matches(row, parts) and index < len(row):
                found.append(row[index])
    if not found:
        raise SourceError("no row '%s' with a column '%s' in %s%s" % (
            row_parts.strip(), column.strip(), source.path.name,
            " under '%s'" % heading if heading else ""))
    if len(found) > 1:
        raise SourceError("%d rows match '%s' in %s: add key parts (ROW a; b) or #Heading" % (
            len(found), row_parts.strip(), source.path.name))
    return found[0]


def same_key(source, quoted):
    """Cells that tell rows apart: the same text, or the same number (100 and 100.00)."""
    if normalise(source) == normalise(quoted):
        return True
    try:
        return decimal.Decimal(normalise(source)) == decimal.Decimal(normalise(quoted))
    except decimal.InvalidOperation:
        return False


def nth(numbers, n, where):
    if n > len(numbers):
        raise SourceError("%s holds %d number(s), not %d" % (where, len(numbers), n))
    return numbers[n - 1]


# ----------------------------------------------------------------------------- bindings

class Bound:
    """A figure and the check that binds it: verify(figure text) -> None or why it fails."""

    def __init__(self, line, figure, binding, verify):
        self.line, self.figure, self.binding, self.verify = line, figure, binding, verify


def fields_of(args):
    """The fields of a binding: split at '|', or at '\\|' (in a table cell a bare '|' would
    end the cell, on GitHub and in the book alike)."""
    return [field.strip() for field in re.split(r"\\?\|", args)]


def cell_check(sources, args):
    fields = fields_of(args)
    if len(fields) != 3:
        raise SourceError("a cell binding is 'PATH | ROW | COLUMN[@N]'")
    path, heading = split_path(fields[0])
    column, n = fields[2], 1
    match = re.match(r"^(.*?)@(\d+)$", column)
    if match:
        column, n = match.group(1).strip(), int(match.group(2))
    source = sources.get(path)
    cell = find_cell(source, heading, fields[1], column)
    value = nth(source_numbers(cell), n, "the cell '%s'" % cell)
    where = "%s, row '%s', column '%s'" % (path, fields[1], fields[2])
    return lambda figure: (lambda why: why and "%s (%s)" % (why, where))(rounds_to(figure, value))


def line_check(sources, args):
    fields = fields_of(args)
    if len(fields) not in (2, 3) or not fields[1]:
        raise SourceError("a line binding is 'PATH | TEXT' or 'PATH | TEXT | @N'")
    source = sources.get(fields[0])
    lines = [line for line in source.lines if fields[1] in line]
    if len(lines) != 1:
        raise SourceError("%d lines of %s contain '%s' (it must be one)" % (
            len(lines), fields[0], fields[1]))
    numbers = source_numbers(lines[0])
    if len(fields) == 3:
        match = re.match(r"^@(\d+)$", fields[2])
        if not match:
            raise SourceError("the third field of a line binding is @N")
        numbers = [nth(numbers, int(match.group(1)), "the line '%s'" % lines[0].strip())]
    where = "%s, the line '%s'" % (fields[0], lines[0].strip()[:100])

    def verify(figure):
        reasons = [rounds_to(figure, number) for number in numbers]
        if any(reason is None for reason in reasons):
            return None
        return "no number on the line rounds to it (%s)" % where
    return verify


def table_checks(sources, args, table_lines, first_line, masked_lines):
    """Bound figures of a quoted table (list of Bound) and the binding's problems."""
    path, heading = split_path(args)
    source = sources.get(path)
    candidates = source.tables_under(heading)
    headers = split_row(table_lines[0])
    # A header that repeats (two 'fraction' columns) maps to the same occurrence in the source.
    occurrence = [sum(normalise(h) == normalise(other) for other in headers[:i + 1])
                  for i, h in enumerate(headers)]
    body = list(zip(table_lines[2:], masked_lines[2:]))
    # The source table: the one holding every quoted column (and the first row's key).
    fitting = [t for t in candidates
               if all(t.column(h, n) is not None for h, n in zip(headers, occurrence))]
    if not fitting:
        raise SourceError("no table of %s%s has the columns %s" % (
            path, " under '%s'" % heading if heading else "", ", ".join(headers)))
    bound, problems = [], []
    for offset, (raw, masked) in enumerate(body):
        line = first_line + 2 + offset
        cells, masked_cells = split_row(raw), split_row(masked)
        figure_cells = [bool(figures_in(c)) for c in masked_cells]
        keys = [(h, n, c) for h, n, c, f in zip(headers, occurrence, cells, figure_cells)
                if not f]
        matches = []
        for table in fitting:
            for row in table.rows:
                if normalise(row[0]) != normalise(cells[0]):
                    continue
                if all(table.column(h, n) < len(row) and
                       same_key(row[table.column(h, n)], c) for h, n, c in keys):
                    matches.append((table, row))
        if len(matches) != 1:
            problems.append((line, cells[0], "<!-- table: %s -->" % args.strip(),
                             "%s row '%s' in %s" % ("no" if not matches else "more than one",
                                                    normalise(cells[0]), path)))
            continue
        table, row = matches[0]
        for header, n, cell, masked_cell in zip(headers, occurrence, cells, masked_cells):
            figures = figures_in(masked_cell)
            if not figures:
                continue
            source_cell = row[table.column(header, n)] if table.column(header, n) < len(row) \
                else ""
            have = source_numbers(source_cell)
            for start, _, figure in figures:
                index = len(source_numbers(masked_cell[:start]))
                where = "%s, row '%s', column '%s'" % (path, normalise(cells[0]), header)

                def verify(text, index=index, have=have, where=where, cell=source_cell):
                    if index >= len(have):
                        return "the source cell '%s' holds no number %d (%s)" % (
                            cell, index + 1, where)
                    why = rounds_to(text, have[index])
                    return why and "%s (%s)" % (why, where)
                bound.append(Bound(line, figure, "<!-- table: %s -->" % args.strip(), verify))
    return bound, problems


# ----------------------------------------------------------------------------- pages

def blocks_of(lines):
    """Splits a page into blocks: (first index, last index + 1, kind). Kinds: 'heading',
    'table' (with any comment lines right above it), 'item' (a list item that continues the
    list before it), 'text'. Code blocks are blocks of kind 'code'."""
    blocks, start, fence, kind = [], None, None, None

    def close(end):
        nonlocal start
        if start is not None:
            blocks.append((start, end, kind))
        start = None

    for index, line in enumerate(lines):
        stripped = line.strip()
        if fence:
            if (fence == "@verbatim" and stripped in ("@endverbatim", "\\endverbatim")) or (
                    fence != "@verbatim" and stripped.startswith(fence)):
                fence = None
                blocks.append((code_start, index + 1, "code"))
            continue
        if FENCE.match(line) or stripped in ("@verbatim", "\\verbatim"):
            close(index)
            fence = FENCE.match(line).group(1) if FENCE.match(line) else "@verbatim"
            code_start = index
            continue
        if HEADING.match(line):
            close(index)
            blocks.append((index, index + 1, "heading"))
            continue
        if not stripped:
            close(index)
            continue
        is_table = stripped.startswith("|")
        item = re.match(r"\s{0,3}([-*+]|\d+\.)\s", line)
        if start is not None and item and kind != "table":
            close(index)
            start, kind = index, "item"
            continue
        if start is None:
            start = index
            kind = "table" if is_table else "text"
        elif is_table and kind != "table" and all(
                COMMENT.fullmatch(l.strip()) for l in lines[start:index]):
            kind = "table"  # comment lines right above a table belong to it
    close(len(lines))
    return blocks


class PageResult:
    def __init__(self, path):
        self.path = path
        self.bound = []       # Bound
        self.unbound = []     # (line, figure)
        self.quoted = []      # (line, figure, work)
        self.problems = []    # (line, figure, binding, why)

    @property
    def failures(self):
        return len(self.unbound) + len(self.problems)


def binding_of(comment):
    match = BINDING.match(comment)
    return (match.group(1), match.group(2).strip()) if match else (None, None)


def check_page(path, sources, text=None):
    """Checks one page; @p text replaces the file's contents (tests)."""
    text = path.read_text(encoding="utf-8") if text is None else text
    masked = mask(text)
    lines, masked_lines = text.split("\n"), masked.split("\n")
    commented_lines = mask(text, keep_comments=True).split("\n")
    result = PageResult(path)
    pending = active = table_pending = None
    for start, end, kind in blocks_of(lines):
        if kind == "code":
            continue
        if kind == "heading":
            pending = active = None
        block = "\n".join(lines[start:end])
        masked_block = "\n".join(masked_lines[start:end])
        offsets = [0]
        for line in lines[start:end]:
            offsets.append(offsets[-1] + len(line) + 1)

        def line_at(position):
            return start + 1 + max(i for i, o in enumerate(offsets) if o <= position)

        commented = "\n".join(commented_lines[start:end])
        # Comments outside code, read from the text itself (masking blanks code spans).
        comments = [(m.start(), m.end()) + binding_of(COMMENT.fullmatch(
            block[m.start():m.end()]).group(1)) for m in COMMENT.finditer(commented)]
        figures = figures_in(masked_block)
        quoted_marks = [args for _, _, kind_, args in comments if kind_ == "quoted"]
        if quoted_marks and not figures:
            pending = quoted_marks[0]
            continue
        if quoted_marks:
            active = quoted_marks[0]
        elif pending:
            active, pending = pending, None
        elif kind != "item":
            active = None
        table_binding = [(s, e, args) for s, e, kind_, args in comments if kind_ == "table"]
        if table_binding and kind == "text" and all(
                COMMENT.fullmatch(l.strip()) for l in lines[start:end]):
            table_pending = table_binding[0]  # a comment alone, a blank line, the table
            continue
        if kind == "table" and not table_binding and table_pending:
            table_binding = [table_pending]
        elif table_pending:
            result.problems.append((start, "(table)", "<!-- table: %s -->" % table_pending[2],
                                    "a table binding must come right before a table"))
        table_pending = None
        table_figures = set()
        if kind == "table" and table_binding:
            first = next(i for i in range(start, end) if lines[i].lstrip().startswith("|"))
            _, _, args = table_binding[0]
            try:
                bound, problems = table_checks(sources, args, lines[first:end], first + 1,
                                               masked_lines[first:end])
                result.bound += bound
                result.problems += problems
            except SourceError as error:
                result.problems.append((first + 1, "(table)", "<!-- table: %s -->" % args,
                                        str(error)))
            table_start = offsets[first - start]
            table_figures = {f for f in figures if f[0] >= table_start}
        elif table_binding:
            result.problems.append((line_at(table_binding[0][0]) if table_binding[0][0] >= 0
                                    else start + 1, "(table)",
                                    "<!-- table: %s -->" % table_binding[0][2],
                                    "a table binding must be the line right before a table"))
        # Each cell/line binding binds the figure (or count) right before it.
        taken = set()
        numbers = figures_in(masked_block, whole=True)
        for c_start, c_end, kind_, args in comments:
            if kind_ not in ("cell", "line"):
                continue
            binding = "<!-- %s: %s -->" % (kind_, args)
            before = [f for f in numbers if f[1] <= c_start and f not in table_figures]
            target = before[-1] if before else None
            if target is None or target in taken or not GLUE.match(block[target[1]:c_start]):
                result.problems.append((line_at(c_start), "-", binding,
                                        "the binding does not follow a figure (only spaces "
                                        "and emphasis may stand between them)"))
                continue
            taken.add(target)
            try:
                verify = (cell_check if kind_ == "cell" else line_check)(sources, args)
            except SourceError as error:
                result.problems.append((line_at(target[0]), target[2], binding, str(error)))
                continue
            result.bound.append(Bound(line_at(target[0]), target[2], binding, verify))
        for figure in figures:
            if figure in taken or figure in table_figures:
                continue
            if active:
                result.quoted.append((line_at(figure[0]), figure[2], active))
            else:
                result.unbound.append((line_at(figure[0]), figure[2]))
    for bound in result.bound:
        why = bound.verify(bound.figure)
        if why:
            result.problems.append((bound.line, bound.figure, bound.binding, why))
    result.problems.sort(key=lambda p: p[0])
    return result


def perturbed(figure):
    """The figure with its last digit raised by one (9 becomes 0)."""
    index = max(i for i, ch in enumerate(figure) if ch.isdigit())
    digit = (int(figure[index]) + 1) % 10
    return figure[:index] + str(digit) + figure[index + 1:]


def self_test(results):
    """(caught, total, [(page, Bound)] missed): every bound figure, perturbed, must fail."""
    caught, total, missed = 0, 0, []
    for result in results:
        for bound in result.bound:
            if bound.verify(bound.figure):
                continue  # already a mismatch: --strict reports it
            total += 1
            if bound.verify(perturbed(bound.figure)):
                caught += 1
            else:
                missed.append((result.path, bound))
    return caught, total, missed


def default_files(repo=REPO):
    # The step folders' own rooms (going_further/, lab/, exercise/) have READMEs too.
    files = [repo / "README.md"] + sorted(repo.glob("*/README.md")) + sorted(
        repo.glob("step*/*/README.md")) + sorted((repo / "docs").glob("*.md"))
    return [path for path in files if path.is_file() and not path.parent.name.startswith(
        ("build", ".")) and path.parent.name != "data"]


def relative(path, repo):
    try:
        return str(path.resolve().relative_to(repo))
    except ValueError:
        return str(path)


def main(argv=None, repo=REPO, out=sys.stdout):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 on an unbound figure, a broken binding or a mismatch")
    parser.add_argument("--self-test", action="store_true",
                        help="perturb every bound figure's last digit; exit 1 unless all "
                             "are caught")
    parser.add_argument("--quoted", action="store_true", help="also list the quoted figures")
    args = parser.parse_args(argv)
    files = [path.resolve() for path in args.files] or default_files(repo)
    sources = Sources(repo)
    results, failures = [], 0
    for path in files:
        if not path.is_file():
            print("%s: no such file" % relative(path, repo), file=out)
            failures += 1
            continue
        result = check_page(path, sources)
        results.append(result)
        failures += result.failures
        name = relative(path, repo)
        print("%s: %d bound, %d quoted, %d unbound, %d problem(s)" % (
            name, len(result.bound), len(result.quoted), len(result.unbound),
            len(result.problems)), file=out)
        for line, figure in result.unbound:
            print("  %s:%d: %s is not bound to a source (add <!-- cell: ... --> right after "
                  "it)" % (name, line, figure), file=out)
        for line, figure, binding, why in result.problems:
            print("  %s:%d: %s %s: %s" % (name, line, figure, binding, why), file=out)
        if args.quoted:
            for line, figure, work in result.quoted:
                print("  %s:%d: %s quoted from %s" % (name, line, figure, work), file=out)
    print("%d file(s): %d figure(s) bound, %d quoted, %d unbound, %d problem(s)%s" % (
        len(results), sum(len(r.bound) for r in results), sum(len(r.quoted) for r in results),
        sum(len(r.unbound) for r in results), sum(len(r.problems) for r in results),
        "" if args.strict or args.self_test else
        " (report mode: --strict makes them fail)"), file=out)
    status = 1 if args.strict and failures else 0
    if args.self_test:
        caught, total, missed = self_test(results)
        for path, bound in missed:
            print("  self-test: %s:%d: %s -> %s not caught by %s" % (
                relative(path, repo), bound.line, bound.figure, perturbed(bound.figure),
                bound.binding), file=out)
        print("self-test: %d of %d perturbed figures caught (%.1f %%)" % (
            caught, total, 100.0 * caught / total if total else 100.0), file=out)
        if caught != total:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
