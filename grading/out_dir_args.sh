# shellcheck shell=bash disable=SC2034  # the variables are for the scripts that source it
# Sourced by check_grader.sh and gpu_evidence.sh, which take the same command line:
#   SCRIPT OUT_DIR [CMake arguments...]
# Call: `source "$(dirname "$0")/out_dir_args.sh" DEFAULT_WORK "$@"`. Sets out (OUT_DIR,
# created, as an absolute path), cmake_args (the rest of the command line), root (the
# repository) and work (the scratch folder: WORK, else DEFAULT_WORK; created).
default_work="$1"
shift
out="${1:?usage: $0 OUT_DIR [CMake arguments...]}"
shift
cmake_args=("$@")
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${WORK:-$default_work}"
mkdir -p "$out" "$work"
out="$(cd "$out" && pwd)"
