"""Markdown of one committed result file for the results pages (used by docs/make_results.py).

Everything a page shows from a result file is bound to it, so that scripts/check_numbers.py
passes on the generated pages by construction:

* a table is emitted right after `<!-- table: PATH[#Heading] -->` (a table too wide for the
  page is split into parts that repeat the columns naming a row, each part with its binding);
* a figure in a line of prose (a note the benchmark printed) gets
  `<!-- line: PATH | TEXT | @N -->` right after it;
* lines that are a log (indented lines, progress output) go into a fenced code block, where
  Markdown keeps their lines apart;
* `2^10` is shown as 2¹⁰ and `--option` as code, outside code (Doxygen would show the first
  literally and turn the second's `--` into a dash).
"""
import csv
import math
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
import check_numbers  # noqa: E402  (the checker's own idea of a figure and of a table)

GPU_LINE = re.compile(r"^\s*#*\s*GPU:\s*(?P<gpu>.+?),\s*date:\s*(?P<date>\d{4}-\d{2}-\d{2})\s*$")
# A header line that goes on after its date ("GPU: ..., driver ..., date: 2026-11-24 -- what
# ran"): it names the run's GPU and date too, and stays in the text that is shown.
GPU_LINE_LONG = re.compile(r"^\s*#*\s*GPU:\s*(?P<gpu>[^,(]+(?:\([^)]*\))?)[^\n]*?\bdate:\s*"
                           r"(?P<date>\d{4}-\d{2}-\d{2})\b")
# Progress lines a benchmark prints on stderr, which end up in a committed log mixed with
# the tables ("matrix_... K=256 done in 11.962 s").
PROGRESS_LINE = re.compile(r"(K|inner)=\d+ done in [\d.]+ s$")
MISSING = {"", "-", "–", "n/a", "na", "nan", "none"}
MAX_LOG_LINES = 40
SHAPE = "shape rows x inner x cols"
# CSVs written before the glossary (docs/glossary.md) call the shape column "shape IxJxK".
OLD_HEADERS = {"shape IxJxK": SHAPE}
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

# The book's text column is 974 px wide at the 1280 px window that
# scripts/check_rendering.py uses (docs/course.css: tables in 13 px type, headers at 110 %).
# A table cannot be narrower than the sum of its columns' narrowest widths; wider than the
# column, it would be cut at the right. The estimate is generous and the budget leaves a margin.
TABLE_BUDGET_PX = 930
BODY_CHAR_PX = 7.6
HEAD_CHAR_PX = 9.6
CELL_PADDING_PX = 16
# Columns that name a row: a table split into parts repeats them in every part.
KEY_COLUMNS = {"approach", "K", "inner", "matrix", "mask", "set", "kernel",
               "case, inner", SHAPE}


def number(cell):
    """The cell as a float, or None when it is not a measurement."""
    text = (cell or "").strip().rstrip("%").replace(",", "")
    if text.lower() in MISSING:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def slug(text):
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def outside_code(text, change):
    """@p change applied to the parts of @p text outside `code spans`."""
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(part if part.startswith("`") and part.endswith("`") and len(part) > 1
                   else change(part) for part in parts)


def readable(text):
    """2^10 -> 2¹⁰ and a bare --option -> `--option` (outside code)."""
    text = re.sub(r"(?<=\d)\^(\d+)", lambda m: m.group(1).translate(SUPERSCRIPT), text)
    return re.sub(r"(?<![\w`\\-])(--[a-zA-Z][\w-]*(?:=\S+)?)", r"`\1`", text)


def escape_cell(text):
    """Makes a table cell safe for Doxygen's Markdown."""
    text = (text or "").strip()
    if text.lower() in MISSING:
        return "-"

    def escape(part):
        part = part.replace("\\", "\\\\").replace("@", "\\@").replace("<", "&lt;")
        part = part.replace(">", "&gt;").replace("|", "\\|").replace("#", "\\#")
        return re.sub(r"%(?=\w)", r"\\%", readable(part))
    return outside_code(text, escape)


def escape_prose(text):
    """Escapes a line of prose (keeps `code` spans and Markdown emphasis)."""
    def escape(part):
        part = part.replace("\\", "\\\\").replace("@", "\\@").replace("<", "&lt;")
        part = part.replace(">", "&gt;")
        return re.sub(r"%(?=\w)", r"\\%", readable(part))
    return outside_code(text, escape)


def numeric_column(rows, index):
    """True when most measured cells of the column are numbers (right-aligned then)."""
    cells = [r[index] for r in rows if index < len(r) and r[index].strip().lower() not in MISSING]
    return bool(cells) and sum(number(c) is not None for c in cells) * 2 >= len(cells)


def min_column_px(header, align, cells):
    """Narrowest width a column can take: its longest run of text without a break
    opportunity (a whole cell where the column is right-aligned, course.css's nowrap)."""
    def words(cell):
        return re.split(r"\s+", cell or "")
    head = max((len(word) for word in words(header)), default=1) * HEAD_CHAR_PX
    right = align.strip().endswith(":") and not align.strip().startswith(":")
    body = max((len((cell or "").strip()) if right else
                max((len(word) for word in words(cell)), default=1) for cell in cells),
               default=1) * BODY_CHAR_PX
    return max(head, body) + CELL_PADDING_PX


def column_groups(headers, align, rows):
    """Splits the columns of a table too wide for the page into parts that fit: lists of
    column indices, each starting with the columns that name a row (the first column, and
    any of KEY_COLUMNS). One part, all columns, when the table fits."""
    widths = [min_column_px(h, align[i], [r[i] if i < len(r) else "" for r in rows])
              for i, h in enumerate(headers)]
    repeated = len({check_numbers.normalise(h) for h in headers}) < len(headers)
    # A header that repeats is told apart by its place among its namesakes: all stay together.
    if sum(widths) <= TABLE_BUDGET_PX or len(headers) <= 2 or repeated:
        return [list(range(len(headers)))]
    keys = [0] + [i for i, h in enumerate(headers) if i > 0 and
                  check_numbers.normalise(h) in KEY_COLUMNS]
    key_width = sum(widths[i] for i in keys)
    groups, current, width = [], [], key_width
    for i in range(len(headers)):
        if i in keys:
            continue
        if current and width + widths[i] > TABLE_BUDGET_PX:
            groups.append(keys + current)
            current, width = [], key_width
        current.append(i)
        width += widths[i]
    if current:
        groups.append(keys + current)
    return groups


def bound_table(binding, headers, align, rows):
    """Lines of one table, from cells already escaped, each part after its binding."""
    groups = column_groups(headers, align, rows)
    lines = []
    for index, group in enumerate(groups):
        if len(groups) > 1:
            lines += ["*Part %d of %d of the table (too wide for the page; each part repeats "
                      "the columns that name a row):*" % (index + 1, len(groups)), ""]
        lines += ["<!-- table: %s -->" % binding,
                  "| " + " | ".join(headers[i] for i in group) + " |",
                  "|" + "|".join(align[i] for i in group) + "|"]
        lines += ["| " + " | ".join(row[i] if i < len(row) else "" for i in group) + " |"
                  for row in rows]
        lines.append("")
    return lines


def find_header(lines):
    """(gpu, date) from the first benchmark header line among @p lines, or None."""
    for line in lines:
        match = GPU_LINE.match(line.strip().strip("`"))
        if match:
            return match.group("gpu").strip(), match.group("date")
    for line in lines:
        match = GPU_LINE_LONG.match(line.strip().strip("`"))
        if match:
            return match.group("gpu").strip(), match.group("date")
    return None


def read_csv(path):
    """(comment lines, headers, rows) of a CSV; lines starting with '#' are comments."""
    text = path.read_text(encoding="utf-8", errors="replace").splitlines()
    comments = [line for line in text if line.lstrip().startswith("#")]
    body = [line for line in text if line.strip() and not line.lstrip().startswith("#")]
    table = list(csv.reader(body))
    if not table:
        return comments, [], []
    headers = [OLD_HEADERS.get(h.strip(), h.strip()) for h in table[0]]
    rows = [[c.strip() for c in row] for row in table[1:] if any(c.strip() for c in row)]
    return comments, headers, rows


class ResultFile:
    """One committed result file and how it is shown: its tables bound to it, its prose with
    line bindings, its logs in code blocks."""

    def __init__(self, repo, path):
        self.repo, self.path = repo, path
        self.name = path.relative_to(repo).as_posix()
        self.lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        self.header = find_header(self.lines)
        self.tables = 0  # counted as they are emitted

    # -------------------------------------------------------------- prose and logs

    def line_key(self, raw):
        """A piece of @p raw that no other line of the file holds (for a line binding); never
        across a backtick, which would open a code span inside the binding on the page."""
        pieces = [p.strip() for p in re.split(r"\||-->|<!--|--|`", raw)]
        for piece in sorted(pieces, key=len, reverse=True):
            for length in (40, 60, 90, len(piece)):
                key = piece[:length].strip()
                if len(key) >= 6 and sum(key in line for line in self.lines) == 1:
                    return key
        return None

    def bound_prose(self, raw):
        """@p raw escaped, a line binding after each figure; None when the line cannot be
        bound (no piece of it is unique in the file): the caller shows it as code."""
        figures = check_numbers.figures_in(check_numbers.mask(raw))
        if not figures:
            return escape_prose(raw)
        key = self.line_key(raw)
        if key is None:
            return None
        out, position = [], 0
        for start, end, _ in figures:
            index = len(check_numbers.source_numbers(raw[:start])) + 1
            out.append(escape_prose(raw[position:end]))
            out.append("<!-- line: %s | %s | @%d -->" % (self.name, key, index))
            position = end
        out.append(escape_prose(raw[position:]))
        return "".join(out)

    def prose(self, lines):
        """Markdown of prose lines: paragraphs with bound figures; a paragraph holding
        indented lines (a log the program printed) as a fenced code block."""
        out, paragraph = [], []

        def flush():
            if not paragraph:
                return
            text = [line for line in paragraph]
            logish = any(re.match(r"^(\s{2,}|\t)", line) for line in text[1:]) or \
                re.match(r"^(\s{4,}|\t)", text[0])
            rendered = None if logish else [self.bound_prose(line.rstrip()) for line in text]
            if rendered is None or None in rendered:
                out.extend(["```"] + [line.rstrip() for line in text] + ["```", ""])
            else:
                out.extend([line.strip() for line in rendered] + [""])
            paragraph.clear()

        for line in lines:
            stripped = line.strip()
            if GPU_LINE.match(stripped.strip("`")) or stripped.startswith("CSV written to") \
                    or PROGRESS_LINE.search(stripped):
                continue
            if not stripped:
                flush()
            else:
                paragraph.append(line)
        flush()
        return out

    def log(self, level, anchor):
        """A log (test run, sanitizer, demo output): the start of it in a code block."""
        shown = [line.rstrip() for line in self.lines[:MAX_LOG_LINES]]
        where = "" if self.header is None else " (%s, %s)" % (
            escape_prose(self.header[0]), self.header[1])
        more = ("" if len(self.lines) <= MAX_LOG_LINES else
                "; the first %d of its %d lines" % (MAX_LOG_LINES, len(self.lines)))
        return ["%s What the program printed {#%s}" % ("#" * level, anchor), "",
                "Program output committed as `%s`%s%s:" % (self.name, where, more), "",
                "```"] + [line.replace("```", "'''") for line in shown] + ["```", ""]

    # -------------------------------------------------------------- tables

    def markdown_table(self, heading, table_lines, columns=None):
        """A table of the file, bound to it; @p columns (header texts) keeps only those
        columns and the first, which names the row."""
        rows = [check_numbers.split_row(line) for line in table_lines]
        if columns:
            wanted = {check_numbers.normalise(c) for c in columns}
            keep = [0] + [i for i, h in enumerate(rows[0])
                          if i > 0 and check_numbers.normalise(h) in wanted]
            rows = [[row[i] if i < len(row) else "" for i in keep] for row in rows]
        headers, align, body = rows[0], [c.strip() for c in rows[1]], rows[2:]
        if not body:
            return ["The program printed the table with no rows (columns: %s)." %
                    ", ".join(escape_cell(h.replace("\\|", "|")) for h in headers), ""]
        cells = [[escape_cell(c.replace("\\|", "|")) for c in row] for row in body]
        # Numbers right-aligned (course.css keeps them on one line), text left to wrap: a
        # program that right-aligns a long text column would push the table off the page.
        align = ["---:" if numeric_column(body, i) else ":---" for i in range(len(headers))]
        binding = self.name + ("#" + heading if heading else "")
        self.tables += len(column_groups(headers, align, cells))
        return bound_table(binding, [escape_cell(h) for h in headers], align, cells)

    def csv_table(self):
        _, headers, rows = read_csv(self.path)
        if not headers or not rows:
            return ["This CSV holds no data rows.", ""]
        align = ["---:" if numeric_column(rows, i) else ":---" for i in range(len(headers))]
        cells = [[escape_cell(c) for c in (row + [""] * len(headers))[:len(headers)]]
                 for row in rows]
        self.tables += len(column_groups(headers, align, cells))
        return bound_table(self.name, [escape_cell(h) for h in headers], align, cells)

    def has_tables(self):
        return any(line.lstrip().startswith("|") for line in self.lines)

    def sections(self):
        """[(heading or None, lines)] of a Markdown file, split at its headings."""
        parts = [(None, [])]
        for line in self.lines:
            title = re.match(r"^#{1,6}\s+(.*?)\s*$", line)
            if title and not line.startswith("#!"):
                parts.append((title.group(1), []))
            else:
                parts[-1][1].append(line)
        return parts

    def body(self, level, only=None, figures=(), columns=None):
        """Markdown of a Markdown result file: prose, tables and sub-headings at @p level + 1;
        @p only (a heading) keeps that section only; @p columns narrows its tables
        (markdown_table). @p figures: [(image, caption)] shown after the opening prose."""
        out = []
        for index, (heading, lines) in enumerate(self.sections()):
            if only is not None and check_numbers.normalise(heading or "") != \
                    check_numbers.normalise(only):
                continue
            if heading is not None and only is None:
                text = self.bound_prose(heading.replace("`", ""))
                out += ["%s %s" % ("#" * (level + 1), text if text is not None
                                   else escape_prose(heading.replace("`", ""))), ""]
            chunk, table, fence = [], [], None
            for line in lines + [""]:
                if fence is not None or check_numbers.FENCE.match(line):
                    # A code block of the file (a log it quotes): as it is.
                    if fence is None:
                        out += self.prose(chunk)
                        chunk, fence = [], check_numbers.FENCE.match(line).group(1)
                        out.append(line.strip())
                    else:
                        out.append(line.rstrip())
                        if line.strip().startswith(fence):
                            fence = None
                            out.append("")
                    continue
                if line.lstrip().startswith("|"):
                    if chunk:
                        out += self.prose(chunk)
                        chunk = []
                    table.append(line)
                    continue
                if table:
                    if len(table) >= 2 and check_numbers.TABLE_DELIMITER.match(table[1]):
                        out += self.markdown_table(heading, table, columns)
                    else:
                        out += self.prose(table)
                    table = []
                chunk.append(line)
            out += self.prose(chunk)
            if figures and (index == 0 or only is not None):
                out += figure_lines(figures)
                figures = ()
        return out


def figure_lines(figures):
    lines = []
    for image, caption in figures:
        lines += ["<!-- figure: docs/make_results.py -->", "",
                  "![%s](%s)" % (escape_prose(caption), image), ""]
    return lines


if __name__ == "__main__":
    # A module, not a program: --help says so and names the program that uses it.
    import sys

    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip() + "\n\nUsage: none of its own: a module imported by docs/make_results.py, "
              "which is the program to run (python3 docs/make_results.py --help).")
        sys.exit(0)
    print(f"{sys.argv[0]}: a module imported by docs/make_results.py, not a program: run that "
          "one (see --help)", file=sys.stderr)
    sys.exit(2)
