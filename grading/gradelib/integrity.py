"""Checks that grading changed nothing it should not: a snapshot of folders (every file's
size, time stamp and contents) before and after, and the processes a sandbox user left.

A class run snapshots the course tree, the students' submissions and the prebuilt course
before the first student and compares after the last; each submission may change only its
own report folder, so any difference there is reported (and makes the class run fail)."""
import ctypes
import hashlib
import os
import pathlib
import signal
import time

HASH_LIMIT = 64 << 20  # larger files are compared by size and time stamp only


def snapshot(roots, exclude=()):
    """{path: (kind, size, mtime_ns, digest)} of every file, link and folder under @p roots,
    leaving out the folders @p exclude (and what is under them)."""
    exclude = [pathlib.Path(path).resolve() for path in exclude]
    entries = {}
    for root in roots:
        root = pathlib.Path(root).resolve()
        for folder, subfolders, files in os.walk(root):
            here = pathlib.Path(folder)
            subfolders[:] = [name for name in subfolders
                             if (here / name).resolve() not in exclude and name != "__pycache__"]
            entries[str(here)] = ("folder", 0, 0, "")
            for name in files:
                path = here / name
                info = path.lstat()
                digest = ""
                if path.is_symlink():
                    digest = os.readlink(path)
                elif info.st_size <= HASH_LIMIT:
                    try:
                        digest = hashlib.sha256(path.read_bytes()).hexdigest()
                    except OSError:
                        digest = "unreadable"
                entries[str(path)] = ("link" if path.is_symlink() else "file", info.st_size,
                                      info.st_mtime_ns, digest)
    return entries


def build_folders(course):
    """The course's own build folders (build, build-gpu, ...) and .git: what an instructor may
    be doing beside a class run, never a submission's business (its sandbox sees them
    read-only)."""
    course = pathlib.Path(course)
    return [entry for entry in course.iterdir()
            if entry.name == ".git" or entry.name.startswith("build")]


def compare(before, after):
    """The differences: ["changed PATH", "added PATH", "removed PATH"]."""
    changes = [f"removed {path}" for path in sorted(set(before) - set(after))]
    changes += [f"added {path}" for path in sorted(set(after) - set(before))]
    changes += [f"changed {path}" for path in sorted(set(before) & set(after))
                if before[path] != after[path] and before[path][0] != "folder"]
    return changes


def processes_of(uid):
    """[(pid, command)] of the processes that run as @p uid (zombies included: a zombie has
    no command line, so its name and state stand for it)."""
    return [(pid, command) for pid, command, _, _ in process_details(uid)]


def process_details(uids):
    """[(pid, command, state, parent pid)] of the processes that run as one of @p uids (a
    number or several)."""
    wanted = {str(uid) for uid in (uids if isinstance(uids, (list, tuple, set)) else [uids])}
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                errors="replace").strip()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("Uid", "").split()[:1] and fields["Uid"].split()[0] in wanted:
            state = fields.get("State", "").strip()
            name = fields.get("Name", "").strip()
            found.append((int(entry.name), command[:120] or f"[{name}]", state,
                          int(fields.get("PPid", "0").strip() or 0)))
    return found


def describe(details):
    """One line per leftover: pid, state, parent and command."""
    return [f"pid {pid} ({state}, parent {parent} {_name_of(parent)}): {command}"
            for pid, command, state, parent in details]


def _name_of(pid):
    try:
        return pathlib.Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return "?"


# prctl(PR_SET_CHILD_SUBREAPER): a grader that is one adopts the processes its children leave
# behind (a killed grade.py's sandboxes) instead of the machine's first process, which in a
# container often never reaps them (they stay zombies of the sandbox user).
PR_SET_CHILD_SUBREAPER = 36


def become_subreaper():
    """Makes this process the reaper of its descendants' orphans (Linux); False elsewhere."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def reap_orphans(keep=()):
    """Reaps this process's zombie children except @p keep (pids a subprocess.Popen still
    waits for): orphans adopted as a subreaper. Returns how many were reaped."""
    reaped = 0
    me = os.getpid()
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in keep:
            continue
        try:
            fields = dict(line.split(":", 1) for line in (entry / "status").read_text()
                          .splitlines() if ":" in line)
        except OSError:
            continue
        if int(fields.get("PPid", "0").strip() or 0) == me and \
                fields.get("State", "").strip().startswith("Z"):
            try:
                os.waitpid(int(entry.name), os.WNOHANG)
                reaped += 1
            except ChildProcessError:
                pass
    return reaped


def settle(uids, wait=15.0, kill=False, keep=()):
    """Waits up to @p wait seconds for the processes of @p uids to end (a GPU context can take
    a few seconds to be torn down), reaping adopted orphans meanwhile; with @p kill, then
    sends SIGKILL to each one left, by its pid, and waits again. Returns the details
    (process_details) of those still there."""
    deadline = time.monotonic() + wait
    while True:
        reap_orphans(keep)
        left = process_details(uids)
        if not left or time.monotonic() >= deadline:
            break
        time.sleep(0.2)
    if left and kill:
        for pid, _, state, _ in left:
            if not state.startswith("Z"):
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        return settle(uids, wait=min(wait, 5.0), kill=False, keep=keep)
    return left
