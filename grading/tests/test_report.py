"""Rendering: a student's report and the class table."""
import csv
import io
import unittest

from tests.helpers import sanitizer_run, test
from gradelib import inspection, report, scoring


def rows():
    racy = test("tiles match", 3, sanitizers=[sanitizer_run(
        "racecheck", "errors", 150, ["step4::tiled_checked_kernel<(int)32>"],
        "Error: Race reported between Write access at ...")])
    gate = dict(test("step4 evidence", 0), evidence_run={
        "outcome": "seen", "kernels": ["tiled_checked_kernel"], "message": ""})
    finding = inspection.Finding(("rect_tiles.cuh",), "macro", "#define __syncthreads: no")
    return [scoring.make_row("step4", [gate, racy, dict(test("edges", 1), files=["rect_tiles.cuh"])],
                             findings=[finding], problems=["step4: the judge failed"]),
            scoring.make_row("step5", [], "missing: no folder step5_tensor_core_sddmm")]


class StudentReport(unittest.TestCase):
    def test_names_tool_kernel_test_and_first_lines(self):
        text = report.student_report(rows(), "Grades of x", 99, "grading/grade.py --seed 99")
        self.assertIn("Seed of this run: `99` (replay: `grading/grade.py --seed 99`)", text)
        self.assertIn("**step4: tiles match** (weight 3): racecheck errors", text)
        self.assertIn("compute-sanitizer **racecheck**: errors, 150 error(s) in "
                      "`step4::tiled_checked_kernel<(int)32>`", text)
        self.assertIn("Error: Race reported", text)
        self.assertIn("| step4 | 2/2 | 1 | 1/1 | 1 | 0 | 0.0/20 |", text)
        self.assertIn("| **total** | | | | | | **0.0/40** | |", text)
        self.assertIn("## Course problems", text)
        self.assertIn("- step4: step4: the judge failed", text)
        self.assertIn("`rect_tiles.cuh` (macro): #define __syncthreads: no", text)
        self.assertIn("| step4 | step4 evidence | seen | `tiled_checked_kernel` |", text)
        self.assertIn("Ran in: bubblewrap", report.student_report(
            rows(), "x", 1, "r", "bubblewrap sandbox"))
        self.assertIn("missing: no folder step5_tensor_core_sddmm", text)


class ClassTable(unittest.TestCase):
    def students(self):
        grade = {"total_points": 5.0, "steps": rows()}
        grade["steps"][0]["points"] = 5.0
        return [("ann", grade, 61.4, "", "students/ann/grades.md"),
                ("zoë a@b|c", None, 900.0, "grading stopped after 900 s: 0 points",
                 "students/zo%C3%AB%20a%40b%7Cc/grade.log")]

    def test_markdown_has_a_row_and_a_link_per_student(self):
        table = report.class_markdown(report.class_rows(self.students()), "Class", "header")
        self.assertIn("| ann | 5.0 | 0.0 | 0.0 | 0.0 | 5.0 | 0.0 | 1 | 1 | 61 | step5: missing",
                      table)
        self.assertIn("[report](students/ann/grades.md)", table)
        self.assertIn("| zoë a@b\\|c | 0.0 |", table)
        self.assertIn("grading stopped after 900 s", table)

    def test_csv_round_trips(self):
        text = report.class_csv(report.class_rows(self.students()))
        parsed = list(csv.DictReader(io.StringIO(text)))
        self.assertEqual([row["student"] for row in parsed], ["ann", "zoë a@b|c"])
        self.assertEqual(parsed[0]["total"], "5.0")
        self.assertEqual(parsed[1]["total"], "0.0")
        self.assertEqual(list(parsed[0]), report.CLASS_COLUMNS)


if __name__ == "__main__":
    unittest.main()
