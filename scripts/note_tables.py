"""The transcriptions of the design notes' figures (docs/note_tables/note_NNN.md) checked
against the notes themselves, where they are at hand (they are not in the repository):

    python3 scripts/check_numbers.py --notes DIR     # DIR holds NNN_*.txt, the notes' text

Every row of a transcribed table names, in its column `note line`, the line of the note
that holds it; each figure of the row (all columns but the first, which names the row) must
be one of that line's numbers, written the same way (Persian digits and the Persian decimal
separator `/` read as ASCII digits and `.`).
"""
import pathlib
import re

from result_sources import Source

DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "01234567890123456789")
LINE_COLUMN = "note line"


def note_line_numbers(line):
    """The numbers of a line of a note, Persian digits and decimal separators read."""
    text = re.sub(r"(?<=\d)/(?=\d)", ".", line.translate(DIGITS))
    return re.findall(r"\d+(?:\.\d+)?", text)


def row_figures(cells):
    """The figures of a transcribed row: numbers with a decimal point or of four digits or
    more, such as 255493 ms (the row's name and the label columns hold sizes and words, not
    the note's measurements)."""
    figure = re.compile(r"(?<![\w.])\d+\.\d+|(?<![\w.])\d{4,}(?![\w²])")
    return [n for cell in cells for n in figure.findall(cell)]


def check_transcriptions(repo, notes):
    """(rows checked, [problem]) of every docs/note_tables/note_NNN.md against the note
    NNN_*.txt in @p notes."""
    problems, checked = [], 0
    for table_file in sorted((pathlib.Path(repo) / "docs" / "note_tables").glob("note_*.md")):
        number = table_file.stem.split("_")[1]
        found = sorted(pathlib.Path(notes).glob("%s_*.txt" % number))
        if not found:
            problems.append("%s: no note %s_*.txt in %s" % (table_file.name, number, notes))
            continue
        note = found[0].read_text(encoding="utf-8").split("\n")
        for table in Source(table_file).tables:
            where = table.column(LINE_COLUMN)
            if where is None:
                problems.append("%s: a table without a '%s' column" % (table_file.name,
                                                                      LINE_COLUMN))
                continue
            for row in table.rows:
                checked += 1
                line_number = int(row[where])
                if not 1 <= line_number <= len(note):
                    problems.append("%s: row '%s' names line %d of a %d-line note" % (
                        table_file.name, row[0], line_number, len(note)))
                    continue
                have = note_line_numbers(note[line_number - 1])
                cells = [c for i, c in enumerate(row) if i not in (0, where)]
                for figure in row_figures(cells):
                    if figure not in have:
                        problems.append("%s: row '%s': %s is not on line %d of %s ('%s')" % (
                            table_file.name, row[0], figure, line_number, found[0].name,
                            note[line_number - 1].strip()[:90]))
    return checked, problems


if __name__ == "__main__":
    from repository_arguments import module_only

    module_only(__doc__, "scripts/check_numbers.py")
