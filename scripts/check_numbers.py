#!/usr/bin/env python3
"""Checks that every measured figure the lessons, READMEs and book pages quote is bound to the
committed cell (or log line) it comes from, and that it equals that cell with its rounding.

    python3 scripts/check_numbers.py [--strict] [--self-test] [--quoted] [FILE.md ...]

Without files it checks README.md, every README.md one folder down (the lessons, the grading
guide), the READMEs of the step folders' sub-folders (going_further/, lab/, exercise/, ...),
the labs' notebooks (step*/lab/NOTEBOOK.md: they quote measured figures too) and docs/*.md. Given files, it checks those only (and reports each of them). Paths are taken
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
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from figure_text import COMMENT, FENCE, FIGURE, figures_in, mask  # noqa: E402,F401
from result_sources import (  # noqa: E402,F401  (also what docs/results_render.py uses)
    SOURCE_NUMBER, TABLE_DELIMITER, HEADING, Sources, SourceError, find_cell, normalise,
    nth, rounds_to, same_key, source_numbers, split_path, split_row)

REPO = pathlib.Path(__file__).resolve().parents[1]
BINDING = re.compile(r"^\s*(cell|line|table|quoted|source)\s*:(.*)$", re.S)
# Characters that may stand between a figure and its binding: spaces and emphasis.
GLUE = re.compile(r"^[\s*_)\]]*$")


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
    blocks, start, fence, kind, code_start = [], None, None, None, 0

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
    # The step folders' own rooms (going_further/, lab/, exercise/) have READMEs too, and a
    # lab's notebook quotes the figures of its measurements.
    files = [repo / "README.md"] + sorted(repo.glob("*/README.md")) + sorted(
        repo.glob("step*/*/README.md")) + sorted(repo.glob("step*/lab/NOTEBOOK.md")) + sorted(
        (repo / "docs").glob("*.md"))
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
