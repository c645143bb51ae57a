#!/usr/bin/env bash
# Runs every step program and tool on bad input and writes a Markdown table of what each
# one said: the command, the exit code, the time it took and the first line of the message.
#
# The cases live in scripts/bad_inputs/*.cases (every such file is read, in name order), one
# a line:
#
#   EXPECTED_EXIT;;GREP_E_PATTERN;;COMMAND
#
# EXPECTED_EXIT: 2 for a bad command line; 1 when the input was read and refused, or the run
# cannot fit in memory; 0 for the benchmark's rows that say why a matrix was skipped; 3 for
# "no GPU". Alternatives are written 1|2 (a refusal that may come from the parser or from the
# reader). GREP_E_PATTERN (grep -E, case-insensitive) must match the output: the message has
# to name the problem, so a crash that prints something cannot pass for a refusal. COMMAND is
# run from a scratch folder, split into words (no quoting), its program relative to the build
# folder. Both may use these variables (replaced longest name first):
#   $s1 $s2 $s3 $s4 $tracer $mask $s5 $bench   the programs (paths in the build folder)
#   $scratch                                   the scratch folder with the fixtures below
#   $range $mem                                common pieces of messages
# A case file adds programs with a comment line `# var NAME=relative/path` (usable in the
# lines after it). Other lines starting with # are comments, except two that apply to the
# next case only:
#   # if COND...     run it only when every condition holds: gpu, no-gpu, socket (a socket
#                    fixture could be made), debug-build, memory-below-GiB=N
#   # time-limit S   its refusal may take up to S seconds instead of 1
# A case whose program's folder is not in the build (a step left out with COURSE_STEPS) is
# skipped and said so; a program missing from a folder that is built is a failure.
#
# Each refusal must come within 1 s (the time is in the table): before any large allocation,
# any GPU work, and any wait on an input that never ends. A case still running after its limit
# plus 1 s is stopped. The script fails if any case gives another exit code, another message,
# or takes longer than its limit.
#
# Usage: scripts/bad_inputs.sh [BUILD_DIR] [TABLE_FILE]   (defaults: build, bad-inputs.md)
# Runs on any machine: every input is checked before the programs look for a GPU, so the
# same cases pass with or without one; without a GPU a valid command must end with the
# "no CUDA-capable GPU" message (exit 3).
set -uo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
  -*) echo "bad_inputs.sh: unknown option '$1' (usage: scripts/bad_inputs.sh [BUILD_DIR] [TABLE_FILE]; see --help)" >&2
      exit 2 ;;
esac
if (($# > 2)); then
  echo "bad_inputs.sh: at most two arguments, BUILD_DIR and TABLE_FILE (see --help)" >&2
  exit 2
fi
build="${1:-build}"
table="${2:-bad-inputs.md}"
if ! build_path=$(cd "$build" 2>/dev/null && pwd); then
  echo "no build folder '$build'" >&2
  exit 2
fi
cases_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bad_inputs"
default_limit_s=1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# ---- fixtures -------------------------------------------------------------------------
# Matrix Market files with one defect each, for the programs that read them.
header='%%MatrixMarket matrix coordinate real general'
printf '%s\n3 3 2\n1 1 1.0\n' "$header" > "$scratch/too_few.mtx"
printf '%s\n3 3 1\n4 1 1.0\n' "$header" > "$scratch/out_of_range.mtx"
printf '%s\n3 3 1\n1 x 1.0\n' "$header" > "$scratch/non_numeric.mtx"
printf 'hello\n' > "$scratch/bad_header.mtx"
# Valid, but its sizes cannot fit: A alone (rows x inner halves) is hundreds of GB.
printf '%s\n2000000000 2000000000 1\n1 1 1.0\n' "$header" > "$scratch/huge_2e9.mtx"
# A 64 MiB line compressed to a few hundred KiB: must be refused at the line limit.
{
  printf '%s\n3 3 1\n1 1 ' "$header"
  head -c $((64 << 20)) /dev/zero | tr '\0' '7'
  printf '\n'
} | gzip -c > "$scratch/long_line.mtx.gz"
# 4 GiB of comment lines in about 17 MB of gzip: 64 MiB of them compressed once, the member
# repeated 64 times (zlib reads concatenated gzip members as one text).
printf '%s\n' "$header" | gzip -c > "$scratch/comments_4g.mtx.gz"
yes '% a comment line, as converters write them, over and over again' |
  head -c $((64 << 20)) | gzip -1 -c > "$scratch/comment_member.gz"
for _ in $(seq 64); do
  cat "$scratch/comment_member.gz"
done >> "$scratch/comments_4g.mtx.gz"
# The same with 4 GiB of blank lines.
printf '%s\n' "$header" | gzip -c > "$scratch/blank_4g.mtx.gz"
yes '' | head -c $((64 << 20)) | gzip -1 -c > "$scratch/blank_member.gz"
for _ in $(seq 64); do
  cat "$scratch/blank_member.gz"
done >> "$scratch/blank_4g.mtx.gz"
# Four entries declared, each padded with 600000 spaces: more than four entries can need.
{
  printf '%s\n3 3 4\n' "$header"
  for row in 1 2 3; do
    printf '%s 1 1.0' "$row"
    head -c 600000 /dev/zero | tr '\0' ' '
    printf '\n'
  done
} | gzip -c > "$scratch/padded.mtx.gz"
# Inputs that are not regular files: a FIFO with no writer (opening it for reading would
# wait forever), a folder, and a Unix socket (made with Python where it is installed).
mkfifo "$scratch/fifo.mtx"
mkdir "$scratch/folder.mtx"
have_socket=0
if command -v python3 >/dev/null &&
  python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
    "$scratch/socket.mtx" 2>/dev/null && [[ -S "$scratch/socket.mtx" ]]; then
  have_socket=1
fi
# Shapes lists for step 4's benchmark: a line of two numbers, a 64 MiB line with no newline,
# and 20000 comment lines before a shape (past the reader's limit on skipped lines).
printf '10 10\n' > "$scratch/shapes_bad.txt"
head -c $((64 << 20)) /dev/zero | tr '\0' '7' > "$scratch/shapes_long_line.txt"
{ yes '# a comment' | head -n 20000; echo '1 1 1'; } > "$scratch/shapes_many_lines.txt"
# Folders of matrices for the benchmark: one that cannot fit, one malformed, one whose two
# .mtx entries are symbolic links to each other (a loop).
mkdir -p "$scratch/too_big" "$scratch/broken" "$scratch/loop"
cp "$scratch/huge_2e9.mtx" "$scratch/too_big/"
cp "$scratch/bad_header.mtx" "$scratch/broken/"
ln -s b.mtx "$scratch/loop/a.mtx"
ln -s a.mtx "$scratch/loop/b.mtx"
# A size line of 0 x 0; two entries that repeat a third one's position (summed, with a
# warning); 10^7 copies of '1 1' (40 MB of text in about 40 KB of gzip, a decompression bomb
# like the 2e8 copies in 776 KB of issue 39); a .gz cut in half.
printf '%s\n0 0 0\n' "$header" > "$scratch/zero.mtx"
printf '%s\n3 3 4\n1 1 1.0\n1 1 2.0\n2 2 1.0\n1 1 4.0\n' "$header" > "$scratch/dup.mtx"
{
  printf '%s\n100000 100000 10000000\n' "$header"
  yes '1 1 1' | head -n 10000000
} | gzip -c > "$scratch/dup_bomb.mtx.gz"
{ printf '%s\n2000 2000 2000\n' "$header"; seq 2000 | awk '{print $1, $1, 1.5}'; } |
  gzip -c > "$scratch/whole.mtx.gz"
head -c $(($(stat -c %s "$scratch/whole.mtx.gz") / 2)) "$scratch/whole.mtx.gz" > "$scratch/cut.mtx.gz"
# A symbolic link to a file that does not exist: an output written there replaces the link.
ln -s "$scratch/nowhere.mtx" "$scratch/dangling.mtx"

# ---- variables the cases use -----------------------------------------------------------
declare -A vars=(
  [s1]=step1_naive/step1_naive
  [s2]=step2_three_approaches/step2_three_approaches
  [s3]=step3_shared_tiling/step3_shared_tiling
  [s4]=step4_boundary_checks/step4_boundary_checks
  [tracer]=step4_boundary_checks/tracer/step4_tile_tracer
  [mask]=common/generate_mask
  [s5]=step5_tensor_core_sddmm/step5_tensor_core_sddmm
  [bench]=step5_tensor_core_sddmm/lab/sddmm_bench
  [wmma]=step5_tensor_core_sddmm/lab/wmma_shape_timing
  [scratch]="$scratch"
  [range]='must be a whole number from'
  [mem]='not enough (host|device) memory'
)

# Replaces $name and ${name} of every known variable in $1, longest name first.
expand() {
  local text="$1" name
  while read -r name; do
    text="${text//\$\{$name\}/${vars[$name]}}"
    text="${text//\$$name/${vars[$name]}}"
  done < <(printf '%s\n' "${!vars[@]}" | awk '{print length($0), $0}' | sort -rn | cut -d' ' -f2)
  printf '%s' "$text"
}

has_gpu=0
nvidia-smi -L >/dev/null 2>&1 && has_gpu=1
available_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo 2>/dev/null || echo 0)
debug_build=0
grep -q 'COURSE_DEBUG:BOOL=ON' "$build_path/CMakeCache.txt" 2>/dev/null && debug_build=1

# True when every condition of "# if" holds.
conditions_hold() {
  local condition
  for condition in "$@"; do
    case "$condition" in
      gpu) ((has_gpu == 1)) || return 1 ;;
      no-gpu) ((has_gpu == 0)) || return 1 ;;
      socket) ((have_socket == 1)) || return 1 ;;
      debug-build) ((debug_build == 1)) || return 1 ;;
      memory-below-GiB=*) ((${available_kb:-0} < ${condition#*=} * 1024 * 1024)) || return 1 ;;
      *)
        echo "unknown condition '$condition'" >&2
        return 2
        ;;
    esac
  done
}

# Markdown-safe first line of a message: no temporary folder, escaped bars, dashes and tags.
markdown_message() {
  head -1 <<< "$1" | sed "s|$scratch/||g; s/|/\\\\|/g; s/--/\\\\--/g; s/</\\&lt;/g; s/>/\\&gt;/g"
}

# ---- the cases ---------------------------------------------------------------------------
status=0
ran=0
skipped=0
{
  echo "| command | exit | expected | time (s) | message |"
  echo "|---|---:|---:|---:|---|"
} > "$table"

# Runs one case; $1 is where it comes from (file:line), $2 its limit in seconds.
run_case() {
  local where="$1" limit_s="$2" entry="$3"
  local expected pattern command program shown output code shown_line elapsed start
  expected="${entry%%;;*}"
  local rest="${entry#*;;}"
  pattern="$(expand "${rest%%;;*}")"
  command="$(expand "${rest#*;;}")"
  shown=${command//"$scratch/"/}
  program="${command%% *}"
  if [[ ! -x "$build_path/$program" ]]; then
    if [[ ! -d "$build_path/$(dirname "$program")" ]]; then
      echo "skipped ($(dirname "$program") is not in this build): $shown" >&2
      skipped=$((skipped + 1))
      return
    fi
    echo "FAIL ($where): $build_path/$program is not built" >&2
    status=1
    return
  fi
  ran=$((ran + 1))
  start=$(date +%s.%N)
  # shellcheck disable=SC2086  # the case is a command line, split into words on purpose
  output=$(cd "$scratch" && timeout -k 1 "$((limit_s + 1))" "$build_path/"$command 2>&1 < /dev/null)
  code=$?
  elapsed=$(awk -v start="$start" -v end="$(date +%s.%N)" 'BEGIN {printf "%.2f", end - start}')
  # The line that names the problem (for a refusal, the first line of the message).
  shown_line=$(grep -iE -m1 -- "$pattern" <<< "$output" || head -1 <<< "$output")
  echo "| \`${shown}\` | $code | ${expected//|/\\|} | $elapsed | $(markdown_message "$shown_line") |" >> "$table"
  if [[ $code -eq 124 || $code -eq 137 ]] ||
    awk -v t="$elapsed" -v l="$limit_s" 'BEGIN {exit !(t > l)}'; then
    echo "FAIL ($where, ${elapsed} s, over ${limit_s} s): $shown" >&2
    status=1
  elif [[ ! "|$expected|" == *"|$code|"* ]]; then
    echo "FAIL ($where, exit $code, expected $expected): $shown: $shown_line" >&2
    status=1
  elif ! grep -qiE -- "$pattern" <<< "$output"; then
    echo "FAIL ($where, message does not match '$pattern'): $shown: $shown_line" >&2
    status=1
  fi
}

shopt -s nullglob
case_files=("$cases_dir"/*.cases)
if ((${#case_files[@]} == 0)); then
  echo "no case files in $cases_dir" >&2
  exit 2
fi
# shellcheck disable=SC2094  # the case file is only read (basename names it)
for case_file in "${case_files[@]}"; do
  line_number=0
  next_conditions=()
  next_limit=""
  while IFS= read -r line || [[ -n "$line" ]]; do
    line_number=$((line_number + 1))
    where="$(basename "$case_file"):$line_number"
    if [[ "$line" =~ ^[[:space:]]*$ ]]; then
      continue
    elif [[ "$line" =~ ^#[[:space:]]*var[[:space:]]+([A-Za-z_][A-Za-z0-9_]*)=(.+)$ ]]; then
      vars[${BASH_REMATCH[1]}]="${BASH_REMATCH[2]}"
    elif [[ "$line" =~ ^#[[:space:]]*if[[:space:]]+(.+)$ ]]; then
      read -ra next_conditions <<< "${BASH_REMATCH[1]}"
    elif [[ "$line" =~ ^#[[:space:]]*time-limit[[:space:]]+([0-9]+)$ ]]; then
      next_limit="${BASH_REMATCH[1]}"
    elif [[ "$line" == \#* ]]; then
      continue
    elif [[ "$line" != *";;"*";;"* ]]; then
      echo "FAIL ($where): not EXPECTED_EXIT;;PATTERN;;COMMAND: $line" >&2
      status=1
    else
      conditions_hold "${next_conditions[@]}"
      holds=$?
      if ((holds == 2)); then
        echo "FAIL ($where): bad '# if' line" >&2
        status=1
      elif ((holds == 0)); then
        run_case "$where" "${next_limit:-$default_limit_s}" "$line"
      fi
      next_conditions=()
      next_limit=""
    fi
  done < "$case_file"
done
cat "$table"
if ((status == 0)); then
  echo "all $ran cases refused as expected ($skipped skipped: not built)" >&2
fi
exit "$status"
