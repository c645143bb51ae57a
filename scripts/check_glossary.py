#!/usr/bin/env python3
"""Checks the glossary (docs/glossary.md) against the code.

Every code name the glossary lists as the course's must exist: a path (`common/cli.hpp`)
must be a file, an identifier (`course::ProductSizes`, `kTileWidth`) must occur in the
sources. Every retired name of its table "Names the course retired" must be gone from the
sources (result files and GPU logs record what ran under the names of the day, and are not
searched). Exit status 0 when all hold, 1 with one line per problem otherwise.

Usage: scripts/check_glossary.py [ROOT]   (default: the repository holding this script)
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from repository_arguments import repository_root  # noqa: E402

CODE_SUFFIXES = {".cu", ".cuh", ".cpp", ".hpp", ".h", ".py", ".sh", ".cmake"}
SKIPPED_PARTS = {"results", "gpu_logs", ".git", ".deps", "data", "__pycache__"}
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$")
PATH = re.compile(r"^[A-Za-z0-9_./-]+\.(hpp|cuh|cu|cpp|h|md|py|sh|txt)$")
# Words in backticks that name no code (letters of formulas, placeholders).
NOT_CODE = {"nnz", "lda", "ldb", "ldc"}


def code_files(root):
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if any(part in SKIPPED_PARTS or part.startswith(("build", ".")) for part in relative.parts):
            continue
        if path.is_file() and (path.suffix in CODE_SUFFIXES or path.name == "CMakeLists.txt"):
            yield path


def strip_comment_only_lines(text):
    """Drops lines that are only a comment, so prose mentioning a name does not count as
    a use of it (a retired name in a comment that explains the history is still allowed
    nowhere: only the glossary keeps history)."""
    return "\n".join(line for line in text.splitlines()
                     if not line.lstrip().startswith(("//", "#", "*", "/*")))


def backticked(cell):
    return re.findall(r"`([^`]+)`", cell)


def glossary_tables(text):
    """Yields (section title, first cell, whole row) for every table row."""
    section = ""
    for line in text.splitlines():
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        elif line.startswith("|") and not re.match(r"^\|[-| ]+\|$", line):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            yield section, cells[0], line


def last_cell(row):
    return row.strip().strip("|").split("|")[-1]


def current_names(text):
    """Code names the glossary gives as the course's: every backticked name of its tables,
    except in the notes' table and the retired table, where only the last column (the
    course's names) counts. Placeholders such as `stepN` or `<technique>` are skipped."""
    names = set()
    for section, _, row in glossary_tables(text):
        own_column_only = section.startswith(("Names the course retired", "The notes' notation"))
        names.update(backticked(last_cell(row) if own_column_only else row))
    return {name for name in names if name not in NOT_CODE and "stepN" not in name and
            (IDENTIFIER.match(name) or PATH.match(name))}


def retired_names(text):
    """Backticked names of the retired table's first column that its last column does not
    name again (`make_table` moved to `course::make_table`: only the old place is retired)."""
    names = set()
    for section, first, row in glossary_tables(text):
        if section.startswith("Names the course retired") and first != "retired":
            kept = set(backticked(last_cell(row)))
            kept |= {name.split("::")[-1] for name in kept}
            names.update(name for name in backticked(first)
                         if (IDENTIFIER.match(name) or PATH.match(name)) and name not in kept)
    return names


def word_pattern(name):
    last = name.split("::")[-1]
    qualified = re.escape(name)
    return re.compile(r"(?<![A-Za-z0-9_])(" + qualified + "|" + re.escape(last) +
                      r")(?![A-Za-z0-9_])") if "::" in name else re.compile(
                          r"(?<![A-Za-z0-9_])" + qualified + r"(?![A-Za-z0-9_])")


def main():
    root = repository_root(lambda root: (root / "docs" / "glossary.md").is_file(), __doc__)
    glossary = (root / "docs" / "glossary.md").read_text(encoding="utf-8")
    sources = {path: path.read_text(encoding="utf-8", errors="replace")
               for path in code_files(root)}
    code_only = {path: strip_comment_only_lines(text) for path, text in sources.items()}
    problems = []
    for name in sorted(current_names(glossary)):
        if PATH.match(name) and "/" in name:
            if not (root / name).is_file():
                problems.append(f"glossary names the file {name}, which does not exist")
            continue
        if PATH.match(name):
            continue  # a bare file name in prose: nothing to find
        pattern = word_pattern(name) if "::" not in name else re.compile(
            r"(?<![A-Za-z0-9_])" + re.escape(name.split("::")[-1]) + r"(?![A-Za-z0-9_])")
        if not any(pattern.search(text) for text in sources.values()):
            problems.append(f"glossary names `{name}`, which no source file holds")
    for name in sorted(retired_names(glossary)):
        if PATH.match(name) and "/" in name:
            if (root / name).exists():
                problems.append(f"retired file {name} still exists")
            continue
        pattern = word_pattern(name) if "::" not in name else re.compile(
            r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")
        for path, text in code_only.items():
            for number, line in enumerate(text.splitlines(), 1):
                if pattern.search(line):
                    problems.append(f"retired name `{name}` still in {path.relative_to(root)}: "
                                    f"{line.strip()[:80]}")
                    break
    for problem in problems:
        print(problem)
    print(f"glossary: {len(current_names(glossary))} names checked, "
          f"{len(retired_names(glossary))} retired names looked for, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
