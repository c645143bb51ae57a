"""Configures and builds a course tree with a student's kernels, under time limits.

One build directory serves a whole class: every student's configure changes only
COURSE_KERNELS (and COURSE_STEPS), so the build tool recompiles only the files behind the
student's kernels (the generated wrappers that include them) and relinks; everything else
(common, the tests, the course's kernels of steps 4 and 5) stays built from the first run.
"""
import pathlib
import shutil

from gradelib import runner


def copy_submission(source, target, steps, version="reference"):
    """Writes a student folder at @p target holding the files a student writes of every
    step in @p steps, copied from the course at @p source: the reference's or the
    exercise's. Steps 2 to 5's launchers are given (not part of the exercise): the course's."""
    source, target = pathlib.Path(source), pathlib.Path(target)
    for step in steps:
        origin = source / step.folder / ("exercise" if version == "exercise" else "")
        folder = target / step.folder
        folder.mkdir(parents=True, exist_ok=True)
        for name in step.student_files:
            given = origin / name if (origin / name).exists() else source / step.folder / name
            shutil.copy2(given, folder / name)


def check_submission(kernels, steps):
    """Which steps a submission can be built for. Returns (steps, {label: note}) where the
    notes say why a step is left out: its folder, a file a student writes, or a folder it
    needs is missing. 'reference' and 'exercise' have every step."""
    if kernels in ("reference", "exercise"):
        return list(steps), {}
    root = pathlib.Path(kernels)
    present, notes = [], {}
    for step in steps:
        folder = root / step.folder
        if not folder.is_dir():
            notes[step.label] = f"missing: no folder {step.folder} in the submission"
            continue
        missing = [name for name in step.student_files if not (folder / name).is_file()]
        missing_needs = [need for need in step.needs if not (root / need).is_dir()]
        if missing:
            notes[step.label] = f"missing: {step.folder}/ lacks {', '.join(missing)}"
        elif missing_needs:
            notes[step.label] = (f"missing: {step.folder} links the kernels of "
                                 f"{', '.join(missing_needs)}, which the submission lacks")
        else:
            present.append(step)
    return present, notes


def needed_folders(steps, all_steps):
    """The step folders to configure: the steps and the folders they need, in course order."""
    wanted = {step.folder for step in steps} | {need for step in steps for need in step.needs}
    return [step.folder for step in all_steps if step.folder in wanted]


def configure(source, build_dir, kernels, folders, options, log_path):
    """Runs the configure step; returns runner.Completed."""
    command = ["cmake", "-S", str(source), "-B", str(build_dir), f"-DCOURSE_KERNELS={kernels}",
               "-DCOURSE_STEPS=" + ";".join(folders)]
    if options.generator and not (pathlib.Path(build_dir) / "CMakeCache.txt").exists():
        command += ["-G", options.generator]
    return runner.run_limited(command + list(options.cmake_arg), options.configure_timeout,
                              log_path=log_path)


def step_errors(log_text, folder, count=8):
    """The first compiler error lines of a build log that concern one step folder."""
    lines = [line for line in log_text.splitlines()
             if folder in line and ("error" in line.lower() or "undefined reference" in line)]
    return "\n".join(line[:200] for line in lines[:count])


def build_steps(build_dir, steps, options, log_path):
    """Builds the test programs of @p steps (old ones are deleted first, so a program that
    no longer builds is never graded stale). Keeps going past a step that does not compile.
    Returns ({label: program path}, {label: note})."""
    build_dir = pathlib.Path(build_dir)
    for step in steps:
        program = build_dir / step.folder / step.program
        if program.exists():
            program.unlink()
    command = ["cmake", "--build", str(build_dir), "-j", str(options.jobs), "--target"]
    command += [step.program for step in steps]
    generator = options.generator or ""
    command += ["--", "-k", "0"] if "Ninja" in generator or (
        build_dir / "build.ninja").exists() else ["--", "-k"]
    result = runner.run_limited(command, options.build_timeout, log_path=log_path)
    built, notes = {}, {}
    for step in steps:
        program = build_dir / step.folder / step.program
        if program.exists() and not result.timed_out:
            built[step.label] = program
        elif result.timed_out:
            notes[step.label] = f"build ran out of time ({options.build_timeout} s)"
        else:
            errors = step_errors(result.output, step.folder)
            notes[step.label] = "does not build: see build.log" + (
                " (" + errors.splitlines()[0][:160] + ")" if errors else "")
    return built, notes


def configure_and_build(source, build_dir, kernels, steps, all_steps, options, out_dir):
    """Configures @p build_dir for the submission's complete steps and builds their test
    programs. Returns ({label: program}, {label: note}) over all @p steps."""
    present, notes = check_submission(kernels, steps)
    if not present:
        return {}, notes
    log = out_dir / "configure.log"
    log.write_text("")
    result = configure(source, build_dir, kernels, needed_folders(present, all_steps), options,
                       log)
    if result.status != 0:
        why = (f"configure ran out of time ({options.configure_timeout} s)" if result.timed_out
               else "does not configure: see configure.log")
        tail = "\n".join(result.output.strip().splitlines()[-12:])
        for step in present:
            notes[step.label] = why
        return {}, dict(notes, _configure=tail)
    build_log = out_dir / "build.log"
    build_log.write_text("")
    built, build_notes = build_steps(build_dir, present, options, build_log)
    notes.update(build_notes)
    return built, notes
