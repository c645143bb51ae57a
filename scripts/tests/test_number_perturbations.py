#!/usr/bin/env python3
"""An independent check of scripts/check_numbers.py on the repository's own pages (ctest,
label scripts): 20 quoted figures are changed in a page's text, each the way a real mistake
looks, and the checker must report every changed page. It does not use the checker's
self-test: it edits the Markdown itself and runs the ordinary page check on the result.

    python3 scripts/tests/test_number_perturbations.py [-v]

Four figures of each kind, where the issue that asked for this (38) found the checker blind:
  - digits:   a middle digit of a figure bound with `cell:`;
  - units:    ms to s or µs, MiB to GiB, × to %;
  - columns:  a `cell:` binding moved to another column of its row (one holding the same
              value when the row has one: sddmm and min);
  - quoted:   a figure of a table quoted from a design note with its decimal point moved
              (13.0718 -> 1.30718);
  - lines:    a `line:` figure replaced by another number of its line (8203.0 -> 2966.8).
The cases the issue named come first where their text is still on a page; the others are
drawn with a fixed seed, so a run is reproducible and the test follows the pages as they
change.
"""
import pathlib
import random
import re
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import check_numbers  # noqa: E402
from result_sources import Source, number_spans, split_path  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
PER_KIND = 4
# A figure: digits with groups of three after spaces or commas (8 052 992), or plain digits, with
# an optional fraction; "128, 1.14" is two figures, not one.
NUMBER = r"(?:\d{1,3}(?:[ ,]\d{3})+|\d+)(?:\.\d+)?"
# A figure and the binding right after it: (figure, number, unit, kind, arguments).
BOUND = re.compile(r"(?<![\w.])(?P<figure>(?P<number>" + NUMBER + r")(?P<unit>\s?(?:ms|µs|s|"
                   r"MiB|GiB|GB/s|×|%))?)(?P<glue>[*_)]*)<!-- (?P<kind>cell|line): "
                   r"(?P<args>.*?) -->")
UNIT_CHANGES = {"ms": ("s", "µs"), "MiB": ("GiB",), "×": ("%",), "µs": ("ms",),
                "GB/s": ("TB/s",), "s": ("ms",), "%": ("×",)}


def pages():
    return [p for p in check_numbers.default_files(REPO) if "results_step" not in p.name]


def bound_figures():
    """(page, match) of every figure of the pages bound with cell: or line:."""
    found = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        found += [(page, m) for m in BOUND.finditer(text)]
    return found


def replace_at(text, match, group, new):
    return text[:match.start(group)] + new + text[match.end(group):]


def middle_digit(number):
    digits = [i for i, ch in enumerate(number) if ch.isdigit()]
    index = digits[(len(digits) - 1) // 2]
    return number[:index] + str((int(number[index]) + 3) % 10) + number[index + 1:]


def fields(args):
    return [f.strip() for f in re.split(r"\\?\|", args)]


def source_row(args):
    """The headers and cells of the source row a cell binding names, or None."""
    path, row, column = fields(args)[:3]
    path, heading = split_path(path)
    try:
        source = Source(REPO / path)
        tables = source.tables_under(heading)
    except Exception:  # noqa: BLE001  (a broken binding is the checker's to report)
        return None
    parts = [p.strip() for p in row.split(";") if p.strip()]
    for table in tables:
        for cells in table.rows:
            values = {re.sub(r"\s+", " ", c.strip().replace("\\|", "|")) for c in cells}
            if all(p in values for p in parts):
                return table.headers, cells
    return None


def same_at_precision(other, figure):
    """Whether @p other (a number of a source line) is @p figure's value, written with more
    or fewer decimals (rounding either to the other's decimals gives the other)."""
    try:
        first, second = float(other.replace(",", "")), float(figure.replace(",", ""))
    except ValueError:
        return other == figure

    def decimals(text):
        return len(text.split(".", 1)[1]) if "." in text else 0
    return (round(first, decimals(figure)) == second
            or round(second, decimals(other)) == first)


class Perturbations(unittest.TestCase):
    cases = []  # (kind, page, original text, perturbed text, description)

    @classmethod
    def setUpClass(cls):
        figures = bound_figures()
        rng = random.Random(38)
        chosen = {kind: [] for kind in ("digits", "units", "columns", "quoted", "lines")}

        seen = set()

        def add(kind, page, text, new_text, description):
            # Each change once: the same figure written twice on a page is one case.
            key = (page, description.replace(" |", "").replace("<!--", "").split(" on ")[0])
            if len(chosen[kind]) < PER_KIND and new_text != text and key not in seen:
                seen.add(key)
                chosen[kind].append((kind, page, text, new_text, description))

        texts = {page: page.read_text(encoding="utf-8") for page in pages()}
        # The issue's own examples, where they are still on a page.
        for page, text in texts.items():
            for old, new, kind, description in (
                    ("| 13.0718 |", "| 1.30718 |", "quoted", "13.0718 -> 1.30718"),
                    ("8203.0 GB/s<!-- line:", "2966.8 GB/s<!-- line:", "lines",
                     "8203.0 -> 2966.8"),
                    ("96.6 MiB<!--", "96.6 GiB<!--", "units", "96.6 MiB -> GiB")):
                if old in text:
                    add(kind, page, text, text.replace(old, new, 1), description)
        for page, match in figures:
            text = texts[page]
            if match.group("kind") == "cell" and "| sddmm -->" in match.group(0):
                row = source_row(match.group("args"))
                if row and "min" in row[0]:
                    headers, cells = row
                    if number_spans(cells[headers.index("min")])[:1] == number_spans(
                            cells[headers.index("sddmm")])[:1]:
                        add("columns", page, text, replace_at(text, match, "args", match.group(
                            "args").replace("| sddmm", "| min")), "sddmm -> min, same value")
        rng.shuffle(figures)
        for page, match in figures:
            text = texts[page]
            number, unit = match.group("number"), (match.group("unit") or "").strip()
            if match.group("kind") == "cell" and len(re.sub(r"\D", "", number)) >= 3:
                add("digits", page, text, replace_at(text, match, "number", middle_digit(number)),
                    "%s -> %s" % (number, middle_digit(number)))
            if unit in UNIT_CHANGES:
                new = rng.choice(UNIT_CHANGES[unit])
                spaced = "" if new in ("×", "%") else " "
                add("units", page, text, replace_at(text, match, "unit", spaced + new),
                    "%s %s -> %s" % (number, unit, new))
            if match.group("kind") == "cell" and len(fields(match.group("args"))) == 3:
                row = source_row(match.group("args"))
                # "COLUMN @3" names the same column as "COLUMN@3".
                column = re.sub(r"@\d+$", "", fields(match.group("args"))[2]).strip()
                if row:
                    headers, cells = row
                    others = [h for h, c in zip(headers[1:], cells[1:]) if h != column and
                              number_spans(c) and "|" not in h]
                    if others:
                        other = rng.choice(others)
                        args = match.group("args")
                        new_args = args[:args.rindex(column)] + other + args[
                            args.rindex(column) + len(column):]
                        add("columns", page, text, replace_at(text, match, "args", new_args),
                            "column %s -> %s" % (column, other))
            if match.group("kind") == "line":
                path, key = fields(match.group("args"))[:2]
                try:
                    line = next(l for l in Source(REPO / path).lines if key in l)
                except (StopIteration, OSError):
                    continue
                # Another number of the line, not the figure's own value at another
                # precision (15.87 for a figure written 15.9 is the same figure).
                others = [s[0] for s in number_spans(line)
                          if not same_at_precision(s[0], number.replace(" ", ""))]
                if others:
                    other = rng.choice(others)
                    add("lines", page, text, replace_at(text, match, "number", other),
                        "%s -> %s on its line" % (number, other))
        # The quoted note tables: a figure's decimal point moved one place.
        for page, text in texts.items():
            for table in re.finditer(r"<!-- table: docs/note_tables/[^>]*-->\n(\|.*\n)+", text):
                for cell in re.finditer(r"\| (\d+)\.(\d+) ", table.group(0)):
                    moved = "| %s.%s%s " % (cell.group(1)[:-1] or "0", cell.group(1)[-1],
                                            cell.group(2))
                    start = table.start() + cell.start()
                    add("quoted", page, text, text[:start] + moved + text[start + len(
                        cell.group(0)):], "%s.%s -> %s" % (cell.group(1), cell.group(2),
                                                           moved.strip("| ")))
                    break  # one figure of each quoted table
        cls.cases = [case for kind in chosen for case in chosen[kind]]
        cls.sources = check_numbers.Sources(REPO)

    def test_twenty_perturbations_are_chosen(self):
        kinds = [case[0] for case in self.cases]
        self.assertEqual(len(kinds), 20, kinds)

    def test_the_pages_pass_before_any_change(self):
        # A page that already fails hides a perturbation; say why it fails (the run of
        # 2026-11-28 on the GPU machine found 63 failures on one README and said no more).
        for page in sorted({case[1] for case in self.cases}):
            with self.subTest(page=str(page.relative_to(REPO))):
                result = check_numbers.check_page(page, self.sources)
                shown = ["line %s: %s (%s)" % (line, figure, why)
                         for line, figure, _, why in result.problems[:5]]
                shown += ["line %s: %s unbound" % item for item in result.unbound[:5]]
                self.assertEqual(result.failures, 0, "; ".join(shown))

    def test_every_perturbation_is_caught(self):
        for kind, page, text, new_text, description in self.cases:
            with self.subTest(kind=kind, page=page.name, change=description):
                before = check_numbers.check_page(page, self.sources, text=text).failures
                after = check_numbers.check_page(page, self.sources, text=new_text).failures
                self.assertGreater(after, before, "%s: %s not caught" % (page.name,
                                                                        description))


if __name__ == "__main__":
    unittest.main(verbosity=2)
