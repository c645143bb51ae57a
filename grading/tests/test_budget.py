"""Bounded class time without a GPU: one student's runs at a time on the GPU, in the order the
students asked (gpu_share.turn); a time budget per student that waiting for the GPU does not
spend and a turn spends once per lane (budget.py); the cases not run by then score 0 with
that reason (grading.py, with the fake world of tests/fake_world.py); and the bound on a
class that follows, checked on a simulated class of hostile and honest students."""
import pathlib
import tempfile
import threading
import time
import unittest

from tests import fake_world
from gradelib import budget, gpu_share, grading, plan, report

STEP1 = plan.STEPS[0]


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class Accounting(unittest.TestCase):
    def test_waiting_is_free_and_a_turn_costs_once_per_lane(self):
        clock = FakeClock()
        spent = budget.Budget(100, lanes=3, clock=clock)
        clock.now = 10  # building: 10
        with spent.waiting():
            clock.now = 60  # waiting for the GPU: free
        with spent.holding_gpu():
            clock.now = 70  # 10 s holding the GPU: 30
        self.assertAlmostEqual(spent.spent(), 40)
        self.assertAlmostEqual(spent.left(), 60)
        self.assertEqual(spent.limit(300), 60)
        summary = spent.summary()
        self.assertEqual((summary["wall_seconds"], summary["waited_for_gpu"],
                          summary["gpu_turn"], summary["spent"]), (70, 50, 10, 40))
        clock.now = 130
        self.assertTrue(spent.expired())
        self.assertEqual(spent.limit(300), 1.0)
        line = report.time_line(spent.summary())
        self.assertIn("50.0 s waiting for the GPU (not charged)", line)
        self.assertIn("charged 3 times", line)
        self.assertIn("spent: the cases not run by then scored 0", line)

    def test_without_a_budget_nothing_expires_and_a_stop_flag_is_the_mutation_checks(self):
        unlimited = budget.Budget(None)
        self.assertFalse(unlimited.expired())
        stop = budget.Stop(unlimited)
        self.assertFalse(stop.is_set())
        stop.set()
        self.assertTrue(stop.is_set())
        self.assertFalse(stop.out_of_time())
        clock = FakeClock()
        spent = budget.Budget(5, clock=clock)
        stop = budget.Stop(spent)
        clock.now = 6
        self.assertTrue(stop.is_set() and stop.out_of_time())


class Turns(unittest.TestCase):
    def test_turns_come_in_order_and_never_overlap(self):
        with tempfile.TemporaryDirectory() as folder:
            order, inside, overlaps = [], [], []
            lock = threading.Lock()

            def student(name, delay):
                time.sleep(delay)
                with gpu_share.GpuRecords(folder).grader(name).turn():
                    with lock:
                        if inside:
                            overlaps.append((name, list(inside)))
                        inside.append(name)
                        order.append(name)
                    time.sleep(0.15)
                    with lock:
                        inside.remove(name)
            threads = [threading.Thread(target=student, args=(name, 0.05 * index))
                       for index, name in enumerate("abcde")]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            self.assertEqual(overlaps, [])
            self.assertEqual(order, list("abcde"))

    def test_a_turn_waits_for_the_runs_under_way_and_no_run_starts_inside_it(self):
        with tempfile.TemporaryDirectory() as folder:
            mutant = gpu_share.GpuRecords(folder).grader("mutant")
            student = gpu_share.GpuRecords(folder).grader("student")
            events = []
            running = threading.Event()

            def a_run():
                with mutant.sharing():
                    running.set()
                    time.sleep(0.3)
                    events.append("run ended")
            run = threading.Thread(target=a_run)
            run.start()
            running.wait()
            with student.turn():
                events.append("turn")
                later = threading.Thread(target=lambda: (mutant.sharing().__enter__(),
                                                         events.append("late run")))
                later.daemon = True
                later.start()
                time.sleep(0.3)
                events.append("turn ends")
            run.join()
            later.join(5)
            self.assertEqual(events, ["run ended", "turn", "turn ends", "late run"])

    def test_a_dead_graders_ticket_does_not_block_the_queue(self):
        with tempfile.TemporaryDirectory() as folder:
            queue = pathlib.Path(folder) / "queue"
            queue.mkdir()
            dead = queue / f"{0:020d}-999999999-deadbeef.ticket"  # oldest, no such process
            dead.write_text("killed\n")
            started = time.monotonic()
            with gpu_share.GpuRecords(folder).turn():
                pass
            self.assertLess(time.monotonic() - started, 2)
            self.assertFalse(dead.exists())

    def test_inside_a_turn_second_runs_and_runs_pass_at_once(self):
        with tempfile.TemporaryDirectory() as folder:
            grader = gpu_share.GpuRecords(folder)
            with grader.turn():
                with grader.step("step1").alone():
                    with grader.step("step1").sharing():
                        pass


class OutOfTime(unittest.TestCase):
    def grade(self, seconds, **env):
        restore = fake_world.environment(**env)
        try:
            with tempfile.TemporaryDirectory() as folder:
                context, program = fake_world.make_world(folder)
                graded = context()
                graded.budget = budget.Budget(seconds)
                found = fake_world.inspection_of()
                started = time.monotonic()
                row = grading.rows_for([STEP1], {"step1": program}, {}, graded, found, 7)[0]
                return row, time.monotonic() - started
        finally:
            restore()

    def test_a_hanging_student_stops_at_its_budget_with_the_reason(self):
        with tempfile.TemporaryDirectory() as folder:
            flag = pathlib.Path(folder) / "hang"
            flag.write_text("")
            row, seconds = self.grade(2.0, FAKE_MODE="hang", FAKE_HANG_FLAG=flag)
        self.assertLess(seconds, 6)  # the budget, the runs' half-second slices, the judge
        self.assertEqual(row["points"], 0.0)
        self.assertEqual(row["out_of_time"], len(row["tests"]))
        for case in row["tests"]:
            self.assertEqual(case["outcome"], budget.OUT_OF_TIME, case["name"])
            self.assertIn("time budget of 2 s was spent", case["message"])
            if case["weight"]:
                self.assertIn(budget.OUT_OF_TIME, case["lost"])

    def test_an_honest_student_within_its_budget_keeps_every_point(self):
        row, _ = self.grade(120.0)
        self.assertEqual((row["points"], row["out_of_time"]), (20.0, 0))

    def test_rows_when_the_budget_was_spent_before_the_runs(self):
        with tempfile.TemporaryDirectory() as folder:
            context, program = fake_world.make_world(folder)
            graded = context()
            graded.budget = budget.Budget(10)
            row = grading.out_of_time_rows([STEP1], {"step1": program}, {}, graded,
                                           fake_world.inspection_of())[0]
        self.assertEqual(row["points"], 0.0)
        self.assertTrue(all(case["outcome"] == budget.OUT_OF_TIME for case in row["tests"]))


class ClassBound(unittest.TestCase):
    """A class of students in lanes, each a thread that builds (sleeps) and then holds its
    turn on the GPU (sleeps) as long as it asks or until its budget is spent: hostile students
    ask for far more than their budget. The class must end within N x budget / lanes +
    (lanes - 1) x budget, and an honest student is never cut short by another's turn."""

    def test_a_class_of_hostile_and_honest_students_ends_in_bounded_time(self):
        seconds, lanes = 0.6, 2
        wants = [(0.05, 0.05), (0.05, 30.0), (0.05, 0.05), (0.05, 30.0), (0.05, 0.05),
                 (0.05, 30.0), (0.05, 0.05), (0.05, 0.05)]  # (build, GPU) per student
        cut_short = {}
        with tempfile.TemporaryDirectory() as folder:
            pending = list(enumerate(wants))
            lock = threading.Lock()

            def lane():
                while True:
                    with lock:
                        if not pending:
                            return
                        index, (build, gpu) = pending.pop(0)
                    spent = budget.Budget(seconds, lanes=lanes)
                    time.sleep(build)
                    records = gpu_share.GpuRecords(folder).grader(f"student-{index}")
                    with spent.waiting():
                        turn = records.turn()
                        turn.__enter__()
                    try:
                        with spent.holding_gpu():
                            ends = time.monotonic() + gpu
                            while time.monotonic() < ends and not spent.expired():
                                time.sleep(0.01)
                    finally:
                        turn.__exit__(None, None, None)
                    cut_short[index] = spent.expired()
            started = time.monotonic()
            threads = [threading.Thread(target=lane) for _ in range(lanes)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            took = time.monotonic() - started
        bound = len(wants) * seconds / lanes + (lanes - 1) * seconds
        self.assertLess(took, bound + 0.5, (took, bound))
        self.assertEqual([index for index, cut in cut_short.items() if cut], [1, 3, 5])


if __name__ == "__main__":
    unittest.main()
