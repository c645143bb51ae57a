#!/usr/bin/env python3
"""Joins the parts of a class run into one class table: when a class does not fit one
command (gpu_evidence.sh CLASS_PART=1/2 and 2/2 on a machine that limits a command to 10
minutes), each part's results/ folder holds its own table and reports; this writes the
table of the whole class (Markdown and CSV), the reports and the reference's and the
exercise's grades into OUT, as grading/results/ holds them.

Usage: grading/merge_class_runs.py OUT PART_RESULTS [PART_RESULTS...]
    e.g. grading/merge_class_runs.py grading/results part1/results part2/results

Every part is read before anything is written: a part that is not a class run's results
folder is refused (status 2) and OUT is neither created nor changed.
"""
import csv
import json
import argparse
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gradelib import report  # noqa: E402


def read_part(folder):
    """[(name, grade or None, seconds, note, link)] and the header line of one part."""
    table = folder / "class_run.csv"
    if not table.is_file():
        raise ValueError(f"{folder}: no class_run.csv (not a results folder of a class run)")
    students = []
    with table.open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream):
            grade_file = folder / "students" / row["student"] / "grades.json"
            grade = json.loads(grade_file.read_text(encoding="utf-8")) \
                if grade_file.is_file() else None
            note = "" if grade else row["note"]
            link = "class_reports.md"
            students.append((row["student"], grade, float(row["seconds"]), note, link))
    header = next((line for line in (folder / "class_run.md").read_text(
        encoding="utf-8").splitlines() if "GPU:" in line), "")
    return students, header


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", help="the results folder to write (e.g. grading/results)")
    parser.add_argument("parts", nargs="+", help="the results/ folders of the class parts")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    if out.exists() and not out.is_dir():
        parser.error(f"{out} exists and is not a folder")
    parts = []
    for name in args.parts:
        folder = pathlib.Path(name)
        if out.exists() and folder.resolve() == out.resolve():
            parser.error(f"{folder} is both a part and OUT: write the whole class elsewhere")
        try:
            parts.append((folder, *read_part(folder)))
        except (ValueError, OSError, KeyError, json.JSONDecodeError) as error:
            parser.error(f"{error}")
    out.mkdir(parents=True, exist_ok=True)
    students, headers, reports = [], [], []
    for index, (folder, part, header) in enumerate(parts, start=1):
        students += part
        headers.append(f"Part {index}: {header}")
        reports += [folder / "students" / entry[0] / "grades.md" for entry in part]
        for who in ("reference", "exercise"):
            for suffix in ("md", "json"):
                source = folder / f"grades_{who}.{suffix}"
                if source.is_file():
                    shutil.copy2(source, out / source.name)
    students.sort()
    rows = report.class_rows(students)
    for row in rows:
        if row["student"].endswith("reference"):
            row["report"] = "grades_reference.md"
        elif row["student"].endswith("exercise"):
            row["report"] = "grades_exercise.md"
    total = sum(entry[2] for entry in students)
    header = (f"{len(students)} students, graded in {len(headers)} parts (one command each). "
              + " ".join(headers))
    text = report.class_markdown(rows, "Class run: the example class "
                                 "(grading/make_class_example.py)", header)
    (out / "class_run.md").write_text(text, encoding="utf-8")
    (out / "class_run.csv").write_text(report.class_csv(rows), encoding="utf-8")
    (out / "class_reports.md").write_text("\n".join(
        path.read_text(encoding="utf-8")
        for path in sorted(reports, key=lambda path: path.parent.name) if path.is_file()),
        encoding="utf-8")
    print(text)
    print(f"{len(students)} students; {total:.0f} s of lane time in all", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
