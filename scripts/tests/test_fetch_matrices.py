#!/usr/bin/env python3
"""CPU test of scripts/fetch_matrices.py, run by ctest ("scripts: fetch_matrices").

    python3 scripts/tests/test_fetch_matrices.py <folder with the course's .mtx.gz files>

It copies the matrices from that folder with --from into a temporary folder and requires
every one to pass; then it corrupts copies (one byte changed, a file cut short, one entry
moved) and requires each to be caught, named, and kept out of the destination; it runs the
download path on a local SuiteSparse-style archive (a file:// URL) and a DLMC-style .smtx,
good and corrupted. Exits 77 (reported as skipped) when the folder does not exist: the
matrices are not part of the repository.
"""
import gzip
import json
import pathlib
import subprocess
import sys
import tarfile
import tempfile

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "fetch_matrices.py"
MANIFEST = SCRIPT.with_name("real_matrices.json")
SKIPPED = 77
failures = []


def run(*args):
    result = subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                            capture_output=True, text=True, timeout=600)
    return result.returncode, result.stdout + result.stderr


def expect(condition, what, output=""):
    print("%s  %s" % ("pass" if condition else "FAIL", what))
    if not condition:
        failures.append(what)
        print(output)


def copy_with(source, target, change):
    data = bytearray(source.read_bytes())
    target.write_bytes(change(data))


def flip_middle_byte(data):
    data[len(data) // 2] ^= 0x40
    return bytes(data)


def check_copies(source, tmp):
    code, output = run("--from", source, "--dest", tmp / "good")
    count = len(json.loads(MANIFEST.read_text())["matrices"])
    expect(code == 0 and "%d of %d matrices checked" % (count, count) in output,
           "--from copies and checks all %d matrices" % count, output)
    code, output = run("--verify", tmp / "good")
    expect(code == 0, "--verify accepts the copies", output)

    broken = tmp / "broken"
    broken.mkdir()
    copy_with(source / "west0067.mtx.gz", broken / "west0067.mtx.gz", flip_middle_byte)
    copy_with(source / "karate.mtx.gz", broken / "karate.mtx.gz", lambda data: bytes(data[:-10]))
    copy_with(source / "bcsstk13.mtx.gz", broken / "bcsstk13.mtx.gz", bytes)
    code, output = run("--from", broken, "--dest", tmp / "out", "--only",
                       "west0067,karate,bcsstk13")
    expect(code == 1, "a corrupted copy fails the run", output)
    expect("FAILED  west0067.mtx.gz: SHA-256" in output, "a changed byte is named", output)
    expect("FAILED  karate.mtx.gz: size" in output, "a file cut short is named", output)
    expect("ok      bcsstk13.mtx.gz" in output, "the good file beside them passes", output)
    expect(not (tmp / "out" / "west0067.mtx.gz").exists() and
           not (tmp / "out" / "karate.mtx.gz").exists(),
           "failed files are not left in the destination")

    # Another file of the same matrix (re-compressed) passes --verify on its content; a
    # moved entry does not.
    regzipped = tmp / "regzipped"
    regzipped.mkdir()
    text = gzip.decompress((source / "west0067.mtx.gz").read_bytes()).decode("ascii")
    (regzipped / "west0067.mtx.gz").write_bytes(gzip.compress(("%" + " comment\n").join(
        text.split("\n", 1)).encode("ascii"), mtime=0))
    code, output = run("--verify", regzipped, "--only", "west0067")
    expect(code == 0, "--verify accepts the same matrix in another file", output)
    lines = text.splitlines()
    last = lines[-1].split()
    lines[-1] = " ".join([str(int(last[0]) % 67 + 1)] + last[1:])
    (regzipped / "west0067.mtx.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    code, output = run("--verify", regzipped, "--only", "west0067")
    expect(code == 1 and "positions' SHA-256" in output, "--verify catches a moved entry", output)


def check_downloads(source, tmp):
    """The download path, on local files served as file:// URLs."""
    records = {record["name"]: record for record in json.loads(MANIFEST.read_text())["matrices"]}
    served = tmp / "served"
    served.mkdir()
    karate = records["karate"]
    mtx = served / "karate.mtx"
    mtx.write_bytes(gzip.decompress((source / "karate.mtx.gz").read_bytes()))
    with tarfile.open(served / "karate.tar.gz", "w:gz") as tar:
        tar.add(mtx, arcname=karate["source"]["member"])
    # A DLMC-style .smtx of a 3x4 mask: rows 0 and 2 have entries.
    smtx_record = {"name": "tiny_smtx", "file": "tiny_smtx.mtx.gz", "rows": 3, "cols": 4,
                   "nnz": 3, "gz_bytes": 0, "sha256_gz": "",
                   "source": {"format": "dlmc-smtx", "url": (served / "tiny.smtx").as_uri()}}
    (served / "tiny.smtx").write_text("3, 4, 3\n0 2 2 3\n1 3 0\n")
    import hashlib
    smtx_record["pattern_sha256"] = hashlib.sha256(b"0 1\n0 3\n2 0\n").hexdigest()
    karate = dict(karate, source=dict(karate["source"], url=(served / "karate.tar.gz").as_uri()))
    manifest = tmp / "manifest.json"
    manifest.write_text(json.dumps({"matrices": [karate, smtx_record]}))
    code, output = run("--manifest", manifest, "--dest", tmp / "fetched")
    expect(code == 0 and (tmp / "fetched" / "karate.mtx.gz").exists(),
           "a downloaded SuiteSparse archive and a DLMC mask are converted and checked", output)

    smtx_record["pattern_sha256"] = hashlib.sha256(b"0 1\n0 3\n2 1\n").hexdigest()
    manifest.write_text(json.dumps({"matrices": [smtx_record]}))
    code, output = run("--manifest", manifest, "--dest", tmp / "fetched2")
    expect(code == 1 and "positions' SHA-256" in output and
           not (tmp / "fetched2" / "tiny_smtx.mtx.gz").exists(),
           "a download with other positions is caught and not kept", output)

    code, output = run("--only", "no_such_matrix")
    expect(code == 2 and "no_such_matrix" in output, "an unknown name is refused by name", output)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    source = pathlib.Path(sys.argv[1])
    if not (source / "karate.mtx.gz").is_file():
        print("skipped: no copy of the course's matrices in %s (set COURSE_MATRICES_DIR)" % source)
        return SKIPPED
    with tempfile.TemporaryDirectory(prefix="test-fetch-") as tmp:
        check_copies(source, pathlib.Path(tmp))
        check_downloads(source, pathlib.Path(tmp))
    print("%d check(s) failed" % len(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
