"""A class run's lanes (the cores divided between them, the order in which they start and
are handed students) and its integrity check (files compared before and after, processes
left by the sandbox user)."""
import os
import pathlib
import tempfile
import threading
import time
import unittest

from gradelib import lanes


class LaneJobs(unittest.TestCase):
    def test_lanes_together_use_the_cores_of_one_grading_alone(self):
        # grade.py alone: as many build jobs as cores, half as many test processes.
        for cores in (1, 2, 3, 8, 16, 64):
            for count in range(1, 11):
                build_jobs, test_jobs = lanes.lane_jobs(cores, count)
                self.assertGreaterEqual(min(build_jobs, test_jobs), 1)
                if count <= cores:
                    self.assertLessEqual(build_jobs * count, cores, (cores, count))
                # One student's runs at a time (its turn on the GPU): what grade.py alone
                # runs side by side, whatever the lanes.
                self.assertEqual(test_jobs, max(1, cores // 2), (cores, count))

    def test_the_h100_machine(self):
        self.assertEqual(lanes.lane_jobs(16, 1), (16, 8))
        self.assertEqual(lanes.lane_jobs(16, 2), (8, 8))
        # The five lanes of the run that wrote nothing had 3 build jobs and 3 test processes
        # each: 15 test processes side by side on the GPU, twice what one grading alone
        # starts; now a turn has 8, and the other lanes only build.
        self.assertEqual(lanes.lane_jobs(16, 5), (3, 8))


class GradeInLanes(unittest.TestCase):
    def run_lanes(self, folders, lane_names, broken=(), slow=(), grade_seconds=0.05):
        events, lock = [], threading.Lock()

        def note(*event):
            with lock:
                events.append(event)

        def prebuild(lane, index, nothing_left):
            note("built", lane, index)
            if lane in slow:  # a long build, given up once every student has a lane
                self.assertTrue(nothing_left.wait(timeout=30))
                note("given up", lane)
                return False
            time.sleep(0.05)
            return lane not in broken

        def grade(folder, lane):
            note("start", folder, lane)
            time.sleep(grade_seconds)
            return folder, lane

        graded = []

        def on_graded(result):
            graded.append(result)
            note("table", len(graded))

        results = lanes.grade_in_lanes(folders, lane_names, prebuild, grade, on_graded)
        return results, events, graded

    def test_lane_zero_is_built_alone_and_grades_the_first_student(self):
        results, events, _ = self.run_lanes(["a", "b", "c", "d"], ["L0", "L1"])
        self.assertEqual(events[0], ("built", "L0", 0))
        self.assertEqual([event for event in events if event[0] == "start"][0],
                         ("start", "a", "L0"))
        self.assertEqual([folder for folder, _ in results], ["a", "b", "c", "d"])
        self.assertIn(("built", "L1", 1), events)
        self.assertEqual(len({lane for _, lane in results}), 2)  # both lanes graded

    def test_the_table_is_rewritten_after_every_student(self):
        _, events, graded = self.run_lanes(["a", "b", "c"], ["L0", "L1", "L2"])
        tables = [event[1] for event in events if event[0] == "table"]
        self.assertEqual(tables, [1, 2, 3])
        # Each rewrite follows the start of the student it adds.
        for count, (folder, _) in enumerate(graded, start=1):
            start = events.index(next(e for e in events if e[:2] == ("start", folder)))
            self.assertLess(start, events.index(("table", count)))

    def test_a_lane_is_not_built_when_no_student_is_left_for_it(self):
        _, events, _ = self.run_lanes(["a"], ["L0", "L1", "L2"], grade_seconds=0.5)
        self.assertEqual([event for event in events if event[0] == "built"],
                         [("built", "L0", 0)])

    def test_a_lane_still_building_when_every_student_has_a_lane_gives_up(self):
        results, events, _ = self.run_lanes(["a", "b"], ["L0", "L1"], slow={"L1"})
        self.assertEqual(results, [("a", "L0"), ("b", "L0")])
        self.assertIn(("given up", "L1"), events)

    def test_a_later_lane_that_does_not_build_leaves_its_students_to_the_others(self):
        results, _, _ = self.run_lanes(["a", "b", "c"], ["L0", "L1"], broken={"L1"})
        self.assertEqual(results, [("a", "L0"), ("b", "L0"), ("c", "L0")])

    def test_lane_zero_that_does_not_build_grades_nobody(self):
        results, events, graded = self.run_lanes(["a", "b"], ["L0", "L1"], broken={"L0"})
        self.assertIsNone(results)
        self.assertEqual(graded, [])
        self.assertEqual(events, [("built", "L0", 0)])


class Integrity(unittest.TestCase):
    """What a class run compares before and after (gradelib/integrity.py)."""

    def test_a_change_outside_the_report_folders_is_found(self):
        from gradelib import integrity
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            (root / "course").mkdir()
            (root / "course" / "kernel.cuh").write_text("a")
            (root / "reports").mkdir()
            before = integrity.snapshot([root], [root / "reports"])
            (root / "reports" / "grades.md").write_text("a report may change")
            self.assertEqual(integrity.compare(before, integrity.snapshot([root],
                                                                          [root / "reports"])), [])
            (root / "course" / "kernel.cuh").write_text("b")
            (root / "course" / "planted.py").write_text("")
            changes = integrity.compare(before, integrity.snapshot([root], [root / "reports"]))
            self.assertEqual(sorted(change.split()[0] for change in changes), ["added", "changed"])

    def test_processes_of_a_user(self):
        from gradelib import integrity
        self.assertIn(os.getpid(), [pid for pid, _ in integrity.processes_of(os.getuid())])


if __name__ == "__main__":
    unittest.main()
