"""The bindings of scripts/check_numbers.py, each resolved to the number of a committed
source it names, with that number's unit and what it means:

    <!-- cell: PATH[#Heading] | ROW | COLUMN[@N] -->   one cell (its N-th number)
    <!-- line: PATH | TEXT [| @N or | WORDS] -->       one number of the one line holding TEXT:
                                                        the first at or after TEXT, the N-th of
                                                        the line, or the first after WORDS
    <!-- lines: PATH | TEXT -->                         how many lines hold TEXT
    <!-- max: PATH[#Heading] | ROWS | COLUMN[@N] -->    the largest of a column over the rows
    <!-- min: PATH[#Heading] | ROWS | COLUMN[@N] -->    the smallest
    <!-- count: PATH[#Heading] | ROWS | CONDITION -->   how many rows meet CONDITION ('*': all;
                                                        'COLUMN > COLUMN', 'COLUMN >= 1.5'...)

ROW and ROWS hold `;`-separated parts, each an exact cell value, `~REGEX` (a cell matches) or
`!~REGEX` (no cell does); ROWS may be `*` (every row).
"""
import decimal
import re

from number_meaning import header_words, stated_extremes, tokens, unit_problem
from result_sources import (
    HEADING, SourceError, column_cells, find_cell_at, nth, number_spans, rounds_to, source_text,
    split_path, unit_kind, canonical_unit)

FIGURE_UNIT = re.compile(r"^\s*[\d][\d ,]*(?:\.\d+)?\s*(\S+)?\s*$")
KINDS = ("cell", "line", "lines", "max", "min", "count")


def figure_unit(figure):
    """The unit a figure's text ends with ('1.094 ms' -> 'ms'), or None."""
    match = FIGURE_UNIT.match(figure)
    return canonical_unit(match.group(1)) if match and match.group(1) else None


def fields_of(args):
    """The fields of a binding: split at '|', or at '\\|' (in a table cell a bare '|' would
    end the cell, on GitHub and in the book alike)."""
    return [field.strip() for field in re.split(r"\\?\|", args)]


class Resolved:
    """A binding resolved: the source number a figure must equal, its unit and meaning."""

    def __init__(self, kind, value, unit, unit_kind_, where, column=None, words=(),
                 extremes=(), numbers=(), alternatives=None, path=None, row=None):
        self.kind, self.value, self.where = kind, value, where
        self.path, self.row = path, row   # the source file and the row a cell binding names
        self.unit, self.unit_kind = canonical_unit(unit), unit_kind_ or unit_kind(unit)
        self.column = column              # the header a cell binding names
        self.words = set(words)           # what the column holds, in words
        self.extremes = set(extremes)     # 'max', 'min', 'count': what the source states
        self.numbers = list(numbers)      # (value, unit) of every number of a line binding
        self._alternatives = alternatives or (lambda: [])
        self._alternatives_found = None

    def verify(self, figure):
        """None when @p figure quotes this number (rounding and unit); else why not."""
        why = rounds_to(figure, self.value) or unit_problem(figure_unit(figure), self.unit,
                                                           self.unit_kind)
        return why and "%s (%s)" % (why, self.where)

    def alternatives(self):
        """The same binding moved to each other column of its row (cell bindings)."""
        if self._alternatives_found is None:
            self._alternatives_found = self._alternatives()
        return self._alternatives_found


def label_before(text, start):
    """The words that name a number in a source cell or line: those between the previous
    number (or an opening bracket, ';' or ',') and the number starting at @p start."""
    before = text[:start]
    cut = max([m.end() for m in re.finditer(r"[\d)]\s|[(;,]", before)] + [0])
    return before[cut:]


def cell_resolved(source, path, heading, row, column, n, where):
    """The Resolved of the N-th number of the cell (@p row, @p column), read once."""
    key = (path, heading, row, column, n)
    memo = source.__dict__.setdefault("resolved_cells", {})
    if key not in memo:
        memo[key] = read_cell(source, path, heading, row, column, n, where)
    return memo[key]


def read_cell(source, path, heading, row, column, n, where):
    table, cells, index = find_cell_at(source, heading, row, column)
    spans = number_spans(cells[index])
    value, unit, start, _ = spans[n - 1] if n <= len(spans) else (None, None, 0, 0)
    if value is None:
        nth([span[0] for span in spans], n, "the cell '%s'" % cells[index])
    header_unit, header_kind = table.unit(index)
    label = label_before(source_text(cells[index]), start)
    words = header_words(table.headers[index]) | {
        w for w in tokens(label) if not w.isdigit()}

    def alternatives():
        found = []
        for other, header in enumerate(table.headers):
            if other == index or other >= len(cells) or other == 0:
                continue
            if len(number_spans(cells[other])) >= n:
                try:
                    found.append(cell_resolved(source, path, heading, row, header, n,
                                               where.replace(column, header)))
                except SourceError:
                    continue  # a repeated header: not a column the binding could name
        return found
    return Resolved("cell", value, unit or header_unit,
                    unit_kind(unit) if unit else header_kind, where, column=column,
                    words=words, extremes=stated_extremes(table.headers[index] + " " + label),
                    alternatives=alternatives, path=path, row=row)


def resolve_cell(sources, args):
    fields = fields_of(args)
    if len(fields) != 3:
        raise SourceError("a cell binding is 'PATH | ROW | COLUMN[@N]'")
    path, heading = split_path(fields[0])
    column, n = fields[2], 1
    match = re.match(r"^(.*?)@(\d+)$", column)
    if match:
        column, n = match.group(1).strip(), int(match.group(2))
    where = "%s, row '%s', column '%s'" % (path, fields[1], fields[2])
    return cell_resolved(sources.get(path), path, heading, fields[1], column, n, where)


def stated_unit(source, index):
    """The unit of times the file states for its line @p index: in the nearest heading above
    it ("## The elimination (ms; ...)") or for the whole file ("Times in ms")."""
    for line in reversed(source.lines[:index]):
        if HEADING.match(line):
            if re.search(r"(^|[\s(])ms\b|\bin ms\b", line):
                return "ms"
            break
    return source.default_unit


def resolve_line(sources, args):
    fields = fields_of(args)
    if len(fields) not in (2, 3) or not fields[1]:
        raise SourceError("a line binding is 'PATH | TEXT', 'PATH | TEXT | @N' or "
                          "'PATH | TEXT | WORDS'")
    source = sources.get(fields[0])
    lines = [line for line in source.lines if fields[1] in line]
    if len(lines) != 1:
        raise SourceError("%d lines of %s contain '%s' (it must be one)" % (
            len(lines), fields[0], fields[1]))
    line = lines[0]
    text = source_text(line)
    spans = number_spans(line)
    where = "%s, the line '%s'" % (fields[0], line.strip()[:100])

    def after(words, end):
        found = text.find(source_text(words))
        if found < 0:
            raise SourceError("'%s' is not on the line '%s'" % (words, line.strip()[:80]))
        at = found + (len(source_text(words)) if end else 0)
        chosen = [span for span in spans if span[2] >= at]
        if not chosen:
            raise SourceError("no number %s '%s' on the line '%s' (name it with @N)" % (
                "after" if end else "at or after", words, line.strip()[:80]))
        return chosen[0]
    if len(fields) == 3 and fields[2].startswith("@"):
        match = re.match(r"^@(\d+)$", fields[2])
        if not match:
            raise SourceError("the third field of a line binding is @N or words")
        number = int(match.group(1))
        nth([span[0] for span in spans], number, "the line '%s'" % line.strip())
        span = spans[number - 1]
    elif len(fields) == 3:
        span = after(fields[2], True)
    else:
        span = after(fields[1], False)
    value, unit, start, _ = span
    if unit is None:
        unit = stated_unit(source, source.lines.index(line))
    resolved = Resolved("line", value, unit, None, where,
                        extremes=stated_extremes(text[max(0, start - 30):start]),
                        numbers=[(s[0], s[1]) for s in spans])
    # A page that copies the source's sentence (a results page) copies its claims too.
    resolved.text = "\n".join(source.lines)
    return resolved


def resolve_lines(sources, args):
    fields = fields_of(args)
    if len(fields) != 2 or not fields[1]:
        raise SourceError("a lines binding is 'PATH | TEXT' (how many lines hold TEXT)")
    source = sources.get(fields[0])
    count = sum(fields[1] in line for line in source.lines)
    return Resolved("lines", str(count), None, "count",
                    "%s, the lines holding '%s'" % (fields[0], fields[1]), extremes={"count"})


def numeric(text):
    try:
        return decimal.Decimal(text)
    except decimal.InvalidOperation:
        return None


def resolve_extreme(sources, args, kind):
    fields = fields_of(args)
    if len(fields) != 3:
        raise SourceError("a %s binding is 'PATH | ROWS | COLUMN[@N]'" % kind)
    path, heading = split_path(fields[0])
    column, n = fields[2], 1
    match = re.match(r"^(.*?)@(\d+)$", column)
    if match:
        column, n = match.group(1).strip(), int(match.group(2))
    found = []
    for table, row, index in column_cells(sources.get(path), heading, fields[1], column):
        spans = number_spans(row[index])
        if len(spans) >= n and numeric(spans[n - 1][0]) is not None:
            found.append((numeric(spans[n - 1][0]), spans[n - 1], table, index))
    if not found:
        raise SourceError("no number in the column '%s' of the rows '%s' of %s" % (
            column, fields[1], path))
    value, span, table, index = (max if kind == "max" else min)(found, key=lambda f: f[0])
    header_unit, header_kind = table.unit(index)
    return Resolved(kind, span[0], span[1] or header_unit,
                    unit_kind(span[1]) if span[1] else header_kind,
                    "the %s of column '%s' over %d rows '%s' of %s" % (
                        "largest" if kind == "max" else "smallest", column, len(found),
                        fields[1], path),
                    column=column, words=header_words(table.headers[index]), extremes={kind},
                    path=path, row=fields[1])


CONDITION = re.compile(r"^(.+?)\s*(>=|<=|!=|==|>|<)\s*(.+)$")


def resolve_count(sources, args):
    fields = fields_of(args)
    if len(fields) != 3:
        raise SourceError("a count binding is 'PATH | ROWS | CONDITION' ('*' for every row)")
    path, heading = split_path(fields[0])
    source = sources.get(path)
    condition = fields[2]
    if condition == "*":
        tables = source.tables_under(heading)
        cells = column_cells(source, heading, fields[1], tables[0].headers[0]) if tables \
            else []
        count = len(cells)
    else:
        match = CONDITION.match(condition)
        if not match:
            raise SourceError("a count's condition is '*' or 'COLUMN > COLUMN' (or >=, <, "
                              "<=, ==, != and a number)")
        left, operator, right = match.group(1).strip(), match.group(2), match.group(3).strip()
        count = 0
        for table, row, index in column_cells(source, heading, fields[1], left):
            def value_of(side, index=index, table=table, row=row):
                if numeric(side) is not None:
                    return numeric(side)
                where = table.column(side)
                if where is None or where >= len(row):
                    raise SourceError("no column '%s' in the table of %s" % (side, path))
                spans = number_spans(row[where])
                return numeric(spans[0][0]) if spans else None
            a, b = value_of(left), value_of(right)
            if a is None or b is None:
                continue
            count += {">": a > b, "<": a < b, ">=": a >= b, "<=": a <= b, "==": a == b,
                      "!=": a != b}[operator]
    return Resolved("count", str(count), None, "count",
                    "the rows '%s' of %s where %s" % (fields[1], path, condition),
                    extremes={"count"})


def resolve(kind, sources, args):
    """The Resolved of a binding of @p kind (one of KINDS); raises SourceError."""
    if kind == "cell":
        return resolve_cell(sources, args)
    if kind == "line":
        return resolve_line(sources, args)
    if kind == "lines":
        return resolve_lines(sources, args)
    if kind in ("max", "min"):
        return resolve_extreme(sources, args, kind)
    return resolve_count(sources, args)


if __name__ == "__main__":
    from repository_arguments import module_only

    module_only(__doc__, "scripts/check_numbers.py")
