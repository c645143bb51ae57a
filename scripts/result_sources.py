"""The result files that scripts/check_numbers.py binds figures to: their tables (Markdown or
CSV) and lines, read once, and how a quoted figure compares with a source's number (rounded
half up to the figure's own decimals).
"""
import csv
import decimal
import re
import subprocess

# A number in a source cell or line: not part of a name (window_4096_w64, 1x4096x4096).
SOURCE_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
                           r"(?=(?:ms|us|µs|ns|s|x|GB|TB|GiB|MiB|KiB|B|%|×)?(?!\w))")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


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


def source_text(text):
    """A source cell or line as its numbers are read: normalised, grouping commas removed."""
    return re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", normalise(text))


def source_numbers(text):
    """The numbers of a source cell or line, in order (grouping commas removed)."""
    return SOURCE_NUMBER.findall(source_text(text))


# The unit written right after a number in a source ("0.50 ms", "2981.0 GB/s", "5.81 us").
UNIT_AFTER = re.compile(r"\s?(ms|us|µs|ns|s|sec|min|GB/s|TB/s|GiB/s|MB/s|MiB|GiB|TiB|KiB|"
                        r"GB|MB|TB|KB|B|TFLOP/s|GFLOP/s|%|×|x)(?![\w/])")
UNIT_NAMES = {"us": "µs", "sec": "s", "seconds": "s", "second": "s", "x": "×",
              "milliseconds": "ms", "microseconds": "µs"}
TIME_UNITS = {"ns", "µs", "ms", "s", "min"}
SIZE_UNITS = {"B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB"}
RATE_UNITS = {"GB/s", "TB/s", "GiB/s", "MB/s", "TFLOP/s", "GFLOP/s"}


def canonical_unit(unit):
    """A unit as compared: 'us' is 'µs', 'x' is '×', 'seconds' is 's'."""
    if unit is None:
        return None
    unit = unit.strip()
    return UNIT_NAMES.get(unit, UNIT_NAMES.get(unit.lower(), unit)) or None


def unit_kind(unit):
    """'time', 'size', 'rate', 'percent', 'ratio' or None."""
    unit = canonical_unit(unit)
    if unit in TIME_UNITS:
        return "time"
    if unit in SIZE_UNITS:
        return "size"
    if unit in RATE_UNITS:
        return "rate"
    return {"%": "percent", "×": "ratio"}.get(unit)


# A unit written once for a list of numbers ("0.108, 0.107 and 0.108 ms", "0.137–1.641 ms"),
# or before its number in a profiler's columns ("DRAM Throughput   %   10.54").
LIST_GLUE = re.compile(r"^\s*(?:,|and|to|-|–|/)\s*(?:and\s+)?$")
UNIT_BEFORE = re.compile(r"(?:^|\s)(ms|us|µs|ns|%|GB/s|TB/s|MiB|GiB)\s+$")


def number_spans(text):
    """(number, unit or None, start, end) of each number of a source cell or line, positions
    in source_text(@p text)."""
    text = source_text(text)
    spans = []
    for match in SOURCE_NUMBER.finditer(text):
        unit = UNIT_AFTER.match(text, match.end())
        spans.append([match.group(0), canonical_unit(unit.group(1)) if unit else None,
                      match.start(), match.end()])
    for index in range(len(spans) - 2, -1, -1):
        following = spans[index + 1]
        if spans[index][1] is None and following[1] is not None and LIST_GLUE.match(
                text[spans[index][3]:following[2]]):
            spans[index][1] = following[1]
    for index, span in enumerate(spans):
        if span[1] is None:
            start = spans[index - 1][3] if index else 0
            before = UNIT_BEFORE.search(text[start:span[2]])
            if before:
                span[1] = canonical_unit(before.group(1))
    return [tuple(span) for span in spans]


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


class SourceError(Exception):
    pass


class Table:
    def __init__(self, headers, rows, heading, line):
        self.headers = headers            # raw header texts
        self.keys = [normalise(h) for h in headers]
        self.rows = rows                  # lists of raw cell texts
        self.heading = heading            # normalised text of the heading above it, or None
        self.line = line
        self.default_unit = None          # the file's unit of times ("Times in ms"), if stated

    def unit(self, index):
        """(unit or None, kind or None) of the numbers of column @p index, from its header
        (header_unit) or, for a time column whose header names no unit, from the file's
        stated default ("Times in ms")."""
        unit, kind = header_unit(self.headers[index])
        default = self.default_unit or (
            "ms" if re.search(r"(^|[\s(])ms\b|\bin ms\b", self.heading or "") else None)
        if unit is None and kind is None and default:
            unit, kind = default, unit_kind(default)
        return unit, kind

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
        default = DEFAULT_TIME_UNIT.search(text)
        self.default_unit = "ms" if default else None
        if path.suffix == ".csv":
            body = [line for line in self.lines if line.strip() and
                    not line.lstrip().startswith("#")]
            table = list(csv.reader(body))
            if table:
                self.tables.append(Table(table[0], [r for r in table[1:] if any(r)], None, 1))
                self.tables[-1].default_unit = self.default_unit
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
                self.tables[-1].default_unit = self.default_unit
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


def row_parts_of(row_parts, allow_all=False):
    """The parts of a binding's ROW field: exact cell values, '~REGEX' (some cell matches) or
    '!~REGEX' (no cell does); '*' (with @p allow_all) selects every row."""
    if allow_all and row_parts.strip() == "*":
        return []
    parts = []
    for part in row_parts.split(";"):
        part = part.strip()
        if not part:
            continue
        if part.startswith(("~", "!~")):
            negate = part.startswith("!")
            try:
                parts.append((negate, re.compile(part[2:] if negate else part[1:])))
            except re.error as error:
                raise SourceError("the row pattern '%s' is not a regular expression (%s)" % (
                    part, error))
        else:
            parts.append(normalise(part))
    if not parts and not allow_all:
        raise SourceError("the binding names no row")
    return parts


def row_matches(row, parts):
    cells = {normalise(cell) for cell in row}
    for part in parts:
        if isinstance(part, tuple):
            negate, pattern = part
            if any(pattern.search(cell) for cell in cells) == negate:
                return False
        elif part not in cells:
            return False
    return True


def find_cell_at(source, heading, row_parts, column):
    """(table, row, column index) of the single cell that @p row_parts and @p column select."""
    parts = row_parts_of(row_parts)
    found = []
    for table in source.tables_under(heading):
        index = table.column(column)
        if index is None:
            continue
        for row in table.rows:
            if row_matches(row, parts) and index < len(row):
                found.append((table, row, index))
    if not found:
        raise SourceError("no row '%s' with a column '%s' in %s%s" % (
            row_parts.strip(), column.strip(), source.path.name,
            " under '%s'" % heading if heading else ""))
    if len(found) > 1:
        raise SourceError("%d rows match '%s' in %s: add key parts (ROW a; b) or #Heading" % (
            len(found), row_parts.strip(), source.path.name))
    return found[0]


def find_cell(source, heading, row_parts, column):
    """The raw text of the single cell that @p row_parts and @p column select."""
    table, row, index = find_cell_at(source, heading, row_parts, column)
    return row[index]


def column_cells(source, heading, row_parts, column):
    """[(table, row, column index)] of every row that @p row_parts selects ('*': all) in the
    tables that have @p column."""
    parts = row_parts_of(row_parts, allow_all=True)
    found = []
    for table in source.tables_under(heading):
        index = table.column(column)
        if index is None:
            continue
        found += [(table, row, index) for row in table.rows
                  if row_matches(row, parts) and index < len(row)]
    if not found:
        raise SourceError("no row '%s' with a column '%s' in %s%s" % (
            row_parts.strip(), column.strip(), source.path.name,
            " under '%s'" % heading if heading else ""))
    return found


# A source's stated unit of its time columns.
DEFAULT_TIME_UNIT = re.compile(r"\b[Tt]imes? (?:are )?in ms\b|\bin milliseconds\b")
HEADER_UNITS = [("ms", re.compile(r"(^|[\s(])ms(\)|\s|$)")),
                ("µs", re.compile(r"(^|[\s(])(us|µs)(\)|\s|$)")),
                ("ns", re.compile(r"(^|[\s(])ns(\)|\s|$)")),
                ("s", re.compile(r"(^|[\s(])(s|seconds?)(\)|\s|,|$)")),
                ("MiB", re.compile(r"(^|[\s(])MiB(\)|\s|$)")),
                ("GiB", re.compile(r"(^|[\s(])GiB(\)|\s|$)")),
                ("GB/s", re.compile(r"(^|[\s(])GB/s(\)|\s|$)")),
                ("TFLOP/s", re.compile(r"(^|[\s(])TFLOP/s(\)|\s|$)")),
                ("GFLOP/s", re.compile(r"(^|[\s(])GFLOP/s(\)|\s|$)")),
                ("%", re.compile(r"%"))]
RATIO_HEADER = re.compile(r"(^|[\s(])(vs|x|speedup|fraction|ratio|geomean|geometric|"
                          r"efficiency|share)(\)|\s|,|$)|\S\s*/\s*\S", re.I)
COUNT_HEADER = re.compile(r"^(rows|cols|nnz|k|m|n|inner|runs|shapes|cases|count|size|"
                          r"lanes|active lanes|expected|panels|tiles)$", re.I)


def header_unit(header):
    """(unit or None, kind or None) that a column header states: a unit written in it
    ('cuBLAS ms', '2^10 (ms)', 'extra MiB', '% of cuBLAS'), a ratio ('vs cuSPARSE', 'x LIMIT',
    'fraction', 'speedup', 'a/b'), a count ('rows', 'nnz'), or nothing."""
    text = normalise(header)
    for unit, pattern in HEADER_UNITS:
        if pattern.search(text):
            return unit, unit_kind(unit)
    if RATIO_HEADER.search(text):
        return None, "ratio"
    if COUNT_HEADER.match(text):
        return None, "count"
    return None, None


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


if __name__ == "__main__":
    # A module, not a program: --help says so and names the program that uses it.
    import sys

    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip() + "\n\nUsage: none of its own: a module imported by scripts/check_numbers.py, "
              "which is the program to run (python3 scripts/check_numbers.py --help).")
        sys.exit(0)
    print(f"{sys.argv[0]}: a module imported by scripts/check_numbers.py, not a program: run that "
          "one (see --help)", file=sys.stderr)
    sys.exit(2)
