"""What a submission's compiled objects may hold, checked from its build (no student code runs
here). grading/README.md ("Threat model") says what each check guarantees and which test shows
it.

The student's objects are those whose recorded header dependencies (`ninja -t deps`) include
a file of the submission. For each:

- **Kernels** come from the object's symbols: nvcc emits a host stub `__device_stub__<mangled
  kernel>` for every `__global__` function. The student's kernels are those of the student's
  objects that no object of the course alone defines; the sanitizer runs check and charge
  these, and the evidence run looks for them.
- **Steps 2 to 5: no host code of the student.** Their kernel files are compiled for the GPU
  only (cmake/Course.cmake): the host part of each student object must be, section for
  section, the one the course's own files give (the same object in the pristine tree, built
  with the reference); only the device code (`.nv_fatbin`) may differ. A difference means
  that the build compiled something of the student's for the host, and costs the step.
- **Step 1: the launcher's allowlist** (launcher_rules.py): what the object defines and
  references, its sections, its code before main, system-call bytes, floating-point
  arithmetic, writable data.
- **Step 5: warp masks in the PTX** that the build assembled (warp_masks.py), kept beside
  each object in `<object>.device/`.

Each finding names its file, says what was found and why it is not allowed; it costs the
graded cases that run that file (scoring.py). An object that cannot be read is a problem of
its step ("could not be inspected"), which costs the step.
"""
import concurrent.futures
import dataclasses
import json
import pathlib
import re
import subprocess

from gradelib import elf, kernels, launcher_rules, runner, sandbox as sandbox_module, sanitizer
from gradelib import warp_masks

# Sections whose bytes may differ between a student's object and the course's in steps 2 to
# 5: the device code, and the symbol and string tables (compared symbol by symbol instead).
DEVICE_SECTIONS = {".nv_fatbin", ".symtab", ".strtab"}
# cudafe++ names an anonymous namespace `_GLOBAL__N__<hash>_<file>_<hash>`, the first hash
# from the source's path: the same in the sandbox's fixed paths, another in a build folder
# elsewhere (grade.py --no-sandbox). Compared with the hash left out.
ANONYMOUS_HASH = re.compile(rb"_GLOBAL__N__[0-9a-f]+_")


@dataclasses.dataclass
class Finding:
    """One rule a student's file breaks."""
    files: tuple  # the student files concerned (names within their step folder)
    rule: str  # launcher, host-code, warp-mask, inspection
    text: str

    def line(self):
        return f"{', '.join(self.files)}: {self.text}"


def student_objects(build_dir, submission_prefix=sandbox_module.SUBMISSION):
    """{object path (relative to the build): [student files it includes]} from ninja's
    record of each object's header dependencies (@p submission_prefix: where the build saw
    the submission)."""
    result = runner.run_limited(["ninja", "-C", str(build_dir), "-t", "deps"], 120)
    objects, current = {}, None
    for line in result.output.splitlines():
        if line and not line.startswith(" ") and ": #deps" in line:
            current = line.split(": #deps")[0]
        elif line.startswith("    ") and current:
            dependency = line.strip()
            if dependency.startswith(submission_prefix + "/"):
                relative = dependency[len(submission_prefix) + 1:]
                objects.setdefault(current, [])
                if relative not in objects[current]:
                    objects[current].append(relative)
    return objects


def _lines(command, timeout=120):
    result = runner.run_limited(command, timeout)
    return result.output.splitlines() if result.status == 0 else []


def demangle(names):
    """c++filt over @p names (in order)."""
    names = list(names)
    if not names:
        return []
    result = subprocess.run(["c++filt"], input="\n".join(names) + "\n", capture_output=True,
                            text=True, check=False)
    out = result.stdout.splitlines()
    return out if len(out) == len(names) else names


def object_kernels(path):
    """The kernels an object defines, as {mangled name: demangled name}."""
    mangled = set()
    for line in _lines(["nm", "-P", str(path)]):
        parts = line.split()
        kernel = launcher_rules.kernel_of_stub(parts[0]) if parts else None
        if kernel:
            mangled.add(kernel)
    mangled = sorted(mangled)
    return dict(zip(mangled, demangle(mangled)))


def kernel_base(demangled):
    """'void course::step9::tmpl_kernel<3>(float*)' -> 'tmpl_kernel'."""
    return kernels.base_name(sanitizer.kernel_name(demangled))


def course_kernels(build_dir, student_objs):
    """The base names of the kernels that objects of the course alone define."""
    names = set()
    for path in pathlib.Path(build_dir).rglob("*.o"):
        relative = str(path.relative_to(build_dir))
        if relative not in student_objs:
            names.update(kernel_base(name) for name in object_kernels(path).values())
    return sorted(names)


def course_kernel_names(pristine, submission_prefix=sandbox_module.SUBMISSION):
    """The kernels of the course's own objects in the pristine tree, read once and kept
    beside it (grade_class.py reads them before its first student)."""
    cache = pathlib.Path(pristine) / "grading-course-kernels.json"
    if cache.is_file():
        return json.loads(cache.read_text(encoding="utf-8"))
    names = course_kernels(pristine, student_objects(pristine, submission_prefix))
    cache.write_text(json.dumps(names), encoding="utf-8")
    return names


def launcher_findings(student_obj, reference_obj, files):
    """Step 1: the allowlist of launcher_rules.py over the object, against the course's own
    launcher object (the pristine tree's)."""
    reference = reference_obj if pathlib.Path(reference_obj).is_file() else None
    return [Finding(files, "launcher", text + " (step 1's launcher allowlist, "
                    "grading/README.md)")
            for text in launcher_rules.launcher_findings(student_obj, reference, demangle)]


def _symbols(obj):
    """The symbols of an object as comparable tuples (the fatbinary's size and the names of
    source files, nvcc's temporary files without --keep, left out)."""
    rows = []
    for symbol in obj.symbols:
        if symbol.type == elf.STT_FILE:
            continue
        section = obj.section_of(symbol)
        where = section.name if section else symbol.section
        size = 0 if where == ".nv_fatbin" else symbol.size
        name = ANONYMOUS_HASH.sub(b"_GLOBAL__N__#_", symbol.name.encode()).decode()
        rows.append((name, symbol.type, symbol.bind, where, symbol.value, size))
    return rows


def _same_bytes(first, second):
    return first == second or (
        ANONYMOUS_HASH.sub(b"_GLOBAL__N__#_", first) == ANONYMOUS_HASH.sub(b"_GLOBAL__N__#_",
                                                                           second))


def host_code_findings(student_obj, course_obj, files):
    """Steps 2 to 5: the host part of @p student_obj must be the course's (@p course_obj, the
    same object built from the reference); only the device code may differ."""
    if not pathlib.Path(course_obj).is_file():
        return [Finding(files, "inspection", f"could not be inspected: the course's "
                        f"{pathlib.Path(course_obj).name} is missing from the pristine tree")]
    student, course = elf.ElfObject(student_obj), elf.ElfObject(course_obj)
    ours = {section.name: section for section in course.sections}
    theirs = {section.name: section for section in student.sections}
    differing = sorted(name for name in set(ours) | set(theirs)
                       if name not in DEVICE_SECTIONS and (
                           name not in ours or name not in theirs
                           or not _same_bytes(ours[name].data, theirs[name].data)
                           or ours[name].flags != theirs[name].flags))
    if _symbols(student) != _symbols(course):
        differing.append("its symbols")
    if not differing:
        return []
    return [Finding(files, "host-code", "the host part of the compiled file differs from the "
                    f"course's ({', '.join(differing[:5])}): in this step the kernel files "
                    "are compiled for the GPU only, so the build compiled something of them "
                    "for the host (a kernel's name, template parameters, parameters or "
                    "linkage that are not the interface's)")]


def device_code(obj):
    """The PTX files the build kept for @p obj (cmake/CourseDeviceOnlyCompile.cmake)."""
    folder = pathlib.Path(str(obj) + ".device")
    return sorted(folder.glob("*.ptx")) if folder.is_dir() else []


def warp_findings(obj, files):
    """Step 5: the warp masks of every PTX file kept for @p obj."""
    ptx = device_code(obj)
    if not ptx:
        return [Finding(files, "inspection", f"could not be inspected: no PTX was kept for "
                        f"{pathlib.Path(obj).name} (the build must compile step 5's kernel "
                        "files through cmake/CourseDeviceOnlyCompile.cmake)")]
    findings = []
    for path in ptx:
        for text in warp_masks.ptx_findings(path.read_text(encoding="utf-8", errors="replace")):
            findings.append(Finding(files, "warp-mask", f"{text} ({path.name}): a warp "
                                    "instruction's mask must name the whole warp, or go "
                                    "through checked_shfl_xor_sync (warp_shuffle_check.cuh), "
                                    "which checks it when the kernel runs"))
    return findings


def object_findings(step, student_obj, course_obj, files, compare_host=True):
    """Every finding of one student object of @p step (a plan.Step); @p compare_host False
    leaves out the comparison of steps 2 to 5 with the course's object (the mutation check's
    mutants of the course's own launchers)."""
    try:
        if step.host_code:
            return launcher_findings(student_obj, course_obj, files)
        found = host_code_findings(student_obj, course_obj, files) if compare_host else []
        if step.warp_masks:
            found += warp_findings(student_obj, files)
        return found
    except (OSError, elf.ElfError) as error:
        return [Finding(files, "inspection", f"could not be inspected: {error}")]


@dataclasses.dataclass
class Inspection:
    """What the inspection of one submission's build found."""
    student_kernels: dict  # step label: [base names]
    findings: dict  # step label: [Finding]
    objects: dict  # object: [student files]
    problems: list  # what could not be inspected, "<step label>: ..." (costs the step)

    def charge_problems(self):
        """Turns every problem into a finding of its step (rule "inspection": it costs every
        case of the step); a problem that names no step costs every step."""
        for problem in self.problems:
            label = problem.split(":", 1)[0]
            for step in ([label] if label in self.findings else list(self.findings)):
                self.findings[step].append(Finding((), "inspection",
                                                   "could not be inspected: " + problem))


def inspect_build(box, build_dir, pristine, submission, steps, course_kernel_names, jobs=4,
                  compare_host=True):
    """Inspects the student's objects of @p steps in @p build_dir (host path) against the
    same objects of @p pristine (the course built with the reference); see object_findings
    for @p compare_host."""
    build_dir, pristine = pathlib.Path(build_dir), pathlib.Path(pristine)
    objects = student_objects(build_dir, box.seen_as(sandbox_module.SUBMISSION, submission))
    by_folder = {step.folder: step for step in steps}
    result = Inspection({step.label: [] for step in steps}, {step.label: [] for step in steps},
                        objects, [])
    work = []
    for obj, files in sorted(objects.items()):
        step = by_folder.get(files[0].split("/")[0])
        if step is None:
            continue
        names = tuple(sorted({path.split("/", 1)[-1] for path in files}))
        work.append((step, obj, names))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [(step, pool.submit(object_findings, step, build_dir / obj, pristine / obj,
                                      names, compare_host)) for step, obj, names in work]
        for step, obj, names in work:
            found = object_kernels(build_dir / obj).values()
            theirs = {kernel_base(name) for name in found} - set(course_kernel_names)
            result.student_kernels[step.label] = sorted(
                set(result.student_kernels[step.label]) | theirs)
        for step, future in futures:
            for finding in future.result():
                known = {(f.files, f.text) for f in result.findings[step.label]}
                if (finding.files, finding.text) not in known:
                    result.findings[step.label].append(finding)
    for step in steps:
        if not any(each is step for each, _, _ in work):
            result.problems.append(f"{step.label}: no compiled file of the step includes the "
                                   "submission's files")
    return result
