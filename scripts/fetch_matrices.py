#!/usr/bin/env python3
"""Fetches the real sparse matrices of step 5's benchmark and checks every one of them.

    python3 scripts/fetch_matrices.py [--dest data] [--from DIR] [--only a,b] [--list]

The 14 matrices (SuiteSparse, SNAP and DLMC) are not part of the repository. This script
puts them into --dest (default `data/`, which `sddmm_bench --matrices data` reads) as
gzipped Matrix Market files, and checks each against the record in
`scripts/real_matrices.json`:

* Downloaded (the default): from the public source the record names (the SuiteSparse
  Matrix Collection's Matrix Market archive, or the pinned copy of the DLMC mask), converted
  to `<name>.mtx.gz`. The check is on the content: rows, columns, the number of entries after
  symmetric expansion, and the SHA-256 of the sorted list of their positions (`pattern_sha256`,
  independent of file layout, comments and compression).
* `--from DIR`: copied from a folder that already holds the course's `.mtx.gz` files (a
  mirror, or a colleague's download). The check is on the bytes: the file size and the
  SHA-256 of the file (`gz_bytes`, `sha256_gz`), which identify the exact files the course's
  results were measured on.
* `--verify DIR`: checks the files in DIR in place (bytes if they are the course's copies,
  content otherwise) and copies nothing.

A file that fails its check is not left in --dest. Exit status: 0 when every matrix asked
for is in place and checked, 1 when one failed (each failure is named, with what was
expected and what was found), 2 for a bad command line.
"""
import argparse
import gzip
import hashlib
import io
import json
import pathlib
import shutil
import sys
import tarfile
import tempfile
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent
MANIFEST = HERE / "real_matrices.json"
CHUNK = 1 << 20


class CheckError(Exception):
    """A matrix that does not match its record."""


def sha256_of_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def read_positions(lines):
    """Reads a Matrix Market coordinate file's lines. Returns (rows, cols, positions) with
    0-based positions after symmetric expansion, sorted and without duplicates."""
    header = next(lines).split()
    if len(header) < 5 or header[0] != "%%MatrixMarket" or header[2] != "coordinate":
        raise CheckError("not a Matrix Market coordinate file (first line %r)" %
                         " ".join(header)[:80])
    symmetric = header[4].lower() in ("symmetric", "skew-symmetric", "hermitian")
    size_line = next(line for line in lines if line.strip() and not line.startswith("%"))
    rows, cols, _ = (int(value) for value in size_line.split()[:3])
    positions = set()
    for line in lines:
        fields = line.split()
        if not fields or fields[0].startswith("%"):
            continue
        row, col = int(fields[0]) - 1, int(fields[1]) - 1
        positions.add((row, col))
        if symmetric and row != col:
            positions.add((col, row))
    return rows, cols, sorted(positions)


def pattern_digest(positions):
    digest = hashlib.sha256()
    for row, col in positions:
        digest.update(b"%d %d\n" % (row, col))
    return digest.hexdigest()


def content_of(path):
    """(rows, cols, nnz, pattern_sha256) of a .mtx or .mtx.gz file."""
    with open(path, "rb") as stream:
        compressed = stream.read(2) == b"\x1f\x8b"  # gzip's magic number, whatever the name
    opener = gzip.open if compressed else open
    try:
        with opener(path, "rt", encoding="ascii", errors="replace") as stream:
            rows, cols, positions = read_positions(iter(stream))
    except (OSError, EOFError, ValueError, StopIteration) as error:
        raise CheckError("cannot be read as a gzipped Matrix Market file (%s)" % error)
    return rows, cols, len(positions), pattern_digest(positions)


def check_bytes(path, record):
    size = path.stat().st_size
    if size != record["gz_bytes"]:
        raise CheckError("size %d bytes, the record says %d" % (size, record["gz_bytes"]))
    digest = sha256_of_file(path)
    if digest != record["sha256_gz"]:
        raise CheckError("SHA-256 %s, the record says %s" % (digest, record["sha256_gz"]))


def check_content(path, record):
    rows, cols, nnz, digest = content_of(path)
    found = (rows, cols, nnz)
    expected = (record["rows"], record["cols"], record["nnz"])
    if found != expected:
        raise CheckError("%d×%d with %d entries, the record says %d×%d with %d" %
                         (found + expected))
    if digest != record["pattern_sha256"]:
        raise CheckError("positions' SHA-256 %s, the record says %s" %
                         (digest, record["pattern_sha256"]))


def download(url, destination):
    request = urllib.request.Request(url, headers={"User-Agent": "cuda-course-fetch/1"})
    with urllib.request.urlopen(request, timeout=120) as response, open(destination, "wb") as out:
        shutil.copyfileobj(response, out, CHUNK)


def smtx_to_mtx(text, rows, cols):
    """DLMC's .smtx (a line `rows, cols, nnz`, the CSR row offsets, the column indices) as
    Matrix Market `coordinate pattern general` text."""
    lines = text.split("\n")
    offsets = [int(value) for value in lines[1].split()]
    columns = [int(value) for value in lines[2].split()]
    out = io.StringIO()
    out.write("%%MatrixMarket matrix coordinate pattern general\n")
    out.write("%d %d %d\n" % (rows, cols, len(columns)))
    for row in range(rows):
        for index in range(offsets[row], offsets[row + 1]):
            out.write("%d %d\n" % (row + 1, columns[index] + 1))
    return out.getvalue()


def write_gzip(text, destination):
    # mtime=0: the same download always gives the same bytes.
    with open(destination, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as stream:
            stream.write(text.encode("ascii"))


def fetch(record, work, destination):
    """Downloads one matrix from its public source into @p destination (a .mtx.gz)."""
    source = record["source"]
    archive = work / "download"
    download(source["url"], archive)
    if source["format"] == "suitesparse-tar":
        with tarfile.open(archive, "r:gz") as tar:
            member = tar.extractfile(source["member"])
            if member is None:
                raise CheckError("%s has no %s" % (source["url"], source["member"]))
            text = member.read().decode("ascii", errors="replace")
    elif source["format"] == "dlmc-smtx":
        text = smtx_to_mtx(archive.read_text(encoding="ascii"), record["rows"], record["cols"])
    else:
        raise CheckError("unknown source format %r" % source["format"])
    write_gzip(text, destination)


def place(record, args, work):
    """Puts one matrix into --dest and checks it; raises CheckError when it fails."""
    target = args.dest / record["file"]
    partial = target.with_name(target.name + ".part")
    try:
        if args.source_dir:
            origin = args.source_dir / record["file"]
            if not origin.is_file():
                raise CheckError("not found in %s" % args.source_dir)
            shutil.copyfile(origin, partial)
            check_bytes(partial, record)
        else:
            fetch(record, work, partial)
            check_content(partial, record)
        partial.replace(target)
    finally:
        if partial.exists():
            partial.unlink()


def verify(record, folder):
    path = folder / record["file"]
    if not path.is_file():
        raise CheckError("not found in %s" % folder)
    try:
        check_bytes(path, record)
    except CheckError:
        check_content(path, record)  # another download of the same matrix is fine too


def parse_arguments(argv, names):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dest", type=pathlib.Path, default=pathlib.Path("data"),
                        help="folder the matrices go to (default: data)")
    parser.add_argument("--from", dest="source_dir", type=pathlib.Path,
                        help="copy the course's .mtx.gz files from this folder instead of "
                             "downloading them")
    parser.add_argument("--verify", type=pathlib.Path,
                        help="only check the matrices already in this folder")
    parser.add_argument("--only", help="comma-separated names (default: all 14)")
    parser.add_argument("--list", action="store_true", help="list the matrices and exit")
    parser.add_argument("--manifest", type=pathlib.Path, default=MANIFEST,
                        help="the record of the matrices (default: %(default)s)")
    args = parser.parse_args(argv)
    args.names = names
    if args.only:
        args.names = [name.strip() for name in args.only.split(",") if name.strip()]
        unknown = [name for name in args.names if name not in names]
        if unknown:
            parser.error("--only names %s, which %s not in %s (known: %s)" % (
                ", ".join(unknown), "is" if len(unknown) == 1 else "are", "the manifest",
                ", ".join(names)))
    if args.source_dir and not args.source_dir.is_dir():
        parser.error("--from %s is not a folder" % args.source_dir)
    if args.verify and not args.verify.is_dir():
        parser.error("--verify %s is not a folder" % args.verify)
    return args


def main(argv):
    manifest = pathlib.Path(next((argv[i + 1] for i, arg in enumerate(argv[:-1])
                                  if arg == "--manifest"), MANIFEST))
    records = {record["name"]: record for record in json.loads(manifest.read_text())["matrices"]}
    args = parse_arguments(argv, list(records))
    if args.list:
        for name in args.names:
            record = records[name]
            print("%-45s %9d x %-9d %9d entries  %s" % (record["file"], record["rows"],
                                                      record["cols"], record["nnz"],
                                                      record["source"]["url"]))
        return 0
    if not args.verify:
        args.dest.mkdir(parents=True, exist_ok=True)
    failed = []
    with tempfile.TemporaryDirectory(prefix="fetch-matrices-") as work:
        for name in args.names:
            try:
                if args.verify:
                    verify(records[name], args.verify)
                else:
                    place(records[name], args, pathlib.Path(work))
                print("ok      %s" % records[name]["file"])
            except (CheckError, OSError, tarfile.TarError) as error:
                failed.append(name)
                print("FAILED  %s: %s" % (records[name]["file"], error))
    where = args.verify or args.dest
    print("%d of %d matrices checked in %s%s" % (len(args.names) - len(failed), len(args.names),
                                                 where, "; failed: " + ", ".join(failed)
                                                 if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
