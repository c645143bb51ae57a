#!/usr/bin/env python3
"""Checks that every measured figure the lessons, READMEs and book pages quote is bound to the
committed cell (or log line) it comes from, and that it equals that cell with its rounding,
its unit and its meaning.

    python3 scripts/check_numbers.py [--strict] [--self-test] [--quoted] [--notes DIR] [FILE.md ...]

Without files it checks README.md, every README.md one folder down (the lessons, the grading
guide), the READMEs of the step folders' sub-folders (going_further/, lab/, exercise/, ...),
the labs' notebooks (step*/lab/NOTEBOOK.md: they quote measured figures too) and docs/*.md.
Given files, it checks those only (and reports each of them). Paths are taken relative to the
repository; run it from anywhere.

The convention (docs/results.md, "How a quoted number is bound to its source"):

* A *measured figure* is a number with a decimal point (0.841, 2.75, 21.48), or a whole
  number with a unit of time, rate or ratio (100 s, 448 ms, 95 %, 5×). Sizes and counts
  (4096×4096, K = 256, 132 SMs), numbers inside code (code spans, code blocks, @verbatim
  blocks) and version numbers (CUDA 12.4, compute capability 9.0) are not figures.
* Each figure is bound by an HTML comment right after it (invisible on GitHub and in the
  book); only spaces and emphasis marks (`*`, `_`, `)`) may stand between the two. The kinds
  (number_bindings.py says each in full):
  - `<!-- cell: PATH | ROW | COLUMN -->`: PATH is a committed result file (from the
    repository root; `.md` with Markdown tables, or `.csv`), optionally ending in
    `#Heading text` to take the tables under that heading; ROW selects the row whose cells
    hold every `;`-separated part as an exact cell value (or `~REGEX`, `!~REGEX`); COLUMN is
    the exact header text. `COLUMN@N` takes the N-th number of the cell (default 1).
  - `<!-- line: PATH | TEXT -->`: the first number at or after TEXT on the one line of PATH
    that holds TEXT; `| @N` takes the line's N-th number, `| WORDS` the first after WORDS.
  - `<!-- max: PATH | ROWS | COLUMN -->`, `<!-- min: ... -->`: the extreme of a column over
    the rows ROWS selects (`*`: all); `<!-- count: PATH | ROWS | CONDITION -->` how many of
    them meet CONDITION (`*`, `other > sddmm`, `vs cuSPARSE > 1`); `<!-- lines: PATH | TEXT
    -->` how many lines hold TEXT.
  - `<!-- table: PATH[#Heading] -->` on the line before a table: every figure in the table
    equals the source cell with the same row (the first column, and the other columns that
    hold no figure where the first is not enough) and the same column header; the quoted
    table may show any subset of the source's columns, in any order, and a header or row
    name may add a remark in brackets.
  - Inside a table cell, write the fields' separators as `\\|` (a bare `|` ends the cell).
  - `<!-- quoted: note 002 -->` marks the next block (a paragraph, a table, a list) or the
    block it sits in as quoted from outside work: its figures are not the course's. A table
    quoted from design note NNN must also be bound, `<!-- table:
    docs/note_tables/note_NNN.md#... -->`, to the transcription of the note's figures
    (`--notes DIR` checks the transcriptions against the notes' text where it is at hand).
* The figure must equal the source's number rounded to the figure's own number of decimals
  (0.84 and 0.841 are bound by 0.8412; 0.85 is not; 0.84120 claims more digits than the
  source and fails), in the source's unit (a figure in s or µs does not quote a cell in ms;
  number_meaning.py reads the unit from the cell, its header or the file's "Times in ms").
* A `cell:` binding's column must be what the sentence speaks of: a word of its header (or
  one that means the same: "kernel" for `sddmm`, "fastest" for `min`) stands in the sentence,
  and where another column of the row holds the same value, the words nearest the figure
  name the bound column rather than the other.
* A superlative or a range ("the largest", "closest", "up to", "from A to B", "A–B", "all")
  claims an extreme (or a count): the figure is bound with `max:`, `min:` or `count:`, or to a
  source that states the extreme itself ("smallest 0.90" in the cell), or the sentence is
  reworded.

Report mode (the default) prints each file's counts and its problems and exits 0;
--strict exits 1 when a figure is unbound, a binding is broken or a value differs.
--self-test changes every bound figure in memory in each way a quoted figure goes wrong
(number_self_test.py: last and middle digits, units, two figures swapped, a cell binding moved
to each other column, a line figure replaced by each other number of its line, the notes'
quoted tables) and runs the same comparison: every change must be caught (exit 1
otherwise). CI runs both.
"""
import argparse
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from figure_text import COMMENT, FENCE, FIGURE, figures_in, mask  # noqa: E402,F401
from number_bindings import KINDS, Resolved, fields_of, figure_unit, resolve  # noqa: E402,F401
from number_meaning import (  # noqa: E402
    clause, column_problem, sentences, superlative_problems)
from number_tables import table_cell_context, table_checks  # noqa: E402
from note_tables import check_transcriptions  # noqa: E402
from number_self_test import KINDS as SELF_TEST_KINDS, perturbed, self_test  # noqa: E402,F401
from result_sources import (  # noqa: E402,F401  (also what docs/results_render.py uses)
    SOURCE_NUMBER, TABLE_DELIMITER, HEADING, Sources, SourceError, find_cell, normalise,
    nth, number_spans, rounds_to, same_key, source_numbers, split_path, split_row)

REPO = pathlib.Path(__file__).resolve().parents[1]
BINDING = re.compile(r"^\s*(cell|line|lines|max|min|count|table|quoted|source)\s*:(.*)$", re.S)
LIST_ITEM = re.compile(r"\s{0,3}([-*+]|\d+\.)\s")
# Characters that may stand between a figure and its binding: spaces and emphasis.
GLUE = re.compile(r"^[\s*_)\]]*$")
# Where the figures quoted from each design note are transcribed (the notes are not in the
# repository): a quoted table of note NNN is bound to NOTE_TABLES/note_NNN.md.
NOTE_TABLES = "docs/note_tables"


# ----------------------------------------------------------------------------- bindings

class Bound:
    """A figure and the binding that checks it: verify(figure text) -> None or why it fails.
    @p resolved (a number_bindings.Resolved) says what the source number is and means;
    @p context and @p position (the figure's place in it) are the words around the figure;
    @p block numbers the page's blocks (the self-test swaps figures within one)."""

    def __init__(self, line, figure, binding, resolved, context="", position=0, block=0):
        self.line, self.figure, self.binding = line, figure, binding
        self.resolved, self.context, self.position, self.block = (resolved, context, position,
                                                                  block)

    def verify(self, figure):
        return self.resolved.verify(figure)

    def meaning(self, resolved=None, figure=None):
        """Why the words around the figure do not fit the column of @p resolved (default:
        its own binding), or None. Only cell bindings name a column by its header."""
        resolved = resolved or self.resolved
        figure = figure or self.figure
        if resolved.kind != "cell":
            return None
        rivals = [(alt.column, alt.words) for alt in resolved.alternatives()
                  if rounds_to(figure, alt.value) is None]
        return column_problem(resolved.column, resolved.words, rivals, self.context,
                              self.position)


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
    caption = ""  # the words of the paragraph before a table: they say what its cells are
    for block_number, (start, end, kind) in enumerate(blocks_of(lines)):
        if kind == "code":
            continue
        if kind == "heading":
            pending = active = None
            caption = ""
        block = "\n".join(lines[start:end])
        masked_block = "\n".join(masked_lines[start:end])
        is_item = kind == "item" or bool(LIST_ITEM.match(lines[start]))
        # The block's words as a reader sees them: comments blanked, lengths kept.
        words = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), block)
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
                COMMENT.fullmatch(line.strip()) for line in lines[start:end]):
            table_pending = table_binding[0]  # a comment alone, a blank line, the table
            continue
        if kind == "table" and not table_binding and table_pending:
            table_binding = [table_pending]
        elif table_pending:
            result.problems.append((start, "(table)", "<!-- table: %s -->" % table_pending[2],
                                    "a table binding must come right before a table"))
        table_pending = None
        table_figures = set()
        note = re.match(r"note (\d+)\b", active or "")
        if kind == "table" and note and figures:
            # A table quoted from a design note is bound to the note's transcription.
            wanted = "%s/note_%s.md" % (NOTE_TABLES, note.group(1))
            if not table_binding or split_path(table_binding[0][2])[0] != wanted:
                result.problems.append((start + 1, "(table)", "<!-- quoted: %s -->" % active,
                                        "a table quoted from note %s must be bound to its "
                                        "transcription: <!-- table: %s#... --> right before "
                                        "it" % (note.group(1), wanted)))
        if kind == "table" and table_binding:
            first = next(i for i in range(start, end) if lines[i].lstrip().startswith("|"))
            _, _, args = table_binding[0]
            try:
                bound, problems = table_checks(sources, args, lines[first:end], first + 1,
                                               masked_lines[first:end], Bound, block_number)
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
        # Each cell/line/... binding binds the figure (or count) right before it.
        taken = set()
        numbers = figures_in(masked_block, whole=True)
        ordered = []  # [Bound, lead-in, clause key, text after its binding, binding's end]
        for c_start, c_end, kind_, args in comments:
            if kind_ not in KINDS:
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
                resolved = resolve(kind_, sources, args)
            except SourceError as error:
                result.problems.append((line_at(target[0]), target[2], binding, str(error)))
                continue
            clause_start, _ = clause(words, target[0])
            if kind == "table":
                context, position, _ = table_cell_context(words, target[0], caption)
            else:
                context_start, context_end = sentences(words, target[0])
                # A list item is read after the paragraph that introduces the list.
                prefix = caption + "\n" if is_item else ""
                context = prefix + words[context_start:context_end]
                position = len(prefix) + target[0] - context_start
            clause_key = clause_start
            previous_end = ordered[-1][4] if ordered else 0
            lead_in = words[max(previous_end, clause_start):target[0]]
            bound = Bound(line_at(target[0]), target[2], binding, resolved, context, position,
                          block_number)
            result.bound.append(bound)
            if ordered:
                ordered[-1][3] = words[ordered[-1][4]:target[0]]
            ordered.append([bound, lead_in, clause_key, "", c_end])
        result.problems += superlative_problems([tuple(entry[:4]) for entry in ordered])
        if kind == "text" and not is_item:
            caption = words
        for figure in figures:
            if figure in taken or figure in table_figures:
                continue
            if active:
                result.quoted.append((line_at(figure[0]), figure[2], active))
            else:
                result.unbound.append((line_at(figure[0]), figure[2]))
    for bound in result.bound:
        why = bound.verify(bound.figure) or bound.meaning()
        if why:
            result.problems.append((bound.line, bound.figure, bound.binding, why))
    result.problems.sort(key=lambda p: p[0])
    return result


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
                        help="perturb every bound figure (digits, units, swaps, columns, "
                             "lines); exit 1 unless all are caught")
    parser.add_argument("--quoted", action="store_true", help="also list the quoted figures")
    parser.add_argument("--notes", type=pathlib.Path, metavar="DIR",
                        help="also check docs/note_tables/ against the notes' text in DIR "
                             "(NNN_*.txt; the notes are not in the repository)")
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
    if args.notes:
        checked, problems = check_transcriptions(repo, args.notes)
        for problem in problems:
            print("  notes: %s" % problem, file=out)
        print("notes: %d transcribed row(s) checked against %s, %d problem(s)" % (
            checked, args.notes, len(problems)), file=out)
        status = 1 if problems else status
    if args.self_test:
        summary = self_test(results)
        for kind in SELF_TEST_KINDS:
            for path, bound, text in summary[kind][2]:
                print("  self-test (%s): %s:%d: %s -> %s not caught by %s" % (
                    kind, relative(path, repo), bound.line, bound.figure, text,
                    bound.binding), file=out)
        for kind in SELF_TEST_KINDS:
            caught, total, _ = summary[kind]
            print("self-test: %-12s %6d of %6d caught" % (kind, caught, total), file=out)
        caught = sum(summary[kind][0] for kind in SELF_TEST_KINDS)
        total = sum(summary[kind][1] for kind in SELF_TEST_KINDS)
        print("self-test: %d of %d perturbed figures caught (%.1f %%)" % (
            caught, total, 100.0 * caught / total if total else 100.0), file=out)
        if caught != total:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
