"""A class run's lanes: the cores divided between them, the order in which they are built
and handed students, and grade_class.py end to end with a fake cmake (the class table
rewritten after every student, the prebuilt tree configured as a student's folder)."""
import csv
import pathlib
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from tests.helpers import GRADING, fake_course_tools
from gradelib import lanes, plan


class LaneJobs(unittest.TestCase):
    def test_lanes_together_use_the_cores_of_one_grading_alone(self):
        # grade.py alone: as many build jobs as cores, half as many test processes.
        for cores in (1, 2, 3, 8, 16, 64):
            for count in range(1, 11):
                build_jobs, test_jobs = lanes.lane_jobs(cores, count)
                self.assertGreaterEqual(min(build_jobs, test_jobs), 1)
                if count <= cores:
                    self.assertLessEqual(build_jobs * count, cores, (cores, count))
                if 2 * count <= cores:
                    self.assertLessEqual(test_jobs * count, cores // 2, (cores, count))

    def test_the_h100_machine(self):
        self.assertEqual(lanes.lane_jobs(16, 1), (16, 8))
        self.assertEqual(lanes.lane_jobs(16, 2), (8, 4))
        # The five lanes of the run that wrote nothing had 3 build jobs and 3 test processes
        # each: 15 test processes, twice what one grading alone starts.
        self.assertEqual(lanes.lane_jobs(16, 5), (3, 1))


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


class ClassRun(unittest.TestCase):
    """grade_class.py with a fake cmake (tests/fake_course.py) and a fake sanitizer."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.folder.name)
        self.env, sanitizer = fake_course_tools(self.root)
        self.env["COMPUTE_SANITIZER"] = str(sanitizer)
        self.students = self.root / "class"

    def tearDown(self):
        self.folder.cleanup()

    def student(self, name, text="// student code\n"):
        for step in plan.STEPS:
            (self.students / name / step.folder).mkdir(parents=True, exist_ok=True)
            for file_name in step.student_files:
                (self.students / name / step.folder / file_name).write_text(text)

    def start(self, *arguments):
        return subprocess.Popen([sys.executable, str(GRADING / "grade_class.py"),
                                 str(self.students), str(self.root / "out"), "--generator", "",
                                 *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=self.env)

    def rows(self):
        with (self.root / "out" / "class_grades.csv").open(encoding="utf-8") as stream:
            return {row["student"]: row for row in csv.DictReader(stream)}

    def test_lanes_share_the_cores_and_the_prebuilt_tree_is_a_students_folder(self):
        for name in ("a", "b", "c"):
            self.student(name)
        process = self.start("--lanes", "2", "--cores", "4")
        _, errors = process.communicate(timeout=300)
        self.assertEqual(process.returncode, 0, errors)
        self.assertEqual(set(self.rows()), {"a", "b", "c"})
        self.assertIn("2 lane(s) on 4 cores: 2 build jobs and 1 test processes", errors)
        work = self.root / "out" / "work"
        prebuild_log = (work / "lane-0.log").read_text(encoding="utf-8")
        self.assertIn(f"-DCOURSE_KERNELS={work / 'prebuild-kernels'}", prebuild_log)
        self.assertIn("-j 4", prebuild_log)  # lane 0 is built alone, with every core
        for step in plan.STEPS:
            for file_name in step.student_files:
                self.assertTrue((work / "prebuild-kernels" / step.folder / file_name).is_file())
        grade_log = (self.root / "out" / "students" / "b" / "grade.log").read_text("utf-8")
        self.assertIn("--jobs 2 --test-jobs 1", grade_log)
        table = (self.root / "out" / "class_grades.md").read_text(encoding="utf-8")
        self.assertNotIn("in progress", table)
        self.assertIn("s per student after the first", table)

    def commands_still_running(self):
        """The processes whose command line names this test's folder (none should outlive
        the class run)."""
        found = []
        for entry in pathlib.Path("/proc").iterdir():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if entry.name.isdigit() and self.folder.name.encode() in command:
                found.append(command.replace(b"\0", b" ").decode(errors="replace"))
        return found

    def test_a_run_cut_short_keeps_the_students_graded_so_far_and_stops_the_rest(self):
        self.student("a")
        self.student("b", "// SLOW_BUILD\n")
        process = self.start("--lanes", "1", "--cores", "2")
        try:
            deadline = time.monotonic() + 60
            table = self.root / "out" / "class_grades.md"
            while time.monotonic() < deadline and process.poll() is None:
                if table.exists() and "1 of 2 graded" in table.read_text(encoding="utf-8"):
                    break
                time.sleep(0.2)
            self.assertIsNone(process.poll(), "b's build should still be running")
            self.assertEqual(set(self.rows()), {"a"})
            time.sleep(1)  # b's build under way: its log already shows it
            log = (self.root / "out" / "students" / "b" / "grade.log").read_text("utf-8")
            self.assertIn("grade.py --kernels", log)
            process.send_signal(signal.SIGTERM)  # as `timeout` does at the end of a budget
            _, errors = process.communicate(timeout=10)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
        self.assertEqual(process.returncode, 143, errors)
        self.assertEqual(set(self.rows()), {"a"})
        self.assertIn("(cut short after", table.read_text(encoding="utf-8"))
        time.sleep(1)
        self.assertEqual(self.commands_still_running(), [])

if __name__ == "__main__":
    unittest.main()
