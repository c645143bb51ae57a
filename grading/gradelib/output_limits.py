"""Bounds on what a submission's programs print: the grader never reads more than a head and a
tail of an output into memory, and every log it keeps is cut to a head and a tail once the
program has ended, so that a run that prints 512 MiB costs neither the disk nor the report.

While a run goes on, its files are bounded by the sandbox (sandbox.RUN_FILE_LIMIT per file,
RLIMIT_FSIZE: a runner past it is stopped by SIGXFSZ); these bounds are for what stays.
"""
import os
import stat

# What the grader reads of a program's output (a sanitizer's report ends with its summary,
# which the tail keeps; a compiler's first errors are in the head).
READ_HEAD = 1 << 20
READ_TAIL = 3 << 20
# What stays of a log once its program has ended: a build's or a sanitizer's log, and the
# runner's own printout (which only the report's "the runner printed" lines quote).
LOG_LIMIT = 4 << 20
RUNNER_LOG_LIMIT = 64 << 10


def marker(cut):
    """The line that stands for @p cut bytes left out."""
    return f"\n[... {cut} bytes of output left out by the grader ...]\n".encode()


def read_bounded(stream, start, head=READ_HEAD, tail=READ_TAIL):
    """The bytes of the open file @p stream from offset @p start to its end: all of them when
    they fit in @p head + @p tail, else the first @p head and the last @p tail with a marker
    between."""
    end = stream.seek(0, os.SEEK_END)
    size = end - start
    stream.seek(start)
    if size <= head + tail:
        return stream.read(size)
    first = stream.read(head)
    stream.seek(end - tail)
    return first + marker(size - head - tail) + stream.read(tail)


def cap_file(path, limit=LOG_LIMIT):
    """Cuts the file @p path (not followed if it is a link) to at most about @p limit bytes:
    its first quarter and last three quarters, with a marker between. Returns its size
    before (0 when it does not exist or is not a plain file)."""
    try:
        handle = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return 0
    with os.fdopen(handle, "r+b") as stream:
        if not _plain(stream):
            return 0
        size = stream.seek(0, os.SEEK_END)
        if size <= limit:
            return size
        head, tail = limit // 4, limit - limit // 4
        stream.seek(size - tail)
        last = stream.read(tail)
        stream.seek(head)
        stream.write(marker(size - head - tail) + last)
        stream.truncate()
    return size


def _plain(stream):
    return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
