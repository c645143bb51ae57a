"""The tables of a page for scripts/check_numbers.py: a quoted table bound to a result table
(`<!-- table: PATH[#Heading] -->`), and what a figure in a table cell means (the paragraph
before the table, the cell's column header and the cell itself).
"""
import re

from figure_text import figures_in
from number_bindings import Resolved
from number_meaning import sentences
from result_sources import (SourceError, normalise, number_spans, same_key, source_numbers,
                            split_path, split_row)


def without_remark(text):
    """@p text without a last remark in brackets: "approach 1 (one looping block)" ->
    "approach 1"."""
    return normalise(re.sub(r"\s*\([^()]*\)\s*$", "", normalise(text)))


def table_checks(sources, args, table_lines, first_line, masked_lines, make_bound, block=0):
    """Bound figures of a quoted table (list of make_bound(line, figure, binding, resolved,
    block)) and the binding's problems."""
    path, heading = split_path(args)
    source = sources.get(path)
    candidates = source.tables_under(heading)
    headers = split_row(table_lines[0])
    # A quoted header or row name may add a remark in brackets ("method (note 001's
    # machine)", "approach 1 (one looping block)") to the source's.
    if candidates and not all(any(t.column(h) is not None for t in candidates)
                              for h in headers):
        headers = [h if any(t.column(h) is not None for t in candidates) else
                   without_remark(h) for h in headers]
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
    binding = "<!-- table: %s -->" % args.strip()
    for offset, (raw, masked) in enumerate(body):
        line = first_line + 2 + offset
        cells, masked_cells = split_row(raw), split_row(masked)
        figure_cells = [bool(figures_in(c)) for c in masked_cells]
        keys = [(h, n, c) for h, n, c, f in zip(headers, occurrence, cells, figure_cells)
                if not f]
        matches = []
        for table in fitting:
            for row in table.rows:
                if normalise(row[0]) != normalise(cells[0]) and (
                        normalise(row[0]) != without_remark(cells[0]) or
                        any(normalise(r[0]) == normalise(cells[0]) for r in table.rows)):
                    continue
                if all(table.column(h, n) < len(row) and (
                        same_key(row[table.column(h, n)], c) or (
                            table.column(h, n) == 0 and
                            normalise(row[0]) == without_remark(c)))
                       for h, n, c in keys):
                    matches.append((table, row))
        if len(matches) != 1:
            problems.append((line, cells[0], binding,
                             "%s row '%s' in %s" % ("no" if not matches else "more than one",
                                                    normalise(cells[0]), path)))
            continue
        table, row = matches[0]
        for header, n, cell, masked_cell in zip(headers, occurrence, cells, masked_cells):
            figures = figures_in(masked_cell)
            if not figures:
                continue
            column = table.column(header, n)
            source_cell = row[column] if column < len(row) else ""
            spans = number_spans(source_cell)
            header_unit, header_kind = table.unit(column)
            where = "%s, row '%s', column '%s'" % (path, normalise(cells[0]), header)
            for start, _, figure in figures:
                index = len(source_numbers(masked_cell[:start]))
                if index >= len(spans):
                    resolved = Resolved("table", None, None, None, where)
                    resolved.verify = (lambda text, cell=source_cell, index=index, where=where:
                                       "the source cell '%s' holds no number %d (%s)" % (
                                           cell, index + 1, where))
                else:
                    value, unit = spans[index][0], spans[index][1]
                    resolved = Resolved("table", value, unit or header_unit,
                                        None if unit else header_kind, where)
                bound.append(make_bound(line, figure, binding, resolved, block))
    return bound, problems


def table_cell_context(block_text, position, caption=""):
    """For a figure at @p position of a table block (its text @p block_text): (context,
    position in it, where the cell starts in it): the figure's sentence within its cell,
    after the paragraph that introduces the table (@p caption) and the cell's column header
    (not the row's name: it names the row, not what the column holds)."""
    offsets, total = [], 0
    rows = block_text.split("\n")
    for line in rows:
        offsets.append(total)
        total += len(line) + 1
    row = max(i for i, o in enumerate(offsets) if o <= position)
    row_text = rows[row]
    column_at = position - offsets[row]
    bars = [m.start() for m in re.finditer(r"(?<!\\)\|", row_text)]
    column = sum(1 for b in bars if b < column_at) - (
        1 if row_text.lstrip().startswith("|") else 0)
    left = max([b for b in bars if b < column_at] + [-1]) + 1
    right = min([b for b in bars if b >= column_at] + [len(row_text)])
    cell = row_text[left:right]
    begin, end = sentences(cell, column_at - left)
    table_rows = [line for line in rows if line.lstrip().startswith("|")]
    headers = split_row(table_rows[0]) if table_rows else []
    header = headers[column] if 0 <= column < len(headers) else ""
    prefix = "%s\n%s. " % (caption, header)
    return prefix + cell[begin:end], len(prefix) + column_at - left - begin, len(prefix)


if __name__ == "__main__":
    from repository_arguments import module_only

    module_only(__doc__, "scripts/check_numbers.py")
