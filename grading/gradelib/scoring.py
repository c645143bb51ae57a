"""Scores of a step from the outcomes of its cases.

The rule (stated in grading/README.md): a graded case earns its weight when
- its plain run's outputs pass the judge,
- every compute-sanitizer run of it reports no error in the student's kernels and its
  outputs pass the judge too (a run that times out counts as an error: the student's kernel
  made it too slow to check),
- its gate, the evidence case of its launcher, passed and its evidence run saw one of the
  student's kernels read the inputs on the GPU, and
- the static inspection found nothing in the files it runs.
A case, run or evidence run not run because the student's time budget was spent ("out of
time", budget.py) earns nothing.
A step earns POINTS_PER_STEP times the weight earned over the weight of its graded cases.
"""
from gradelib.budget import OUT_OF_TIME
from gradelib.plan import POINTS_PER_STEP


def sanitizer_failures(case):
    """The sanitizer runs of @p case that found errors (in the submission's kernels), timed
    out, computed wrong outputs or did not run because the student's time budget was spent."""
    return [run for run in case.get("sanitizers", [])
            if run["outcome"] in ("errors", "timed out", OUT_OF_TIME)]


def finding_costs(findings, case):
    """The findings of the inspection that concern a file @p case runs."""
    return [finding for finding in findings
            if set(finding.files) & set(case.get("files", [])) or finding.rule == "inspection"]


def stopped(case):
    """Whether a run of @p case was stopped (grading.py's stop_at_first_loss)."""
    return case["outcome"] == "stopped" or any(
        run["outcome"] == "stopped" for run in case.get("sanitizers", []))


def gate_of(case, cases):
    """(passed, reason) of the evidence case that gates @p case."""
    if not case.get("gate"):
        return True, ""
    gate = next((each for each in cases if each["name"] == case["gate"]), None)
    if gate is None:
        return False, f"its evidence case '{case['gate']}' is not in the judge"
    if gate["outcome"] == "not run":
        return False, "not run"
    if gate["outcome"] == OUT_OF_TIME:
        return False, f"its evidence case '{gate['name']}' was not run ({OUT_OF_TIME})"
    if gate["outcome"] != "passed":
        return False, f"its evidence case '{gate['name']}' failed"
    run = gate.get("evidence_run")
    if run is None:
        return (True, "") if gate.get("evidence_skipped") else (False, "no evidence run")
    if run["outcome"] == "stopped":
        return True, ""
    if run["outcome"] != "seen":
        return False, f"no student kernel was seen running ({run['message']})"
    return True, ""


def reasons(case, cases, findings):
    """Why a graded case does not earn its weight (empty: it does)."""
    why = []
    if case["outcome"] not in ("passed", "stopped"):
        why.append(case["outcome"])
    why += [f"{run['tool']} {run['outcome']}" for run in sanitizer_failures(case)]
    passed, reason = gate_of(case, cases)
    if not passed and reason != "not run":
        why.append(reason)
    why += [finding.line() for finding in finding_costs(findings, case)]
    return why


def earns(case, cases=(), findings=()):
    """Whether a graded case earns its weight."""
    return (case["outcome"] == "passed" and not reasons(case, cases, findings)
            and not stopped(case) and gate_of(case, cases)[0])


def could_earn(case, cases=(), findings=()):
    """Whether a graded case earns its weight or might have, had its stopped runs gone on."""
    return case["outcome"] in ("passed", "stopped") and not reasons(case, cases, findings)


def course_errors(case):
    """Sanitizer findings of @p case that name only the course's kernels: course problems."""
    return [f"{run['tool']} found {run['errors']} error(s) in the course's "
            f"{', '.join(run['kernels']) or 'kernels'} during '{case['name']}'"
            for run in case.get("sanitizers", []) if run["outcome"] == "course errors"]


def make_row(label, cases, note="", stale=(), findings=(), kernels=None, problems=()):
    """A row of the score table. @p cases: dicts with name, weight (0 for an evidence case),
    files, gate, outcome (passed, failed, not run, stopped), message, sanitizers (runs) and
    evidence_run; @p stale: names of the plan the judge does not have; @p findings: the
    inspection's findings of the step; @p kernels: the student's kernels found in the build."""
    graded = [case for case in cases if case["weight"] > 0]
    total_weight = sum(case["weight"] for case in graded)
    earned = sum(case["weight"] for case in graded if earns(case, cases, findings))
    possible = sum(case["weight"] for case in graded if could_earn(case, cases, findings))
    points = POINTS_PER_STEP * earned / total_weight if total_weight and not note else 0.0
    at_most = POINTS_PER_STEP * possible / total_weight if total_weight and not note else 0.0
    course_problems = [f"the grading plan names '{name}', which the judge does not have"
                       for name in stale] + list(problems)
    course_problems += [problem for case in cases for problem in course_errors(case)]
    if not graded and not note:
        note = "no graded case found (course problem: the grading plan is stale)"
    evidence = [case for case in cases if case["weight"] == 0]
    for case in graded:
        case["lost"] = [] if earns(case, cases, findings) else reasons(case, cases, findings)
    return {
        "step": label,
        "graded_passed": sum(1 for case in graded if case["outcome"] == "passed"),
        "graded_total": len(graded),
        "sanitizer_errors": sum(len(sanitizer_failures(case)) for case in graded),
        "earned_weight": earned, "total_weight": total_weight,
        "evidence_seen": sum(1 for case in evidence
                             if (case.get("evidence_run") or {}).get("outcome") == "seen"),
        "evidence_total": len(evidence),
        "findings": [{"files": list(f.files), "rule": f.rule, "text": f.text} for f in findings],
        "student_kernels": kernels,
        "not_run": sum(1 for case in cases if case["outcome"] == "not run"),
        "out_of_time": sum(1 for case in cases if case["outcome"] == OUT_OF_TIME or any(
            run["outcome"] == OUT_OF_TIME for run in case.get("sanitizers", []))),
        "stopped": sum(1 for case in cases if stopped(case)),
        "points": round(points, 1), "points_at_most": round(at_most, 1),
        "max_points": POINTS_PER_STEP, "note": note,
        "course_problems": course_problems, "tests": cases,
    }


def total_points(rows):
    return round(sum(row["points"] for row in rows), 1)


def max_points(rows):
    return sum(row["max_points"] for row in rows)
