"""What a submission's compiled code and preprocessed source may contain, checked from its
build (no student code runs here).

The student's translation units are the objects whose recorded header dependencies
(`ninja -t deps`) include a file of the submission. For each:

- **Kernels** come from the object's symbols: nvcc emits a host stub
  `__device_stub__<mangled kernel>` for every `__global__` function, whatever the source
  looks like (`static`, templates, anonymous namespaces, macros, decoy comments). The
  student's kernels are those of the student's objects that no object of the course alone
  defines; the sanitizer runs check and charge these, and the evidence run looks for them.
- **Host code** is compared with the same object built from the reference (the pristine
  tree): a student's file may call no function the reference's does not, beyond a short list
  of harmless ones (HARMLESS: printing, math, the CUDA launch API), so no file, process,
  network, exit or host-device copy call; it may define no C function and no function of the
  C++ library or of the course outside its step (which would replace theirs at link time);
  it may run no code before main that the reference does not (static initializers: more
  `.init_array` entries, or init code reaching other functions); and it holds no system-call
  instruction.
- **Source** is checked after the preprocessor (source_rules.py): the step's forbidden
  primitives after macro expansion (step 5: raw warp shuffles and reductions), and macro
  tricks on what the course or the compiler defines.

Each finding names its file, says what was found and why it is not allowed; it costs the
graded cases that run that file (scoring.py).
"""
import concurrent.futures
import dataclasses
import json
import pathlib
import posixpath
import re
import subprocess

from gradelib import kernels, runner, sandbox as sandbox_module, sanitizer
from gradelib.source_rules import Finding, preprocess_commands, source_findings  # noqa: F401

# Undefined symbols a student's object may add to the reference's: printing to stdout or
# stderr, math, memory primitives the compiler emits, exceptions, guards and assertions, the
# course's CUDA checks, and the CUDA calls a launch, its configuration, device memory of its
# own and a synchronisation need. Not: copies between host and device (cudaMemcpy*, host or
# managed allocations), files, processes, the network, exits.
HARMLESS = re.compile(
    r"^(printf|puts|putchar|fputs|fputc|fprintf|fwrite|fflush|vprintf|vfprintf|stdout|stderr"
    r"|memcpy|memset|memmove|memcmp|strlen|__stack_chk_fail|_Unwind_Resume|__gxx_personality_v0"
    r"|__cxa_(guard_acquire|guard_release|guard_abort|throw|allocate_exception|free_exception"
    r"|begin_catch|end_catch|rethrow|pure_virtual|atexit)|__dso_handle|atexit"
    r"|_Zn[wa]m\w*|_Zd[la]Pv\w*|_ZSt(9terminate|17__throw_\w+|20__throw_\w+|\d+__throw_\w+)\w*"
    r"|_ZSt4(cout|cerr|clog)|_ZNSo\w*|_ZStlsI\w*|_ZSt16__ostream_insert\w*|_ZSt4endl\w*"
    r"|_ZNSt7__cxx1112basic_string\w*|_ZNSt7__cxx1119basic_ostringstream\w*|_ZTV\w*|_ZTI\w*"
    r"|_ZNSt\d+(invalid_argument|runtime_error|logic_error|out_of_range|length_error)\w*"
    r"|(sqrt|cbrt|exp|exp2|log|log2|log10|pow|fma|floor|ceil|round|trunc|fabs|sin|cos|tan"
    r"|fmin|fmax|ldexp|frexp|modf)[fl]?"
    r"|__cuda\w+|cudaLaunchKernel\w*|cudaGetLastError|cudaPeekAtLastError|cudaGetErrorString"
    r"|cudaGetErrorName|cudaFuncSetAttribute|cudaFuncGetAttributes|cudaOccupancy\w+"
    r"|cudaGetDevice|cudaDeviceGetAttribute|cudaGetDeviceProperties\w*|cudaGetDeviceCount"
    r"|cudaMalloc|cudaFree|cudaMallocAsync|cudaFreeAsync|cudaMemset\w*|cudaDeviceSynchronize"
    r"|cudaStreamSynchronize|__assert_fail"
    r"|_ZN6course(10check_cuda|12check_launch)\w*|_ZN6course9CudaError\w*|_ZTIN6course9CudaErrorE)$")
# What nvcc's registration of the fatbinary, its kernels and __device__ variables reaches
# from a static initializer: always allowed there.
REGISTRATION = re.compile(r"^(__cuda\w+|atexit|__cxa_atexit|__dso_handle)$")
SYSCALL = re.compile(r"\t(syscall|sysenter|int\s+\$0x80)\b")
STEP_NAMESPACE = re.compile(r"^course::step\d+::")
LIBRARY_NAMESPACE = re.compile(r"^(std|__gnu_cxx|__cxxabiv1|course)::")
STUB = re.compile(r"^__device_stub__(Z\S*?)\(")


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
    for line in _lines(["nm", "-C", str(path)]):
        parts = line.split(None, 2)
        match = STUB.match(parts[-1]) if parts else None
        if match:
            mangled.add("_" + match.group(1))
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


def symbols(path):
    """(defined {name: type letter}, undefined set) of an object (nm -P)."""
    defined, undefined = {}, set()
    for line in _lines(["nm", "-P", str(path)]):
        parts = line.split()
        if len(parts) >= 2:
            name, kind = parts[0], parts[1]
            if kind == "U":
                undefined.add(name)
            else:
                defined[name] = kind
    return defined, undefined


def _disassembly(path):
    return "\n".join(_lines(["objdump", "-dr", "--no-show-raw-insn", str(path)]))


_FUNCTION = re.compile(r"^([0-9a-f]+) <(.+)>:$")
_SECTION = re.compile(r"^Disassembly of section (\S+):$")
_RELOCATION = re.compile(r"^\s+[0-9a-f]+: R_X86_64_\w+\s+(\S+?)(?:[-+]0x[0-9a-f]+)?$")
_SECTION_TARGET = re.compile(r"^(\.text[\w.]*)\+?(0x[0-9a-f]+)?$")


def _functions(disassembly):
    """{name: (section, start, [relocation targets])} from objdump -dr."""
    functions, section, current = {}, "", None
    for line in disassembly.splitlines():
        match = _SECTION.match(line)
        if match:
            section = match.group(1)
            continue
        match = _FUNCTION.match(line)
        if match:
            current = match.group(2)
            functions[current] = (section, int(match.group(1), 16), [])
            continue
        match = _RELOCATION.match(line)
        if match and current:
            functions[current][2].append(line.split()[-1])
    return functions


def _resolve(target, functions):
    """The function of this object a relocation target names (a symbol or section+offset)."""
    base = re.sub(r"[-+]0x[0-9a-f]+$", "", target)
    if base in functions:
        return base
    match = re.match(r"^(\.text[\w.]*)(?:\+0x([0-9a-f]+))?$", target)
    if not match:
        return None
    section, offset = match.group(1), int(match.group(2) or "0", 16)
    best = None
    for name, (where, start, _) in functions.items():
        if where == section and start <= offset and (best is None or start > functions[best][1]):
            best = name
    return best


def init_reach(path, disassembly):
    """(number of static-initializer entries, external symbols their code reaches)."""
    entries = [line.split()[-1] for line in _lines(["objdump", "-r", "-j", ".init_array",
                                                     str(path)])
               if "R_X86_64" in line]
    functions = _functions(disassembly)
    seen, todo, external = set(), [], set()
    for target in entries:
        name = _resolve(target, functions)
        if name:
            todo.append(name)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for target in functions[name][2]:
            local = _resolve(target, functions)
            if local:
                todo.append(local)
            elif not target.startswith("."):
                external.add(re.sub(r"[-+]0x[0-9a-f]+$", "", target))
    return len(entries), external


def host_findings(student_obj, baseline_obj, files):
    """The host-code rules for one student object against the reference's."""
    findings = []
    defined, undefined = symbols(student_obj)
    base_defined, base_undefined = symbols(baseline_obj) if baseline_obj.exists() else ({}, set())
    extra = sorted(name for name in undefined - base_undefined if not HARMLESS.match(name))
    if extra:
        shown = ", ".join(demangle(extra[:6])) + (" ..." if len(extra) > 6 else "")
        findings.append(Finding(files, "host-symbols", f"calls {shown}, which the course's "
                                "version does not: a step's files launch kernels; files, "
                                "processes, the network, exits and host-device copies are "
                                "not theirs"))
    new = [name for name, kind in defined.items()
           if kind in "TDBRWVui" and name not in base_defined]
    plain = [name for name in new if not name.startswith("_Z") and not name.startswith(".")]
    readable = dict(zip(new, demangle(new)))
    foreign = [readable[name] for name in new if name.startswith("_Z")
               and LIBRARY_NAMESPACE.match(readable[name])
               and not STEP_NAMESPACE.match(readable[name])
               and (defined[name] not in "WVu" or readable[name].startswith("course::"))]
    if plain or foreign:
        findings.append(Finding(files, "host-definitions", "defines "
                                + ", ".join((plain + foreign)[:6]) + ", which belong to the C "
                                "or C++ library or to the course: a definition there would "
                                "replace theirs when the program is linked"))
    disassembly = _disassembly(student_obj)
    count, reach = init_reach(student_obj, disassembly)
    base_count, base_reach = (init_reach(baseline_obj, _disassembly(baseline_obj))
                              if baseline_obj.exists() else (0, set()))
    more = sorted(name for name in reach - base_reach if not REGISTRATION.match(name))
    if count > base_count or more:
        detail = f" (it calls {', '.join(demangle(more[:5]))})" if more else ""
        findings.append(Finding(files, "static-initializer", "runs code before main (a static "
                                f"initializer){detail}: a step's files may not run anything "
                                "the grader did not call"))
    if SYSCALL.search(disassembly):
        findings.append(Finding(files, "system-call", "holds a system-call instruction "
                                "(inline assembly): a step's files may not talk to the kernel"))
    return findings


def object_key(output, directory, build_dir=sandbox_module.BUILD):
    """The path of an object as ninja names it (relative to the build folder) from a
    compile_commands.json "output": CMake before 4 writes it relative to "directory" (the
    build folder), CMake 4 absolute (where the build was configured: the sandbox's fixed
    path, or the host's without a sandbox)."""
    path = posixpath.normpath(output)
    if posixpath.isabs(path):
        for root in (directory, build_dir):
            if root and (path + "/").startswith(posixpath.normpath(root) + "/"):
                return posixpath.relpath(path, posixpath.normpath(root))
    return path


def compile_commands(build_dir):
    """{object path relative to the build: compile_commands.json entry} of @p build_dir (host
    path); {} when it has none."""
    database = pathlib.Path(build_dir) / "compile_commands.json"
    entries = {}
    if not database.is_file():
        return entries
    for entry in json.loads(database.read_text(encoding="utf-8")):
        output = entry.get("output")
        if not output:
            match = re.search(r"(?:^|\s)-o\s+(\S+)", entry.get("command", ""))
            output = match.group(1) if match else ""
        if output:
            key = object_key(output, entry.get("directory", ""), str(build_dir))
            entries[key] = entry
    return entries


def ninja_command(build_dir, obj):
    """The command ninja runs to build @p obj, as a compile_commands.json entry, or None."""
    result = runner.run_limited(["ninja", "-C", str(build_dir), "-t", "commands", "-s", obj],
                                120)
    lines = [line for line in result.output.splitlines() if line.strip()]
    if result.status != 0 or not lines or " -c " not in f" {lines[-1]} ":
        return None
    return {"command": lines[-1], "output": obj}


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
                  timeout=300, source=True):
    """Inspects the student's objects of @p steps in @p build_dir (host path) against the
    same objects of @p pristine; runs the preprocessor in the sandbox (not with
    @p source False: the mutation check's honest mutants)."""
    build_dir, pristine = pathlib.Path(build_dir), pathlib.Path(pristine)
    objects = student_objects(build_dir, box.seen_as(sandbox_module.SUBMISSION, submission))
    by_folder = {step.folder: step for step in steps}
    entries = compile_commands(build_dir)
    result = Inspection({step.label: [] for step in steps}, {step.label: [] for step in steps},
                        objects, [])
    work = []
    for obj, files in sorted(objects.items()):
        folder = files[0].split("/")[0]
        step = by_folder.get(folder)
        if step is None:
            continue
        names = tuple(sorted({path.split("/", 1)[-1] for path in files}))
        work.append((step, obj, names))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = []
        for step, obj, names in work:
            futures.append((step, pool.submit(host_findings, build_dir / obj, pristine / obj,
                                              names)))
            if not source:
                continue
            entry = entries.get(obj) or ninja_command(build_dir, obj)
            if entry is None:
                result.problems.append(f"{step.label}: {obj}: no compile command recorded (in "
                                       "compile_commands.json or build.ninja)")
                continue
            for pass_name, command in preprocess_commands(entry):
                futures.append((step, pool.submit(_preprocess_findings, box, build_dir,
                                                  submission, command, step.label, pass_name,
                                                  timeout)))
        for step, obj, names in work:
            found = object_kernels(build_dir / obj).values()
            theirs = {kernel_base(name) for name in found} - set(course_kernel_names)
            result.student_kernels[step.label] = sorted(
                set(result.student_kernels[step.label]) | theirs)
        for step, future in futures:
            findings = future.result()
            if isinstance(findings, str):
                result.problems.append(findings)
                continue
            for finding in findings:
                known = {(f.files, f.text) for f in result.findings[step.label]}
                if (finding.files, finding.text) not in known:
                    result.findings[step.label].append(finding)
    # Step 3 links step 2's kernels: its objects are step 2's, so step 3 adds its own only.
    return result


def _preprocess_findings(box, build_dir, submission, command, step_label, pass_name, timeout):
    result = runner.run_limited(box.command(command, submission=submission, build=build_dir,
                                            cwd=sandbox_module.BUILD),
                                timeout, preexec=box.preexec())
    if result.status != 0:
        return (f"{step_label}: the preprocessor failed ({pass_name}): "
                + runner.first_lines(result.output, 3))
    return source_findings(result.output, step_label, pass_name,
                           box.seen_as(sandbox_module.SUBMISSION, submission),
                           box.course_seen())
