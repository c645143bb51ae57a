# shellcheck shell=bash disable=SC2034  # the variables are for the scripts that source it
# Sourced by check_grader.sh and gpu_evidence.sh, which take the same command line:
#   SCRIPT OUT_DIR [CMake arguments...]
# Call: `source "$(dirname "$0")/out_dir_args.sh" DEFAULT_WORK "$@"`. With -h or --help (or no
# OUT_DIR) it prints the calling script's header comment (its usage) and exits; an OUT_DIR
# that starts with '-' is refused. Sets out (OUT_DIR, created, as an absolute path),
# cmake_args (the rest of the command line), root (the repository) and work (the scratch
# folder: WORK, else DEFAULT_WORK; created).
default_work="$1"
shift
usage() {  # the calling script's leading comment block, without the '# '
  sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"
}
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  "") usage >&2; exit 2 ;;
  -*) echo "$0: OUT_DIR '$1' starts with '-': not an option this script knows (see --help)" >&2
      exit 2 ;;
esac
out="$1"
shift
cmake_args=("$@")
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${WORK:-$default_work}"
mkdir -p -- "$out" "$work"
out="$(cd -- "$out" && pwd)"
