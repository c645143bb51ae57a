#!/usr/bin/env bash
# Builds and runs the course's CPU tests against Catch2 3 on a machine whose distribution
# ships Catch2 2 (Debian 12): the tests must build with both majors (Debian 13 and Ubuntu
# 24.04 ship 3; common/testing/catch2.hpp). CI runs it after the tests built with Catch2 2.
#
# Usage: scripts/check_catch2_3.sh [WORK_DIR]   (default: build-catch2-3)
#
# 1. Catch2 3 from Debian 13's source package (apt-get source, with an apt configuration of
#    its own in WORK_DIR: the system's is not changed), built and installed into
#    WORK_DIR/prefix; kept for the next run.
# 2. The course configured in WORK_DIR/build against that prefix (step 1 only, sm_75 only,
#    warnings as errors), test_common, test_step1 and the grader's judge built, and their
#    tests run with ctest (the [gpu] ones are skipped without a GPU).
# Time on 2 cores: a few minutes for Catch2 the first time, then a few for the course.
# Exit status: 0 when everything built and passed, 1 otherwise, 2 for a usage error.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
  -*) echo "check_catch2_3.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
esac
if (($# > 1)); then
  echo "check_catch2_3.sh: one argument at most, WORK_DIR (see --help)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
work=${1:-build-catch2-3}
mkdir -p "$work"
work=$(cd "$work" && pwd)
prefix=$work/prefix
[[ -x /usr/local/cuda/bin/nvcc ]] && export PATH="/usr/local/cuda/bin:$PATH"

if [[ ! -f "$prefix/lib/cmake/Catch2/Catch2Config.cmake" ]]; then
  echo "Catch2 3: fetching Debian 13's source package"
  apt_dir=$work/apt
  mkdir -p "$apt_dir/lists/partial"
  mirror=$(grep -rhoE 'https?://[^ ]+/debian/?$' /etc/apt/sources.list \
             /etc/apt/sources.list.d/ 2>/dev/null | head -1 || true)
  if [[ -z "$mirror" ]]; then
    echo "check_catch2_3.sh: no Debian mirror in this machine's apt sources" >&2
    exit 1
  fi
  printf 'deb-src %s trixie main\n' "$mirror" > "$apt_dir/sources.list"
  options=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=-"
           -o "Dir::State::Lists=$apt_dir/lists" -o "APT::Sandbox::User=root")
  apt-get "${options[@]}" update -qq
  (cd "$work" && apt-get "${options[@]}" source --download-only -qq catch2)
  source_archive=$(ls "$work"/catch2_3.*.orig.tar.gz | tail -1)
  rm -rf "$work/source" && mkdir -p "$work/source"
  tar -xzf "$source_archive" -C "$work/source" --strip-components=1
  echo "Catch2 3: building $(basename "$source_archive") into $prefix"
  cmake -S "$work/source" -B "$work/catch2-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_STANDARD=17 -DCATCH_INSTALL_DOCS=OFF -DCATCH_INSTALL_EXTRAS=OFF \
    -DCMAKE_INSTALL_PREFIX="$prefix" > "$work/catch2-configure.log"
  cmake --build "$work/catch2-build" --target install -j 2 > "$work/catch2-build.log"
fi

echo "The course's CPU tests against $(ls -d "$prefix"/lib/cmake/Catch2)"
cmake -S . -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOURSE_WERROR=ON \
  -DCMAKE_PREFIX_PATH="$prefix" -DCOURSE_STEPS=step1_naive \
  -DCMAKE_CUDA_ARCHITECTURES=75-real > "$work/configure.log"
grep -q "Catch2 3\." "$work/configure.log" || {
  echo "check_catch2_3.sh: CMake did not take Catch2 3 (see $work/configure.log)" >&2
  exit 1
}
cmake --build "$work/build" -j 2 --target test_common test_step1 course_judge
# Each folder's tests, then its summary line ("100% tests passed, ...") or what failed.
status=0
for folder in common step1_naive grading; do
  filter=()
  [[ $folder == grading ]] && filter=(-R judge)
  if ctest --test-dir "$work/build/$folder" "${filter[@]}" --output-on-failure \
       > "$work/ctest_$folder.log" 2>&1; then
    echo "$folder: $(grep -E '% tests passed' "$work/ctest_$folder.log")"
  else
    status=1
    grep -E 'tests passed|\(Failed\)|\(Timeout\)|FAILED' "$work/ctest_$folder.log" || true
    echo "$folder: tests failed against Catch2 3 (see $work/ctest_$folder.log)" >&2
  fi
done
exit "$status"
