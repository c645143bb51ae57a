"""The mutation list and the cheat set against the course as it is: every edit must apply
exactly once, so that a kernel or launcher changed (renamed, reformatted) makes this test fail
loudly instead of the mutation check skipping a mutant."""
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import types
import unittest

from tests.helpers import GRADING
import make_class_example
import mutation_check
from cheats import CHEATS, HOSTILE
from mutations import MUTATIONS, PENDING_MUTATIONS

ROOT = GRADING.parent


class TimeBudget(unittest.TestCase):
    def test_past_the_deadline_no_mutant_starts_but_every_cheat_does(self):
        from gradelib import mutant_slots
        shared = types.SimpleNamespace(deadline=time.monotonic() - 1)
        mutants = [m for m in MUTATIONS if m.step == "step2_three_approaches"][:2]
        rows = mutant_slots.run_step("step2_three_approaches", mutants, shared, False, slot=2)
        self.assertEqual([entry["result"] for entry in rows], [mutant_slots.OUT_OF_TIME] * 2)
        self.assertFalse(any(mutant_slots.out_of_time(shared, cheat) for cheat in CHEATS))
        caught = dict(rows[0], mutation="another", result="caught")
        text = mutant_slots.markdown(rows + [caught], "Mutation check", "")
        self.assertIn("1 of 1 mutations caught", text)
        self.assertIn("2 of 3 mutations did not start within the time budget", text)


class CheatVerdicts(unittest.TestCase):
    def test_full_marks_are_expected_of_host_code_that_never_runs_and_honest_launchers(self):
        from gradelib import mutant_slots
        by_expect = {cheat.expect: cheat for cheat in CHEATS}
        full = {"points": 20.0, "max_points": 20.0, "findings": []}
        flagged = dict(full, findings=[{"files": ["x"], "rule": "launcher", "text": "t"}])
        zero = dict(flagged, points=0.0)
        verdict = mutant_slots.cheat_result
        self.assertEqual(verdict(by_expect["reference"], full, [], False), "reference score")
        self.assertEqual(verdict(by_expect["full"], full, [], False), "full, no finding")
        self.assertEqual(verdict(by_expect["full"], flagged, [], False), "**NOT FULL**")
        self.assertEqual(verdict(by_expect["reference"], dict(full, points=0.0), [], False),
                         "**NOT FULL**")
        self.assertEqual(verdict(by_expect["full"], flagged, [], True), "**FLAGGED** (a finding)")
        self.assertEqual(verdict(by_expect["full"], full, [], True), "no finding")
        self.assertEqual(verdict(by_expect["zero"], zero, [], False), "zero")
        self.assertEqual(verdict(by_expect["zero"], zero, [], True), "zero (inspection)")
        self.assertIn("DISTURBED", verdict(by_expect["reference"], full, ["a file"], False))
        rows = [mutant_slots.row(by_expect[kind], result) for kind, result in (
            ("zero", "zero"), ("reference", "reference score"), ("full", "**NOT FULL**"))]
        text = mutant_slots.markdown(rows, "Mutation check", "")
        self.assertIn("1 of 1 cheats stopped", text)
        self.assertIn("1 of 1 cheats with host code in the kernel files", text)
        self.assertIn("0 of 1 honest variants", text)


class MutationList(unittest.TestCase):
    def test_every_edit_applies_exactly_once(self):
        problems = mutation_check.find_problems(ROOT, MUTATIONS + PENDING_MUTATIONS + CHEATS
                                                + HOSTILE)
        self.assertEqual(problems, {}, "stale mutations: update grading/mutations.py")

    def test_names_are_unique_and_files_belong_to_their_step(self):
        names = [mutation.name for mutation in MUTATIONS + CHEATS + HOSTILE]
        self.assertEqual(len(names), len(set(names)))
        for mutation in MUTATIONS + CHEATS + HOSTILE:
            for file, _, _ in mutation.edits():
                self.assertTrue(file.startswith(mutation.step + "/"), mutation.name)

    def test_a_stale_edit_is_reported(self):
        mutation = MUTATIONS[0]
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            for file, _, _ in mutation.edits():
                (root / file).parent.mkdir(parents=True, exist_ok=True)
                (root / file).write_text("renamed by someone\n")
            problems = mutation_check.find_problems(root, [mutation])
        self.assertIn("found 0 times", problems[mutation.name])

    def test_a_mutation_over_two_files_applies_and_reverts(self):
        mutation = next(m for m in MUTATIONS if m.more)
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            files = {file for file, _, _ in mutation.edits()}
            for file in files:
                (root / file).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / file, root / file)
            slot = types.SimpleNamespace(target=lambda file: root / file)
            originals = mutation_check.mutate(slot, mutation)
            self.assertEqual(len(originals), len(files))
            for file, _, replacement in mutation.edits():
                self.assertIn(replacement, (root / file).read_text())
            mutation_check.revert(originals)
            for file in files:
                self.assertEqual((root / file).read_text(), (ROOT / file).read_text())

    def test_the_example_class_plants_its_bugs(self):
        with tempfile.TemporaryDirectory() as folder:
            expected = pathlib.Path(folder) / "expected.json"
            result = subprocess.run([sys.executable, str(GRADING / "make_class_example.py"),
                                     str(pathlib.Path(folder) / "class"), "--expected",
                                     str(expected)], capture_output=True, text=True,
                                    timeout=120)
            self.assertEqual(result.returncode, 0, result.stderr)
            students = sorted(path.name for path in (pathlib.Path(folder) / "class").iterdir())
            kinds = json.loads(expected.read_text(encoding="utf-8"))
            self.assertEqual(students, sorted(kinds))
            # A class of at least 12, three of them hostile (issue 37).
            self.assertGreaterEqual(len(students), 12)
            self.assertEqual(sum(1 for entry in kinds.values() if entry["kind"] == "hostile"), 3)
        with self.assertRaises(SystemExit):
            make_class_example.plant(pathlib.Path("/nonexistent"), "no such mutation")


    def test_every_cheat_has_an_expectation_and_course_files_are_sorted_out(self):
        self.assertTrue(all(cheat.family == "cheat" for cheat in CHEATS))
        self.assertTrue(all(each.family == "hostile" and each.expect == "contained"
                            for each in HOSTILE))
        by_expect = {}
        for cheat in CHEATS:
            by_expect.setdefault(cheat.expect, set()).add(cheat.step)
        self.assertEqual(set(by_expect), {"zero", "loses", "reference", "full"})
        # Host code scores the reference's marks only where it is never compiled (steps 2
        # to 5); the honest variants are of step 1's launcher, the only host code left.
        self.assertNotIn("step1_naive", by_expect["reference"])
        self.assertEqual(by_expect["full"], {"step1_naive"})
        judged = [m for m in MUTATIONS if mutation_check.judged(m)]
        not_judged = {m.file for m in MUTATIONS if not mutation_check.judged(m)}
        self.assertEqual(not_judged, {"step4_boundary_checks/going_further/tile_cursor.cuh",
                                      "step4_boundary_checks/going_further/fast_gemm.cuh",
                                      "step4_boundary_checks/padded.cu"})
        self.assertGreater(len(judged), 35)


if __name__ == "__main__":
    unittest.main()
