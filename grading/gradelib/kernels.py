"""The kernels a student's files define, so that the sanitizer runs check those and not
the course's own kernels that the same tests launch (step 4's fast kernel, step 5's
approaches 2 and 4): an error there is not the student's, and instrumenting them only makes
the runs slower. The names are read from the student's files themselves, so a renamed
kernel is still checked; when no name is found, every kernel is checked."""
import pathlib
import re

# "__global__ void [__launch_bounds__(...)] name(" with templates and line breaks allowed.
_KERNEL = re.compile(r"__global__\s+(?:void\s+)?(?:__launch_bounds__\s*\([^)]*\)\s*)?"
                     r"(?:void\s+)?([A-Za-z_][A-Za-z_0-9]*)\s*\(")


def defined_kernels(text):
    """Names of the __global__ functions defined or declared in @p text."""
    return sorted(set(_KERNEL.findall(text)))


def step_kernels(folder_of, step, steps_by_folder):
    """Kernel names of a step's student files (and of the steps it links); @p folder_of
    maps a step folder name to the folder its student files come from. Files that do not
    exist are skipped."""
    names = set()
    for folder in (step.folder,) + tuple(step.needs):
        files = steps_by_folder[folder].student_files
        for name in files:
            path = pathlib.Path(folder_of(folder)) / name
            if path.is_file():
                names.update(defined_kernels(path.read_text(encoding="utf-8", errors="replace")))
    return sorted(names)


def submission_folder(source, kernels):
    """folder_of for COURSE_KERNELS=@p kernels (reference, exercise or a folder)."""
    if kernels == "reference":
        return lambda folder: pathlib.Path(source) / folder
    if kernels == "exercise":
        return lambda folder: pathlib.Path(source) / folder / "exercise"
    return lambda folder: pathlib.Path(kernels) / folder


def kernel_filter(names):
    """The compute-sanitizer arguments that restrict checking to @p names (none: all)."""
    if not names:
        return []
    return ["--kernel-name", "regex=" + "|".join(re.escape(name) for name in names)]
