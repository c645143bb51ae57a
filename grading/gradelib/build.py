"""Copies a submission and builds its runners, in the sandbox (sandbox.py).

A submission is copied first: only the files a student writes (plan.Step.student_files), as
regular files (a link is refused), at most MAX_FILE_BYTES each, with the copy's time stamps
(newer than any prebuilt object, so the build recompiles what includes them). A step folder's
own launcher or any other file is not copied: steps 2 to 5 always use the course's launchers.

Every build is configured at the sandbox's fixed path (sandbox.BUILD), with the submission at
sandbox.SUBMISSION. The course is built once with the reference handed in as a submission
(the *pristine* tree: every runner and the judge); each student's build folder is a fresh
copy of it, so that a student compiles only the files that include their own (the generated
wrappers of course_add_kernel_library) and links the runners, and no student ever builds in a
folder another student's code could have written. The judge program is always taken from the
pristine tree, which no submission's code ever runs beside.
"""
import os
import pathlib
import shutil
import subprocess

from gradelib import inspection, plan, runner, sandbox as sandbox_module

MAX_FILE_BYTES = 1 << 20
JUDGE = "grading/course_judge"


def runner_program(step):
    """The runner's path inside a build folder."""
    return f"grading/grading_runner_{step.label}"


def copy_submission(source, target, steps):
    """Copies the student files of @p steps from the folder @p source into @p target.
    Returns {label: note} for the steps that cannot be graded (a file missing, a link, too
    large); their folders are not copied."""
    source, target = pathlib.Path(source), pathlib.Path(target)
    notes = {}
    for step in steps:
        folder = source / step.folder
        if folder.is_symlink() or not folder.is_dir():
            notes[step.label] = f"missing: no folder {step.folder} in the submission"
            continue
        problems = []
        for name in step.student_files:
            path = folder / name
            if path.is_symlink():
                problems.append(f"{name} is a link (hand in the file itself)")
            elif not path.is_file():
                problems.append(f"{name} missing")
            elif path.stat().st_size > MAX_FILE_BYTES:
                problems.append(f"{name} is larger than {MAX_FILE_BYTES} bytes")
        if problems:
            notes[step.label] = f"missing: {step.folder}/: " + "; ".join(problems)
            continue
        (target / step.folder).mkdir(parents=True, exist_ok=True)
        for name in step.student_files:
            shutil.copyfile(folder / name, target / step.folder / name)  # fresh time stamps
    for step in steps:
        missing = [need for need in step.needs if not (target / need).is_dir()]
        if step.label not in notes and missing:
            notes[step.label] = (f"missing: {step.folder} links the kernels of "
                                 f"{', '.join(missing)}, which the submission lacks")
    return notes


def course_version(course, version, target, steps):
    """Writes the reference's or the exercise's student files of @p steps as a submission
    folder at @p target (steps 2 to 5's exercise folders hold only kernels)."""
    course, target = pathlib.Path(course), pathlib.Path(target)
    for step in steps:
        origin = course / step.folder / ("exercise" if version == "exercise" else "")
        (target / step.folder).mkdir(parents=True, exist_ok=True)
        for name in step.student_files:
            given = origin / name if (origin / name).exists() else course / step.folder / name
            shutil.copyfile(given, target / step.folder / name)


def needed_folders(steps, all_steps):
    """The step folders to configure: the steps and the folders they need, in course order."""
    wanted = {step.folder for step in steps} | {need for step in steps for need in step.needs}
    return [step.folder for step in all_steps if step.folder in wanted]


def configure_arguments(folders, options, course):
    """cmake's configure arguments, with the sandbox's paths."""
    return (["cmake", "-S", sandbox_module.COURSE, "-B", sandbox_module.BUILD, "-G", "Ninja",
             f"-DCOURSE_KERNELS={sandbox_module.SUBMISSION}",
             "-DCOURSE_STEPS=" + ";".join(folders), "-DCOURSE_BUILD_TESTS=OFF"]
            + sandbox_module.replace_course_path(list(options.cmake_arg), course))


def _run(box, argv, build_dir, submission, timeout, log_path):
    return runner.run_limited(
        box.limited(box.command(argv, submission=submission, build=build_dir,
                                build_writable=True, cwd=sandbox_module.BUILD)),
        timeout, log_path=log_path)


def build_tree(box, build_dir, submission, steps, targets, options, out_dir, jobs):
    """Configures @p build_dir for the folders of @p steps and builds @p targets, in the
    sandbox (the build folder writable, nothing else). Returns (status, note)."""
    box.prepare_writable(build_dir)
    log = pathlib.Path(out_dir) / "configure.log"
    log.write_text("", encoding="utf-8")
    configured = _run(box, configure_arguments(needed_folders(steps, plan.STEPS), options,
                                               box.course),
                      build_dir, submission, options.configure_timeout, log)
    if configured.status != 0:
        why = (f"configure ran out of time ({options.configure_timeout} s)"
               if configured.timed_out else "does not configure: see configure.log")
        return False, why, "\n".join(configured.output.strip().splitlines()[-12:])
    log = pathlib.Path(out_dir) / "build.log"
    log.write_text("", encoding="utf-8")
    built = _run(box, ["cmake", "--build", sandbox_module.BUILD, "-j", str(jobs), "--target",
                       *targets, "--", "-k", "0"],
                 build_dir, submission, options.build_timeout, log)
    if built.timed_out:
        return False, f"build ran out of time ({options.build_timeout} s)", ""
    return True, "", built.output


def build_pristine(box, pristine, course, options, out_dir, jobs, steps=None):
    """The course built with the reference handed in as a submission: the runners of
    @p steps (default: every step) and the judge. Returns (ok, message)."""
    steps = [each for each in plan.STEPS if steps is None or each in steps
             or any(each.folder in other.needs for other in steps)]
    pristine = pathlib.Path(pristine)
    reference = pathlib.Path(out_dir) / "pristine-submission"
    shutil.rmtree(reference, ignore_errors=True)
    course_version(course, "reference", reference, steps)
    targets = [pathlib.PurePath(runner_program(step)).name for step in steps]
    ok, why, output = build_tree(box, pristine, reference, steps, targets + ["course_judge"],
                                 options, out_dir, jobs)
    if not ok:
        return False, why + "\n" + output
    missing = [name for name in [JUDGE] + [runner_program(step) for step in steps]
               if not (pristine / name).is_file()]
    if missing:
        return False, ("the course does not build with the reference: " + ", ".join(missing)
                       + " missing (see build.log; the judge needs Catch2: "
                       "-DCMAKE_PREFIX_PATH=.deps/usr)")
    inspection.course_kernel_names(pristine, box.seen_as(sandbox_module.SUBMISSION, reference))
    return True, ""


def fresh_copy(pristine, target):
    """A new build folder for one student: a copy of the pristine tree (time stamps and
    owner kept, so that nothing but the student's files is out of date)."""
    target = pathlib.Path(target)
    if target.exists():
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-a", "--reflink=auto", str(pristine), str(target)], check=True)
    return target


def step_errors(log_text, folder, count=8):
    """The first compiler error lines of a build log that concern one step folder (the
    explanation of a kernel that is not the interface's first: cmake/CourseDeviceOnlyCompile
    .cmake writes it after the compiler's message about nvcc's generated stub)."""
    lines = [line for line in log_text.splitlines()
             if folder in line and ("error" in line.lower() or "undefined reference" in line)]
    lines.sort(key=lambda line: "kernel interface" not in line)
    return "\n".join(line[:200] for line in lines[:count])


def build_submission(box, build_dir, submission, steps, options, out_dir, jobs):
    """Builds the runners of @p steps (the submission's complete steps) in @p build_dir.
    Returns ({label: runner path on the host}, {label: note})."""
    build_dir = pathlib.Path(build_dir)
    for step in steps:
        program = build_dir / runner_program(step)
        if program.exists():
            program.unlink()  # never grade a runner that no longer builds
    targets = [pathlib.PurePath(runner_program(step)).name for step in steps]
    ok, why, output = build_tree(box, build_dir, submission, steps, targets, options, out_dir,
                                 jobs)
    if not ok:
        return {}, {step.label: why for step in steps}
    built, notes = {}, {}
    for step in steps:
        program = build_dir / runner_program(step)
        if program.is_file():
            built[step.label] = program
        else:
            errors = step_errors(output, step.folder)
            notes[step.label] = "does not build: see build.log" + (
                " (" + errors.splitlines()[0][:160] + ")" if errors else "")
    return built, notes


def remove_tree(path):
    """Removes a build or scratch folder the sandbox wrote (links are removed, not
    followed)."""
    if os.path.lexists(path):
        shutil.rmtree(path, ignore_errors=True)
