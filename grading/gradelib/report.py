"""Renders grades: a student's report (Markdown; the JSON is the rows themselves) and the
class table (Markdown and CSV)."""
import csv
import io

from gradelib import scoring


def _fence(text):
    return ["", "  ```"] + ["  " + line for line in text.splitlines()] + ["  ```"]


def step_table(rows):
    lines = ["| step | graded tests passed | sanitizer errors | course tests passed | not run "
             "| points | note |", "|---|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        course = (f"{row['course_passed']}/{row['course_total']}"
                  if not row.get("course_skipped") else "not run")
        lines.append(f"| {row['step']} | {row['graded_passed']}/{row['graded_total']} | "
                     f"{row['sanitizer_errors']} | {course} "
                     f"| {row['not_run']} | {row['points']}/{row['max_points']} | {row['note']} |")
    lines.append(f"| **total** | | | | | **{scoring.total_points(rows)}/"
                 f"{scoring.max_points(rows)}** | |")
    return lines


def student_report(rows, title, seed, replay):
    """The Markdown report of one grading run."""
    lines = [f"# {title}", "", f"Seed of this run: `{seed}` (replay: `{replay}`).", ""]
    lines += step_table(rows)
    lost = [(row["step"], test) for row in rows for test in row["tests"]
            if test["weight"] > 0 and not scoring.earns(test) and test["outcome"] != "not run"]
    if lost:
        lines += ["", "## Graded tests that lost points", ""]
        for step, test in lost:
            lines.append(f"- **{step}: {test['name']}** (weight {test['weight']}): "
                         + ("failed" if test["outcome"] == "failed" else "passed, but"))
            if test["outcome"] == "failed" and test["message"]:
                lines += _fence(test["message"])
            for run in scoring.sanitizer_failures(test):
                kernels = ", ".join(f"`{kernel}`" for kernel in run["kernels"]) or "kernel not named"
                lines.append(f"  - compute-sanitizer **{run['tool']}**: {run['outcome']}, "
                             f"{run['errors']} error(s) in {kernels}")
                if run["first_lines"]:
                    lines += ["  " + line for line in _fence(run["first_lines"])]
    problems = [(row["step"], problem) for row in rows for problem in row["course_problems"]]
    if problems:
        lines += ["", "## Course problems (no points involved: report them to the course)", ""]
        for step, problem in problems:
            lines.append(f"- {step}: {problem}")
            test = next((t for row in rows for t in row["tests"] if t["name"] == problem), None)
            if test and test["message"]:
                lines += _fence(test["message"])
    checked = [(row["step"], test, run) for row in rows for test in row["tests"]
               for run in test.get("sanitizers", [])]
    if checked:
        lines += ["", "## Sanitizer runs", "", "| step | test | tool | outcome | errors | s |",
                  "|---|---|---|---|---:|---:|"]
        lines += [f"| {step} | {test['name']} | {run['tool']} | {run['outcome']} | "
                  f"{run['errors']} | {run['seconds']} |" for step, test, run in checked]
    not_run = sum(row["not_run"] for row in rows)
    if not_run:
        lines += ["", f"{not_run} test(s) were not run: no GPU on this machine."]
    skipped = sum(row.get("course_skipped", 0) for row in rows)
    if skipped:
        lines += ["", f"The {skipped} course tests (no points) were not run for this "
                  "submission: they do not run the student's files, so a class run runs them "
                  "once, with its first submission (grade_class.py --course-tests once)."]
    return "\n".join(lines) + "\n"


CLASS_COLUMNS = ["student", "total", "step1", "step2", "step3", "step4", "step5",
                 "sanitizer errors", "seconds", "note", "report"]


def class_rows(students):
    """One row per student from [(name, grade JSON or None, seconds, note, report link)]."""
    rows = []
    for name, grade, seconds, note, link in students:
        points = {row["step"]: row["points"] for row in (grade or {}).get("steps", [])}
        notes = [note] if note else []
        notes += [f"{row['step']}: {row['note']}" for row in (grade or {}).get("steps", [])
                  if row["note"]]
        rows.append({"student": name, "total": grade["total_points"] if grade else 0.0,
                     **{f"step{n}": points.get(f"step{n}", 0.0) for n in range(1, 6)},
                     "sanitizer errors": sum(row["sanitizer_errors"] for row in grade["steps"])
                     if grade else 0,
                     "seconds": round(seconds), "note": "; ".join(notes), "report": link})
    return rows


def class_markdown(rows, title, header):
    lines = [f"# {title}", "", header, "", "| " + " | ".join(CLASS_COLUMNS) + " |",
             "|---|" + "---:|" * 8 + "---|---|"]
    for row in rows:
        cells = [str(row[column]).replace("|", "\\|") for column in CLASS_COLUMNS[:-1]]
        link = f"[report]({row['report']})" if row["report"] else "-"
        lines.append("| " + " | ".join(cells + [link]) + " |")
    return "\n".join(lines) + "\n"


def class_csv(rows):
    stream = io.StringIO()
    writer = csv.DictWriter(stream, fieldnames=CLASS_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return stream.getvalue()
