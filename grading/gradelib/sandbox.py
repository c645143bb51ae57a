"""The sandbox every build and run of a submission goes through: bubblewrap (Debian's
`bubblewrap`, the `bwrap` command).

Inside, a submission sees the machine read-only (`--ro-bind / /`) with these exceptions:
- its own folders at fixed paths under VIRTUAL_ROOT: the course (read-only), its copied
  submission (read-only), its build (writable while it builds, read-only while it runs) and
  a scratch folder per run: a tmpfs of SCRATCH_SIZE bytes in which only the run's files
  (`run_files`: its inputs read-only, its outputs and its log writable) are the host's, so
  that a run writes at most RUN_FILE_LIMIT bytes to each of those and nothing else to disk;
- a fresh, empty /tmp (TMP_SIZE bytes, which also hides everything under the host's /tmp),
  and an empty folder over every path in `hide` (the class's students, the reports, the
  grader's work);
- a minimal /dev with only the NVIDIA device nodes added, a /dev/shm of SHM_SIZE bytes, a
  /proc of its own;
- new PID, network, IPC and UTS namespaces: no network (a loopback only), no process of the
  host to see or signal, and every process of the sandbox is killed when its first process
  ends or the grader kills the sandbox (setsid or double forks do not escape a PID namespace);
- run by root, the grader switches to an unprivileged user (UID 65534 by default) with no
  capabilities and no_new_privs inside (setpriv), so that files the host keeps from other
  users (mode 600, sockets such as a container daemon's) stay closed; run by another user,
  bwrap makes a user namespace and the submission keeps that user's rights on what it can
  see.

The fixed paths make a build tree movable between students: every build is configured at
VIRTUAL_ROOT/build, so a copy of the prebuilt course tree serves as a fresh build folder for
each student (build.py)."""
import glob
import os
import pathlib
import shutil
import subprocess
import sys

VIRTUAL_ROOT = "/tmp/judge"
COURSE = f"{VIRTUAL_ROOT}/course"
SUBMISSION = f"{VIRTUAL_ROOT}/submission"
BUILD = f"{VIRTUAL_ROOT}/build"
SCRATCH = f"{VIRTUAL_ROOT}/scratch"
DEFAULT_UID = 65534
# Limits of every sandboxed process (inherited by its children): no core files, no file
# larger than this, and a bound on the processes of the sandbox user (a fork bomb stops;
# the limit counts the processes of the user, so each lane of a class run has a user of its
# own: lane_uid).
FILE_SIZE_LIMIT = 4 << 30
PROCESS_LIMIT = 4096
# A run (not a build) writes no file larger than this: its outputs (a few MiB for the largest
# case) and its printout. A runner that prints more is stopped by SIGXFSZ, as a judge stops a
# program past its output limit; a 512 MiB flood then costs its own case, and the disk and
# the report nothing (case_runs.py keeps a bounded head and tail of each log).
RUN_FILE_LIMIT = 128 << 20
# How much lower than the runs a build or an inspection runs on the CPU (nice).
BUILD_NICENESS = 10
# The sizes of the sandbox's in-memory folders: /tmp (nvcc's temporary files during a build),
# /dev/shm, and the scratch folder of a run (its working folder and HOME).
TMP_SIZE = 1 << 30
SHM_SIZE = 1 << 30
SCRATCH_SIZE = 64 << 20
# The mutation check's submissions run as this user; a class run's lanes as lane_uid(k).
MUTATION_UID = 65533


def lane_uid(lane):
    """The sandbox user of lane @p lane of a class run: 65534 for the first, then 65532,
    65531, ... (never the mutation check's MUTATION_UID), so that a lane's processes count
    against its own process limit and a leftover names its lane."""
    return DEFAULT_UID if lane == 0 else MUTATION_UID - lane


PASSED_THROUGH = ("LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_HOME", "CUDA_PATH")

# Without util-linux's setpriv: the same with Python (no new privileges, then the user;
# changing the user from root to another clears every capability).
_PYTHON_DROP = ("import ctypes, os, sys; ctypes.CDLL(None).prctl(38, 1, 0, 0, 0); "
                "os.setgroups([]); os.setgid(int(sys.argv[1])); os.setuid(int(sys.argv[1])); "
                "os.execvp(sys.argv[2], sys.argv[2:])")


def _drop_privileges(uid):
    """The command prefix that runs what follows as @p uid with no capabilities and
    no_new_privs (set-user-ID programs gain nothing)."""
    if shutil.which("setpriv"):
        return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    return ["python3", "-c", _PYTHON_DROP, str(uid)]


# Without util-linux's prlimit: the same with Python (the limits, the niceness, then the
# command).
_PYTHON_LIMITS = ("import os, resource, sys; core, size, count, nice = map(int, sys.argv[1:5]); "
                  "resource.setrlimit(resource.RLIMIT_CORE, (core, core)); "
                  "resource.setrlimit(resource.RLIMIT_FSIZE, (size, size)); "
                  "resource.setrlimit(resource.RLIMIT_NPROC, (count, count)); os.nice(nice); "
                  "os.execvp(sys.argv[5], sys.argv[5:])")


def _limits(file_limit, niceness):
    """The command prefix that sets the limits of a sandboxed process before bwrap starts
    (everything it starts inherits them): no core files, no file over @p file_limit bytes,
    at most PROCESS_LIMIT processes of the user, @p niceness added. A program of its own
    sets them, not Popen's preexec_fn: the grader starts runs from several threads at once,
    and Python code run between fork and exec in a threaded process can deadlock (Python's
    documentation of preexec_fn); a run stuck there would time out having done nothing."""
    if shutil.which("prlimit") and shutil.which("nice"):
        return ["nice", "-n", str(niceness), "prlimit", "--core=0", f"--fsize={file_limit}",
                f"--nproc={PROCESS_LIMIT}", "--"]
    return [sys.executable or "python3", "-I", "-S", "-c", _PYTHON_LIMITS, "0",
            str(file_limit), str(PROCESS_LIMIT), str(niceness)]


class SandboxError(RuntimeError):
    """The sandbox cannot run here (no bwrap, no namespaces): grading stops with the reason,
    unless the instructor chose --no-sandbox."""


def _nvidia_devices():
    """The NVIDIA device nodes of this machine (none on a machine without a GPU)."""
    nodes = sorted(glob.glob("/dev/nvidia*"))
    return [node for node in nodes if os.path.exists(node)]


class Sandbox:
    """Builds bwrap command lines. @p course: the course tree on the host; @p hide: host
    paths to cover with an empty folder; @p enabled False runs commands as they are (the
    reports then say NOT SANDBOXED); @p uid: the user a root grader switches to."""

    def __init__(self, course, hide=(), enabled=True, uid=DEFAULT_UID, bwrap="bwrap"):
        self.course = pathlib.Path(course).resolve()
        self.hide = [pathlib.Path(path).resolve() for path in hide]
        self.enabled = enabled
        self.uid = uid
        self.bwrap = shutil.which(bwrap) if enabled else None
        self.as_root = os.geteuid() == 0
        if enabled and not self.bwrap:
            raise SandboxError("bwrap (Debian's bubblewrap) is not installed: install it "
                               "(apt-get install bubblewrap; on the GPU machine "
                               "stage-deps.sh bubblewrap) or grade with --no-sandbox, which "
                               "every report then marks NOT SANDBOXED")

    def describe(self):
        """One line for the reports."""
        if not self.enabled:
            return ("NOT SANDBOXED (--no-sandbox): the submissions ran as the grader's user, "
                    "with the network and every folder the grader can write")
        who = f"UID {self.uid}, no capabilities" if self.as_root else "the grader's user"
        return (f"bubblewrap sandbox ({who}; no network; course read-only; own build and "
                "scratch folders only; PID namespace killed at the time limit)")

    def owner(self):
        """(uid, gid) that must own the writable folders, or None (the grader's own)."""
        return (self.uid, self.uid) if self.enabled and self.as_root else None

    def prepare_writable(self, path):
        """Creates @p path (a folder the sandbox writes) and gives it to the sandbox user."""
        path = pathlib.Path(path)
        path.mkdir(parents=True, exist_ok=True)
        owner = self.owner()
        if owner:
            for folder, _, files in os.walk(path):
                os.chown(folder, *owner)
                for name in files:
                    os.chown(os.path.join(folder, name), *owner, follow_symlinks=False)
        return path

    def command(self, argv, submission=None, build=None, build_writable=False, scratch=None,
                env=None, cwd=None, run_files=None):
        """The command that runs @p argv (whose paths are the virtual ones) with the folders
        given bound at their virtual paths. @p env: variables to set (on top of PATH, HOME,
        TMPDIR and LANG; nothing else of the grader's environment goes in). @p run_files:
        [(name, writable)] of files in the host folder @p scratch: the scratch folder is then
        a tmpfs of SCRATCH_SIZE bytes holding only these files of the host (the host folder
        itself is not bound), so a run cannot fill the disk with other files."""
        environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
                       "HOME": SCRATCH if scratch else "/tmp", "TMPDIR": "/tmp",
                       "CUDA_CACHE_DISABLE": "1"}
        for name in PASSED_THROUGH:  # where the machine's CUDA lives, which GPU to use
            if name in os.environ:
                environment[name] = os.environ[name]
        environment.update(env or {})
        if not self.enabled:
            return self._unsandboxed(argv, submission, build, scratch, environment)
        command = [self.bwrap, "--die-with-parent", "--new-session", "--unshare-pid",
                   "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                   "--ro-bind", "/", "/", "--perms", "1777", "--size", str(TMP_SIZE),
                   "--tmpfs", "/tmp"]
        if not self.as_root:
            command += ["--unshare-user"]
        for path in self.hide:
            if path.exists() and not _under(path, pathlib.Path("/tmp")):
                command += ["--tmpfs", str(path)]
        command += ["--dev", "/dev", "--perms", "1777", "--size", str(SHM_SIZE),
                    "--tmpfs", "/dev/shm"]
        for node in _nvidia_devices():
            command += ["--dev-bind", node, node]
        command += ["--proc", "/proc", "--perms", "0755", "--dir", VIRTUAL_ROOT,
                    "--ro-bind", str(self.course), COURSE]
        if submission is not None:
            command += ["--ro-bind", str(submission), SUBMISSION]
        if build is not None:
            command += ["--bind" if build_writable else "--ro-bind", str(build), BUILD]
        if scratch is not None and run_files is not None:
            command += ["--perms", "1777", "--size", str(SCRATCH_SIZE), "--tmpfs", SCRATCH]
            for name, writable in run_files:
                command += ["--bind" if writable else "--ro-bind",
                            str(pathlib.Path(scratch) / name), f"{SCRATCH}/{name}"]
        elif scratch is not None:
            command += ["--bind", str(scratch), SCRATCH]
        command += ["--clearenv"]
        for key, value in environment.items():
            command += ["--setenv", key, str(value)]
        command += ["--chdir", cwd or (SCRATCH if scratch else VIRTUAL_ROOT), "--"]
        if self.as_root:
            command += _drop_privileges(self.uid)
        return command + [str(part) for part in argv]

    def _unsandboxed(self, argv, submission, build, scratch, environment):
        """--no-sandbox: the virtual paths are mapped back to the host's by a shell prefix;
        the command runs as it is."""
        replaced = [self.unmap(part, submission, build, scratch) for part in argv]
        env_args = [f"{key}={value}" for key, value in environment.items()]
        if scratch is not None:
            env_args = [arg if not arg.startswith("HOME=") else f"HOME={scratch}"
                        for arg in env_args]
        return ["env", *env_args, *replaced]

    def unmap(self, text, submission=None, build=None, scratch=None):
        """@p text with every virtual path written as the host's (--no-sandbox)."""
        text = str(text)
        for virtual, host in ((SCRATCH, scratch), (BUILD, build), (SUBMISSION, submission),
                              (COURSE, self.course)):
            if host is not None:
                text = text.replace(virtual, str(host))
        return text

    def seen_as(self, virtual, host):
        """How the sandboxed processes see the folder @p host bound at @p virtual: the
        virtual path, or the host's without a sandbox."""
        return virtual if self.enabled else str(pathlib.Path(host).resolve())

    def course_seen(self):
        """Where the sandboxed processes see the course."""
        return self.seen_as(COURSE, self.course)

    def host_path(self, virtual, submission=None, build=None, scratch=None):
        """The host path of a virtual path (for reading what a run wrote)."""
        for root, host in ((SCRATCH, scratch), (BUILD, build), (SUBMISSION, submission),
                           (COURSE, self.course)):
            if host is not None and (virtual == root or virtual.startswith(root + "/")):
                return pathlib.Path(str(host) + virtual[len(root):])
        raise ValueError(f"{virtual} is not under a bound folder")

    def limited(self, command, run=False):
        """@p command (a bwrap command line of command()) behind the limits of every sandboxed
        process (@p run: a run of a submission's program, whose files are limited to
        RUN_FILE_LIMIT bytes; else a build or an inspection, FILE_SIZE_LIMIT, at a lower CPU
        priority, BUILD_NICENESS: the runs of the student whose turn it is on the GPU go first,
        the other lanes' builds fill the cores they leave). Unchanged when not sandboxed."""
        if not self.enabled:
            return command
        file_limit = RUN_FILE_LIMIT if run else FILE_SIZE_LIMIT
        return _limits(file_limit, 0 if run else BUILD_NICENESS) + command

    def check(self, timeout=60):
        """Runs `true` and `id -u` in the sandbox; raises SandboxError naming what failed."""
        if not self.enabled:
            return "not sandboxed"
        try:
            result = subprocess.run(self.limited(self.command(["id", "-u"])),
                                    capture_output=True, text=True, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise SandboxError(f"bwrap does not run here: {error}") from None
        if result.returncode != 0:
            raise SandboxError("bwrap does not run here (no user or PID namespaces?): "
                               + (result.stderr.strip() or result.stdout.strip())[:300]
                               + "; grade with --no-sandbox only if you accept that "
                               "submissions then run unconfined (the reports say so)")
        uid = result.stdout.strip()
        if self.as_root and uid != str(self.uid):
            raise SandboxError(f"the sandbox runs as UID {uid}, not {self.uid}")
        return f"sandbox ready (runs as UID {uid})"


def _under(path, folder):
    try:
        path.relative_to(folder)
        return True
    except ValueError:
        return False


def replace_course_path(arguments, course):
    """CMake arguments with the host path of the course (e.g. in
    -DCMAKE_PREFIX_PATH=<course>/.deps/usr) written as the virtual one: a root grader's
    sandbox user may not pass through the folders above the host's course tree."""
    course = str(pathlib.Path(course).resolve())
    return [argument.replace(course, COURSE) for argument in arguments]
