#!/usr/bin/env bash
# Builds the Matrix Market fuzz target with libFuzzer + AddressSanitizer + UBSan and runs it
# for a bounded time (issue "Reliability"). No CUDA is needed: the parser's sources
# (common/matrix_market*.cpp, common/compressed_file.cpp, common/output_file.cpp,
# common/sparse_matrix.cpp) include no CUDA header.
#
# Usage: fuzz/run_fuzz.sh [SECONDS]        (default 60)
#
# Packages (Debian 12 "bookworm"; CI installs them with):
#   apt-get install -y --no-install-recommends clang-14 libclang-rt-14-dev zlib1g-dev
# libclang-rt-14-dev holds libFuzzer and the sanitizer runtimes; clang only *recommends* it,
# so it must be named when recommends are off. Another clang: set FUZZ_CXX=clang++-NN.
#
# Corpus: fuzz/corpus/ holds hand-written seeds (valid and invalid files) and is only read;
# inputs libFuzzer finds interesting go to build-fuzz/corpus/ (git-ignored), crash inputs to
# build-fuzz/artifacts/. Replay one with: build-fuzz/fuzz_matrix_market <file>
#
# Exit status: 0 when the run ends with no finding; non-zero when the build fails or on any
# finding: a crash or sanitizer report, an input slower than 5 s (-timeout), memory above
# 2048 MB (-rss_limit_mb), an exception other than MatrixMarketError, or an accepted matrix
# that breaks the reader's promises (see fuzz_matrix_market.cpp).
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
esac
if (($# > 1)); then
  echo "run_fuzz.sh: one argument at most, SECONDS (see --help)" >&2
  exit 2
fi
seconds="${1:-60}"
if ! [[ "${seconds}" =~ ^[1-9][0-9]*$ ]]; then
  echo "run_fuzz.sh: SECONDS must be a positive whole number, got '${seconds}'" >&2
  exit 2
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUZZ_BUILD_DIR:-${root}/build-fuzz}"
cxx="${FUZZ_CXX:-clang++}"
if ! command -v "${cxx}" > /dev/null; then
  echo "run_fuzz.sh: ${cxx} not found; install: apt-get install -y clang-14 libclang-rt-14-dev" >&2
  exit 2
fi
mkdir -p "${build}/corpus" "${build}/artifacts"

echo "== building ${build}/fuzz_matrix_market with ${cxx}"
"${cxx}" -std=c++17 -g -O1 -fno-omit-frame-pointer \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -I"${root}" \
  "${root}/fuzz/fuzz_matrix_market.cpp" \
  "${root}/common/matrix_market.cpp" \
  "${root}/common/matrix_market_lines.cpp" \
  "${root}/common/compressed_file.cpp" \
  "${root}/common/bounded_line_reader.cpp" \
  "${root}/common/file_checks.cpp" \
  "${root}/common/output_file.cpp" \
  "${root}/common/progress.cpp" \
  "${root}/common/sparse_matrix.cpp" \
  -lz -o "${build}/fuzz_matrix_market"

echo "== fuzzing for ${seconds} s"
status=0
"${build}/fuzz_matrix_market" "${build}/corpus" "${root}/fuzz/corpus" \
  -dict="${root}/fuzz/matrix_market.dict" \
  -max_total_time="${seconds}" -rss_limit_mb=2048 -timeout=5 -max_len=8192 \
  -artifact_prefix="${build}/artifacts/" -print_final_stats=1 || status=$?

if [[ ${status} -ne 0 ]]; then
  echo "run_fuzz.sh: FINDING (fuzzer exit status ${status}); inputs in ${build}/artifacts/" >&2
  exit "${status}"
fi
if compgen -G "${build}/artifacts/*" > /dev/null; then
  echo "run_fuzz.sh: FINDING: artifacts left in ${build}/artifacts/" >&2
  exit 1
fi
echo "run_fuzz.sh: no findings in ${seconds} s"
