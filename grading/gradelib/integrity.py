"""Checks that grading changed nothing it should not: a snapshot of folders (every file's
size, time stamp and contents) before and after, and the processes a sandbox user left.

A class run snapshots the course tree, the students' submissions and the prebuilt course
before the first student and compares after the last; each submission may change only its
own report folder, so any difference there is reported (and makes the class run fail)."""
import hashlib
import os
import pathlib

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
    """[(pid, command)] of the processes that run as @p uid."""
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
        uid_line = next((line for line in status.splitlines() if line.startswith("Uid:")), "")
        if uid_line.split()[1:2] == [str(uid)]:
            found.append((int(entry.name), command[:120]))
    return found
