"""merge_class_runs.py joins the parts of a class run into one table."""
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

from tests.helpers import GRADING
from gradelib import report, scoring


def part(folder, students):
    """A results/ folder of a class run of @p students: {name: total points}."""
    rows = []
    for name, points in students.items():
        (folder / "students" / name).mkdir(parents=True)
        row = scoring.make_row("step1", [])
        row["points"] = points
        grade = {"title": name, "seed": 1, "kernels": name, "total_points": points,
                 "max_points": 100, "steps": [row]}
        (folder / "students" / name / "grades.json").write_text(json.dumps(grade))
        (folder / "students" / name / "grades.md").write_text(f"# Grades of {name}\n")
        rows.append((name, grade, 100.0, "", ""))
    table = report.class_rows(rows)
    (folder / "class_run.csv").write_text(report.class_csv(table))
    (folder / "class_run.md").write_text(report.class_markdown(
        table, "Class", f"GPU: test; {len(rows)} students"))


class Merge(unittest.TestCase):
    def test_two_parts_make_one_table(self):
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            part(root / "a", {"01-reference": 100.0, "02-exercise": 0.0})
            part(root / "b", {"03-bug": 80.0})
            result = subprocess.run([sys.executable, str(GRADING / "merge_class_runs.py"),
                                     str(root / "out"), str(root / "a"), str(root / "b")],
                                    capture_output=True, text=True, timeout=60)
            self.assertEqual(result.returncode, 0, result.stderr)
            table = (root / "out" / "class_run.md").read_text()
            self.assertIn("3 students, graded in 2 parts", table)
            self.assertIn("| 03-bug | 80.0 |", table)
            self.assertIn("[report](grades_reference.md)", table)
            self.assertEqual((root / "out" / "class_reports.md").read_text().count("# Grades"), 3)

    def test_a_part_that_is_no_class_run_is_refused_and_nothing_is_written(self):
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            part(root / "a", {"01-reference": 100.0})
            (root / "empty").mkdir()
            result = subprocess.run([sys.executable, str(GRADING / "merge_class_runs.py"),
                                     str(root / "out"), str(root / "a"), str(root / "empty")],
                                    capture_output=True, text=True, timeout=60)
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertIn("empty: no class_run.csv", result.stderr)
            self.assertFalse((root / "out").exists())


if __name__ == "__main__":
    unittest.main()
