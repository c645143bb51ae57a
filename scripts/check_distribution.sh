#!/usr/bin/env bash
# Runs the README's quick start on another Debian or Ubuntu release, as a new user would:
# in a minimal tree of that release made by debootstrap, with this machine's CUDA Toolkit
# bind-mounted, as a user with sudo, on the committed tree (git archive HEAD).
#
# Usage: sudo scripts/check_distribution.sh SUITE ROOT_DIR LOG_DIR
#   SUITE     bookworm (Debian 12), trixie (Debian 13), jammy (Ubuntu 22.04), noble (24.04)
#   ROOT_DIR  where the release's tree is made (reused when it is there already)
#   LOG_DIR   where quickstart.log, tests.log and times.txt are written
#
# Environment: MIRROR, the release's archive URL (default for Debian: the mirror this
# machine's apt uses; Ubuntu needs one: its archive or a mirror of it, components main and
# universe); COURSE_CMAKE_ARGS, passed to the quick start (e.g.
# -DCMAKE_CUDA_ARCHITECTURES=75-real builds one GPU generation instead of five, about five
# times faster); CUDA_HOME, the toolkit to bind-mount (default: /usr/local/cuda's target);
# REUSE_BUILD=1 keeps the tree's build/ of an earlier run (only what changed is rebuilt).
# The certificate authorities this machine adds to its own (/usr/local/share/ca-certificates,
# e.g. a proxy's that inspects TLS) are added to the tree's, so that pip reaches PyPI there.
# Needs root, debootstrap, and for Ubuntu its archive keyring (Debian's ubuntu-keyring
# package, unpacked: KEYRING=/path/ubuntu-archive-keyring.gpg).
# In the tree it then runs, timing each, exactly the README's two commands:
#   bash scripts/quickstart.sh
#   cmake --build --preset release && ctest --preset release
# Exit status: 0 when both passed, 1 when one failed, 2 for a usage error.
# docs/distributions.md says what was checked this way, and when.
set -euo pipefail

usage() { sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; }
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
esac
if (($# != 3)); then
  echo "check_distribution.sh: needs SUITE ROOT_DIR LOG_DIR (see --help)" >&2
  exit 2
fi
suite=$1 root=$2 logs=$3
case "$suite" in
  bookworm|trixie) family=debian; components=main ;;
  jammy|noble) family=ubuntu; components=main,universe ;;
  *) echo "check_distribution.sh: SUITE must be bookworm, trixie, jammy or noble, got '$suite'" >&2
     exit 2 ;;
esac
if [[ $(id -u) -ne 0 ]]; then
  echo "check_distribution.sh: run it as root (debootstrap, chroot and mounts need it)" >&2
  exit 2
fi
mirror=${MIRROR:-}
if [[ -z "$mirror" && $family == debian ]]; then
  mirror=$(grep -rhoE 'https?://[^ ]+/debian/?$' /etc/apt/sources.list \
             /etc/apt/sources.list.d/ 2>/dev/null | head -1 || true)
fi
if [[ -z "$mirror" ]]; then
  echo "check_distribution.sh: set MIRROR to the $suite archive's URL (see --help)" >&2
  exit 2
fi
cuda=$(readlink -f "${CUDA_HOME:-/usr/local/cuda}")  # the real folder, not a link to it
[[ -x "$cuda/bin/nvcc" ]] || { echo "check_distribution.sh: no nvcc in $cuda" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$logs"
logs=$(cd "$logs" && pwd)

if [[ ! -x "$root/usr/bin/apt-get" ]]; then
  keyring=()
  [[ -n "${KEYRING:-}" ]] && keyring=(--keyring="$KEYRING")
  debootstrap --variant=minbase --components="$components" "${keyring[@]}" "$suite" "$root" \
    "$mirror" > "$logs/debootstrap.log" 2>&1
fi
if [[ $family == ubuntu ]]; then
  printf 'deb %s %s main universe\ndeb %s %s-updates main universe\n' \
    "$mirror" "$suite" "$mirror" "$suite" > "$root/etc/apt/sources.list"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
grep -q "$(hostname)" "$root/etc/hosts" 2>/dev/null || echo "127.0.1.1 $(hostname)" >> "$root/etc/hosts"

mounted=()
cleanup() {
  local index
  for ((index = ${#mounted[@]} - 1; index >= 0; index--)); do
    umount "${mounted[$index]}" 2>/dev/null || umount -l "${mounted[$index]}" || true
  done
}
trap cleanup EXIT
for folder in proc sys dev dev/pts; do
  mount --bind "/$folder" "$root/$folder"
  mounted+=("$root/$folder")
done
[[ -L "$root$cuda" ]] && rm "$root$cuda"
mkdir -p "$root$cuda"
mount --bind "$cuda" "$root$cuda"
mount -o remount,bind,ro "$root$cuda" 2>/dev/null || true  # read-only where the kernel allows
mounted+=("$root$cuda")
[[ "$cuda" == /usr/local/cuda ]] || ln -sfn "$cuda" "$root/usr/local/cuda"

# A user with sudo, as on a student's machine; the course at /home/student/course.
mkdir -p "$root/usr/local/share/ca-certificates"
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null \
  || true
chroot "$root" bash -c 'export DEBIAN_FRONTEND=noninteractive
  command -v sudo >/dev/null && command -v update-ca-certificates >/dev/null \
    || { apt-get update -qq && apt-get install -y -qq sudo ca-certificates >/dev/null; }
  update-ca-certificates >/dev/null 2>&1 || true
  id student >/dev/null 2>&1 || useradd -m -s /bin/bash student
  echo "student ALL=(ALL) NOPASSWD:ALL" > /etc/sudoers.d/student'
course=$root/home/student/course
if [[ "${REUSE_BUILD:-0}" == 1 && -d "$course/build" ]]; then
  # Only the files whose content changed are copied: the others keep their times, so that
  # the build redoes only what depends on the changes.
  fresh=$(mktemp -d)
  git -C "$repo" archive HEAD | tar -x -C "$fresh"
  (cd "$fresh" && find . -type f) | while IFS= read -r file; do
    if ! cmp -s "$fresh/$file" "$course/$file"; then
      mkdir -p "$(dirname "$course/$file")"
      cp "$fresh/$file" "$course/$file"
    fi
  done
  rm -rf "$fresh"
else
  rm -rf "$course"
  mkdir -p "$course"
  git -C "$repo" archive HEAD | tar -x -C "$course"
fi
chroot "$root" chown -R student: /home/student/course

as_student() {  # as_student LOG COMMAND: runs COMMAND in the course as the student, timed
  local log=$1 command=$2 start status
  start=$(date +%s)
  chroot "$root" su - student -c "cd ~/course && export COURSE_CMAKE_ARGS='${COURSE_CMAKE_ARGS:-}' \
    && $command" > "$logs/$log" 2>&1 && status=0 || status=$?
  echo "$command: exit $status, $(( $(date +%s) - start )) s" | tee -a "$logs/times.txt"
  return "$status"
}
: > "$logs/times.txt"
echo "$suite, $(date -u +%F), COURSE_CMAKE_ARGS='${COURSE_CMAKE_ARGS:-}'" >> "$logs/times.txt"
status=0
as_student quickstart.log "bash scripts/quickstart.sh" || status=1
if ((status == 0)); then
  as_student tests.log "cmake --build --preset release && ctest --preset release" || status=1
  grep -E "% tests passed|Total Test time|\((Failed|Timeout|Not Run|Skipped)\)" \
    "$logs/tests.log" >> "$logs/times.txt" || true
fi
exit "$status"
