"""Renders grades: a student's report (Markdown; the JSON is the rows themselves) and the
class table (Markdown and CSV)."""
import csv
import io

from gradelib import scoring


def _fence(text):
    return ["", "  ```"] + ["  " + line for line in text.splitlines()] + ["  ```"]


def step_table(rows):
    lines = ["| step | graded cases passed | sanitizer errors | kernels seen running | findings "
             "| not run | points | note |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        lines.append(f"| {row['step']} | {row['graded_passed']}/{row['graded_total']} | "
                     f"{row['sanitizer_errors']} | {row.get('evidence_seen', 0)}/"
                     f"{row.get('evidence_total', 0)} | {len(row.get('findings', []))} "
                     f"| {row['not_run']} | {row['points']}/{row['max_points']} | {row['note']} |")
    lines.append(f"| **total** | | | | | | **{scoring.total_points(rows)}/"
                 f"{scoring.max_points(rows)}** | |")
    return lines


def time_line(time_used):
    """One sentence on the student's time budget (budget.Budget.summary), or ""."""
    if not time_used:
        return ""
    budget = time_used.get("budget_seconds")
    text = (f"Time: {time_used['wall_seconds']} s after the course's build, of which "
            f"{time_used['waited_for_gpu']} s waiting for the GPU (not charged) and a turn on "
            f"the GPU of {time_used['gpu_turn']} s")
    if budget:
        lanes = time_used["lanes"]
        text += (f" (charged {'once' if lanes == 1 else f'{lanes} times'}, once per lane of "
                 f"the class): {time_used['spent']} s of a budget of {budget:g} s")
        if time_used.get("expired"):
            text += ", **spent: the cases not run by then scored 0**"
    return text + "."


def student_report(rows, title, seed, replay, sandbox_line="", time_used=None):
    """The Markdown report of one grading run (@p time_used: budget.Budget.summary())."""
    lines = [f"# {title}", "", f"Seed of this run: `{seed}` (replay: `{replay}`).", ""]
    if sandbox_line:
        lines += [f"Ran in: {sandbox_line}.", ""]
    if time_used:
        lines += [time_line(time_used), ""]
    lines += step_table(rows)
    findings = [(row["step"], finding) for row in rows for finding in row.get("findings", [])]
    if findings:
        lines += ["", "## Findings of the inspection (each costs the cases that run its file)",
                  ""]
        lines += [f"- {step}: `{', '.join(finding['files'])}` ({finding['rule']}): "
                  f"{finding['text']}" for step, finding in findings]
    lost = [(row["step"], case) for row in rows for case in row["tests"]
            if case["weight"] > 0 and case.get("lost") and case["outcome"] != "not run"]
    if lost:
        lines += ["", "## Graded cases that lost points", ""]
        for step, case in lost:
            lines.append(f"- **{step}: {case['name']}** (weight {case['weight']}): "
                         + "; ".join(reason.splitlines()[0][:200] for reason in case["lost"]))
            if case["outcome"] == "failed" and case["message"]:
                lines += _fence(case["message"])
            for run in scoring.sanitizer_failures(case):
                kernels = ", ".join(f"`{kernel}`" for kernel in run["kernels"]) or "kernel not named"
                lines.append(f"  - compute-sanitizer **{run['tool']}**: {run['outcome']}, "
                             f"{run['errors']} error(s) in {kernels}")
                if run["first_lines"]:
                    lines += ["  " + line for line in _fence(run["first_lines"])]
    gates = [(row["step"], case) for row in rows for case in row["tests"] if case["weight"] == 0]
    if gates:
        lines += ["", "## Evidence that the student's kernels ran on the GPU", "",
                  "| step | evidence case | outcome | kernels seen reading the inputs |",
                  "|---|---|---|---|"]
        for step, case in gates:
            run = case.get("evidence_run") or {}
            outcome = run.get("outcome") or case["outcome"]
            detail = ", ".join(f"`{name}`" for name in run.get("kernels", [])) or (
                run.get("message") or case["message"].splitlines()[0][:120]
                if (run.get("message") or case["message"]) else "-")
            detail = detail.replace("|", "\\|")  # a sanitizer's words must not end the cell
            lines.append(f"| {step} | {case['name']} | {outcome} | {detail} |")
    problems = [(row["step"], problem) for row in rows for problem in row["course_problems"]]
    if problems:
        lines += ["", "## Course problems (report them to the course)", ""]
        lines += [f"- {step}: {problem}" for step, problem in problems]
    checked = [(row["step"], case, run) for row in rows for case in row["tests"]
               for run in case.get("sanitizers", [])]
    if checked:
        lines += ["", "## Sanitizer runs", "", "| step | case | tool | outcome | errors | s |",
                  "|---|---|---|---|---:|---:|"]
        lines += [f"| {step} | {case['name']} | {run['tool']} | {run['outcome']} | "
                  f"{run['errors']} | {run['seconds']} |" for step, case, run in checked]
    not_run = sum(row["not_run"] for row in rows)
    if not_run:
        lines += ["", f"{not_run} case(s) were not run: no GPU on this machine."]
    return "\n".join(lines) + "\n"


CLASS_COLUMNS = ["student", "total", "step1", "step2", "step3", "step4", "step5",
                 "sanitizer errors", "findings", "seconds", "note", "report"]


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
                     "findings": sum(len(row.get("findings", [])) for row in grade["steps"])
                     if grade else 0,
                     "seconds": round(seconds), "note": "; ".join(notes), "report": link})
    return rows


def class_markdown(rows, title, header):
    lines = [f"# {title}", "", header, "", "| " + " | ".join(CLASS_COLUMNS) + " |",
             "|---|" + "---:|" * 9 + "---|---|"]
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
