"""Shared by the grader's CPU tests: the recorded data and fake programs."""
import pathlib
import stat
import sys
import textwrap

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE / "data"
GRADING = HERE.parent
sys.path.insert(0, str(GRADING))


def sample(name):
    return (DATA / name).read_text(encoding="utf-8")


def script(path, body):
    """Writes an executable Python script to @p path."""
    path = pathlib.Path(path)
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body), encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test(name, weight=0, outcome="passed", sanitizers=(), gpu=True, message=""):
    """A case entry as gradelib.grading makes them (no gate, no files)."""
    return {"name": name, "gpu": gpu, "weight": weight, "tools": [], "outcome": outcome,
            "message": message, "seconds": 0.1, "sanitizers": list(sanitizers), "files": [],
            "gate": "", "evidence": weight == 0, "evidence_run": None}


def sanitizer_run(tool, outcome="clean", errors=0, kernels=(), first_lines=""):
    return {"tool": tool, "outcome": outcome, "errors": errors, "kernels": list(kernels),
            "first_lines": first_lines, "seconds": 1.0}


