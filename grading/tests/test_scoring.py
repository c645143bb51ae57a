"""Weights and points: only graded cases earn points; a sanitizer error, a failed gate or a
finding costs the case."""
import unittest

from tests.helpers import sanitizer_run, test
from gradelib import plan, scoring


class Scores(unittest.TestCase):
    def test_all_graded_tests_clean_earn_full_points(self):
        row = scoring.make_row("step3", [
            test("a", 3, sanitizers=[sanitizer_run("memcheck"), sanitizer_run("racecheck")]),
            test("b", 1), test("course", 0, gpu=False)])
        self.assertEqual((row["points"], row["sanitizer_errors"]), (20.0, 0))

    def test_points_follow_the_weights(self):
        row = scoring.make_row("step2", [test("a", 3), test("b", 1, outcome="failed")])
        self.assertEqual(row["points"], 15.0)
        self.assertEqual((row["earned_weight"], row["total_weight"]), (3, 4))

    def test_a_sanitizer_error_costs_the_tests_weight(self):
        racy = test("a", 3, sanitizers=[sanitizer_run("memcheck"), sanitizer_run(
            "racecheck", "errors", 150, ["k<32>"])])
        row = scoring.make_row("step3", [racy, test("b", 1)])
        self.assertEqual(row["points"], 5.0)
        self.assertEqual(row["sanitizer_errors"], 1)
        self.assertFalse(scoring.earns(racy))

    def test_a_sanitizer_run_out_of_time_costs_the_test_too(self):
        slow = test("a", 1, sanitizers=[sanitizer_run("racecheck", "timed out")])
        self.assertEqual(scoring.make_row("step4", [slow, test("b", 1)])["points"], 10.0)

    def test_a_failed_gate_or_a_finding_costs_the_cases_it_concerns(self):
        from gradelib import inspection
        gate = dict(test("evidence", 0), evidence_run={"outcome": "not seen", "kernels": [],
                                                       "message": "none read the inputs"})
        a = dict(test("a", 2), gate="evidence", files=["a.cuh"])
        b = dict(test("b", 2), gate="", files=["b.cuh"])
        row = scoring.make_row("step2", [gate, a, b])
        self.assertEqual(row["points"], 10.0)
        self.assertIn("no student kernel was seen running", a["lost"][0])
        finding = inspection.Finding(("b.cuh",), "macro", "#define __syncthreads")
        gate["evidence_run"] = {"outcome": "seen", "kernels": ["k"], "message": ""}
        row = scoring.make_row("step2", [gate, a, b], findings=[finding])
        self.assertEqual(row["points"], 10.0)
        self.assertIn("#define __syncthreads", b["lost"][0])
        self.assertEqual(row["findings"][0]["rule"], "macro")

    def test_untouched_exercise_scores_zero(self):
        # Every graded test fails in the exercise; course tests pass.
        for label, graded in plan.GRADED.items():
            tests = [test(entry.name, entry.weight, "failed") for entry in graded]
            self.assertEqual(scoring.make_row(label, tests)["points"], 0.0, label)

    def test_stale_plan_and_missing_step(self):
        row = scoring.make_row("step5", [test("a", 1)], stale=["renamed test"])
        self.assertEqual(row["points"], 20.0)
        self.assertIn("renamed test", row["course_problems"][0])
        row = scoring.make_row("step5", [test("course only", 0)])
        self.assertEqual(row["points"], 0.0)
        self.assertIn("stale", row["note"])
        row = scoring.make_row("step2", [], "missing: no folder step2_three_approaches")
        self.assertEqual((row["points"], row["max_points"]), (0.0, 20))

    def test_not_run_without_a_gpu_earns_nothing(self):
        row = scoring.make_row("step1", [test("a", 1, "not run")])
        self.assertEqual((row["points"], row["not_run"]), (0.0, 1))


class Plan(unittest.TestCase):
    def test_every_step_has_graded_tests_with_known_tools(self):
        self.assertEqual([step.label for step in plan.STEPS],
                         ["step1", "step2", "step3", "step4", "step5"])
        for step in plan.STEPS:
            graded = plan.GRADED[step.label]
            self.assertTrue(graded, step.label)
            names = [entry.name for entry in graded]
            self.assertEqual(len(names), len(set(names)), step.label)
            for entry in graded:
                self.assertGreater(entry.weight, 0, entry.name)
                self.assertTrue(set(entry.tools) <= set(plan.TOOLS), entry.name)
            # memcheck on at least one graded test of every step
            self.assertTrue(any(plan.MEMCHECK in entry.tools for entry in graded), step.label)

    def test_shared_memory_steps_run_racecheck_and_synccheck(self):
        for label in ("step3", "step4", "step5"):
            tools = {tool for entry in plan.GRADED[label] for tool in entry.tools}
            self.assertTrue({plan.RACECHECK, plan.SYNCCHECK} <= tools, label)

    def test_graded_names_are_cases_of_the_judge(self):
        # A renamed case would leave the plan stale: every name must be in cases.cpp.
        from tests.helpers import GRADING
        source = (GRADING / "judge" / "cases.cpp").read_text(encoding="utf-8")
        for label in plan.GRADED:
            for name in [entry.name for entry in plan.GRADED[label]] + list(plan.EVIDENCE[label]):
                if "{number}" not in name:
                    self.assertTrue(f'"{name}"' in source or name in source, name)
            for entry in plan.GRADED[label]:
                self.assertIn(entry.gate, plan.EVIDENCE[label], entry.name)
                step = plan.STEP_BY_LABEL[label]
                self.assertTrue(entry.files and set(entry.files) <= set(step.student_files),
                                entry.name)

    def test_select_steps(self):
        self.assertEqual([s.label for s in plan.select_steps("step3,step1")], ["step1", "step3"])
        self.assertEqual(len(plan.select_steps("")), 5)
        with self.assertRaisesRegex(ValueError, "unknown step.*step9"):
            plan.select_steps("step9")


if __name__ == "__main__":
    unittest.main()
