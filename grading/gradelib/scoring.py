"""Scores of a step from the outcomes of its tests.

The rule (stated in grading/README.md): a graded test earns its weight when its plain run
passes and every compute-sanitizer run of it reports no error (a sanitizer run that times
out counts as an error: the student's kernel made it too slow to check). A step earns
POINTS_PER_STEP times the weight earned over the weight of its graded tests. Course tests
earn nothing; a course test that fails is listed as a course problem, and so is a sanitizer
run whose findings all name the course's kernels (outcome "course errors", see kernels.py).
"""
from gradelib.plan import POINTS_PER_STEP


def sanitizer_failures(test):
    """The sanitizer runs of @p test that found errors (in the submission's kernels) or
    timed out."""
    return [run for run in test.get("sanitizers", []) if run["outcome"] in ("errors", "timed out")]


def stopped(test):
    """Whether a run of @p test was stopped (grading.py's stop_at_first_loss)."""
    return test["outcome"] == "stopped" or any(
        run["outcome"] == "stopped" for run in test.get("sanitizers", []))


def earns(test):
    """Whether a graded test earns its weight."""
    return test["outcome"] == "passed" and not sanitizer_failures(test) and not stopped(test)


def could_earn(test):
    """Whether a graded test earns its weight or might have, had its stopped runs gone on."""
    return test["outcome"] in ("passed", "stopped") and not sanitizer_failures(test)


def course_errors(test):
    """Sanitizer findings of @p test that name only the course's kernels: course problems."""
    return [f"{run['tool']} found {run['errors']} error(s) in the course's "
            f"{', '.join(run['kernels']) or 'kernels'} during '{test['name']}'"
            for run in test.get("sanitizers", []) if run["outcome"] == "course errors"]


def make_row(label, tests, note="", stale=()):
    """A row of the score table. @p tests: dicts with name, gpu, weight (0 for a course
    test), outcome (passed, failed, not run, stopped, or skipped: a course test left out by
    graded_only), message and sanitizers (a list of runs);
    @p stale: graded test names the program does not have."""
    graded = [test for test in tests if test["weight"] > 0]
    course = [test for test in tests if test["weight"] == 0]
    total_weight = sum(test["weight"] for test in graded)
    earned = sum(test["weight"] for test in graded if earns(test))
    possible = sum(test["weight"] for test in graded if could_earn(test))
    points = POINTS_PER_STEP * earned / total_weight if total_weight and not note else 0.0
    at_most = POINTS_PER_STEP * possible / total_weight if total_weight and not note else 0.0
    course_problems = [test["name"] for test in course if test["outcome"] == "failed"]
    course_problems += [problem for test in tests for problem in course_errors(test)]
    if stale:
        course_problems += [f"the grading plan names '{name}', which the test program does "
                            "not have" for name in stale]
    if not graded and not note:
        note = "no graded test found (course problem: the grading plan is stale)"
    return {
        "step": label,
        "graded_passed": sum(1 for test in graded if test["outcome"] == "passed"),
        "graded_total": len(graded),
        "sanitizer_errors": sum(len(sanitizer_failures(test)) for test in graded),
        "earned_weight": earned, "total_weight": total_weight,
        "course_passed": sum(1 for test in course if test["outcome"] == "passed"),
        "course_total": len(course),
        "not_run": sum(1 for test in tests if test["outcome"] == "not run"),
        "course_skipped": sum(1 for test in course if test["outcome"] == "skipped"),
        "stopped": sum(1 for test in tests if stopped(test)),
        "points": round(points, 1), "points_at_most": round(at_most, 1),
        "max_points": POINTS_PER_STEP, "note": note,
        "course_problems": course_problems, "tests": tests,
    }


def total_points(rows):
    return round(sum(row["points"] for row in rows), 1)


def max_points(rows):
    return sum(row["max_points"] for row in rows)
