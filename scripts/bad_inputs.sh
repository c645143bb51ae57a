#!/usr/bin/env bash
# Runs every step program and tool on bad input and writes a Markdown table of what each
# one said: the command, the exit code, the time it took and the first line of the message.
#
# Each case names the exit code it must give (2: bad command line; 1: the input was read
# and refused, or the run cannot fit in memory; 0 for the benchmark's rows that say why a
# matrix was skipped) and a pattern (grep -E, case-insensitive) that its output must match: the message has to name the problem, so a crash that prints
# something cannot pass for a refusal. Each case runs under `timeout` (5 s): a refusal must
# come at once, before any large allocation or any GPU work. The script fails if any case
# gives another exit code, another message, or runs out of time.
#
# Usage: scripts/bad_inputs.sh [BUILD_DIR] [TABLE_FILE]   (defaults: build, bad-inputs.md)
# Runs on any machine: every input is checked before the programs look for a GPU, so the
# same cases pass with or without one; without a GPU a valid command must end with the
# "no CUDA-capable GPU" message (exit 3), a last row of the table.
set -uo pipefail

build="${1:-build}"
table="${2:-bad-inputs.md}"
if ! build_path=$(cd "$build" 2>/dev/null && pwd); then
  echo "no build folder '$build'" >&2
  exit 2
fi
limit_s=5
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

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
# A shapes list for step 4's benchmark with a line of two numbers.
printf '10 10\n' > "$scratch/shapes_bad.txt"

s1=step1_naive/step1_naive
s2=step2_three_approaches/step2_three_approaches
s3=step3_shared_tiling/step3_shared_tiling
s4=step4_boundary_checks/step4_boundary_checks
tracer=step4_boundary_checks/step4_tile_tracer
mask=common/generate_mask
s5=step5_tensor_core_sddmm/step5_tensor_core_sddmm
bench=step5_tensor_core_sddmm/sddmm_bench

# Each case: EXPECTED_EXIT;;MESSAGE_PATTERN;;COMMAND (relative to the build folder).
range='must be a whole number from'
mem='not enough (host|device) memory'
cases=(
  "2;;--size $range 1 to;;$s1 --size 0"
  "2;;--size $range 1 to;;$s1 --size -4"
  "2;;not a whole number;;$s1 --size abc"
  "2;;at most 32x32;;$s1 --size 33"
  "2;;at most 32x32;;$s1 --rows 40 --inner 8 --cols 8"
  "2;;--repeats $range 1 to 1000;;$s1 --repeats 0"
  "2;;unknown option '--colour';;$s1 --colour blue"
  "2;;--rows is given twice;;$s1 --rows 5 --rows 6"
  "2;;--size and --rows cannot be given together;;$s1 --size 5 --rows 7"
  "2;;unexpected argument '16';;$s1 --size 8 16"
  "2;;--size $range 1 to 16384;;$s2 --size 0"
  "2;;--size $range 1 to 16384;;$s2 --size 20000"
  "2;;--approach $range 1 to 3;;$s2 --approach 4"
  "2;;not a whole number;;$s2 --bench-sizes 1024,x"
  "2;;--csv needs a file name, got the option --bench;;$s2 --csv --bench"
  "2;;--csv applies only with --bench;;$s2 --csv out.csv"
  "2;;--size does not apply to --bench;;$s2 --bench --size 64"
  "2;;multiple of the tile width 32;;$s3 --size 1000"
  "2;;multiple of the tile width 32;;$s3 --rows 64 --inner 33 --cols 64"
  "2;;--rows $range 1 to;;$s4 --rows -3"
  "2;;not a whole number;;$s4 --inner abc"
  "2;;more than the limit of 2147483647;;$s4 --rows 100000 --inner 1 --cols 100000"
  "2;;--approach $range 1 to 4;;$s4 --approach 9"
  "2;;--size and --rows cannot be given together;;$s4 --size 5 --rows 7"
  "2;;--csv applies only with --bench;;$s4 --csv x.csv"
  "2;;--markdown applies only with --bench;;$s4 --markdown x.md"
  "2;;--all-fast-variants applies only with --bench;;$s4 --all-fast-variants"
  "2;;--exact-alloc applies only with --demo-unchecked;;$s4 --exact-alloc"
  "2;;--bench and --demo-unchecked cannot be given together;;$s4 --bench --demo-unchecked"
  "2;;--bench and --rows cannot be given together;;$s4 --bench --rows 64"
  "2;;--shapes applies only with --bench;;$s4 --shapes $scratch/shapes_bad.txt"
  "1;;cannot read the shapes file;;$s4 --bench --shapes $scratch/missing.txt"
  "1;;line 1: expected three whole numbers;;$s4 --bench --shapes $scratch/shapes_bad.txt"
  "2;;--svg needs a file name, got the option --only-invalid;;$tracer --size 3 --tile 2 --svg --only-invalid"
  "2;;--tile $range 1 to 32;;$tracer --size 3 --tile 0"
  "2;;--size and --rows cannot be given together;;$tracer --size 5 --rows 7"
  "2;;more than the limit of --max-output-mb 256;;$tracer --size 1024 --tile 1"
  "2;;more than the limit of --max-output-mb 256;;$tracer --size 1024 --tile 32"
  "2;;--out needs a file name, got the option --seed;;$mask --rows 3 --cols 3 --nnz 2 --out --seed"
  "2;;--nnz 10 exceeds rows \\* cols = 9;;$mask --rows 3 --cols 3 --nnz 10"
  "2;;--power-law must be a number from 0 to 10, got '0.5abc';;$mask --power-law 0.5abc"
  "2;;--power-law must be a number from 0 to 10, got 'nan';;$mask --power-law nan"
  "2;;more than --max-output-mb 512;;$mask --rows 2147483647 --cols 2147483647 --nnz 2147483647"
)
# Step 4's shape limits (INT_MAX elements per matrix) keep every run within 52 GB of device
# memory, so its only run that cannot fit is the DEBUG check of the largest shapes on a
# host with less than 68 GiB available (checked here, where that is the case).
available_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo 2>/dev/null || echo 0)
# generate_mask's largest mask (2^31 - 1 entries) needs 56 GiB while it is drawn: refused
# where less is available; on a larger host it is real work (with a progress line), not bad
# input, so it is left out there.
if ((${available_kb:-0} < 56 * 1024 * 1024)); then
  cases+=("1;;$mem;;$mask --rows 2147483647 --cols 2147483647 --nnz 2147483647 --max-output-mb 1048576")
fi
if ((${available_kb:-0} < 68 * 1024 * 1024)) && grep -q 'COURSE_DEBUG:BOOL=ON' "$build_path/CMakeCache.txt" 2>/dev/null; then
  cases+=("1;;$mem;;$s4 --rows 46000 --inner 46000 --cols 46000")
fi
if [[ -x "$build_path/$s5" ]]; then
  cases+=(
    "2;;--k $range 1 to 65536;;$s5 --k 0"
    "2;;--matrix needs a file name, got the option --k;;$s5 --matrix --k 64"
    "2;;--nnz 10 exceeds rows\\*cols = 9;;$s5 --m 3 --n 3 --nnz 10"
    "2;;--matrix and --m cannot be given together;;$s5 --matrix $scratch/too_few.mtx --m 5"
    "1;;cannot open;;$s5 --matrix $scratch/missing.mtx"
    "1;;bad_header.mtx:1: bad header;;$s5 --matrix $scratch/bad_header.mtx"
    "1;;too_few.mtx:4: too few entries;;$s5 --matrix $scratch/too_few.mtx"
    "1;;out_of_range.mtx:3: row index 4 out of range;;$s5 --matrix $scratch/out_of_range.mtx"
    "1;;non_numeric.mtx:3: non-numeric column index;;$s5 --matrix $scratch/non_numeric.mtx"
    "1;;long_line.mtx.gz:3: line is longer than 1048576 bytes;;$s5 --matrix $scratch/long_line.mtx.gz"
    "1;;approach 2 stores the dense product;;$s5 --m 916000 --n 916000 --nnz 5000000 --approach 2"
    "1;;$mem.*A \\(rows x inner halves\\);;$s5 --matrix $scratch/huge_2e9.mtx --k 64"
    "1;;$mem.*A \\(rows x inner halves\\);;$s5 --m 2000000000 --n 2 --k 65536 --nnz 1"
    "1;;$mem;;$s5 --m 2147483647 --n 2147483647 --k 16 --nnz 2147483647"
  )
fi
if [[ -x "$build_path/$bench" ]]; then
  cases+=(
    "2;;--tc-density must be a number greater than 0 and at most 1, got '0.5abc';;$bench --tc-density 0.5abc"
    "2;;--tc-density must be a number greater than 0 and at most 1, got 'nan';;$bench --tc-density nan"
    "2;;--tc-density must be a number greater than 0 and at most 1, got 0;;$bench --tc-density 0"
    "2;;--tc-density must be a number greater than 0 and at most 1, got 5;;$bench --tc-density 5"
    "2;;--tc-density must be a number greater than 0 and at most 1, got -1;;$bench --tc-density -1"
    "2;;--group-lanes must be 0, 4, 8, 16 or 32, got 5;;$bench --group-lanes 5"
    "2;;--repeats is given twice;;$bench --repeats 3 --repeats 4"
    "2;;--csv needs a file name, got the option --filter;;$bench --csv --filter x"
    "2;;--matrices .*no_such_folder is not a directory;;$bench --matrices $scratch/no_such_folder"
  )
fi
# Without a GPU, a valid command must say so plainly. With one, the benchmark must turn a
# matrix that cannot fit, or a malformed one, into a row saying why and go on (exit 0).
if ! nvidia-smi -L >/dev/null 2>&1; then
  cases+=("3;;no CUDA-capable GPU;;$s1")
elif [[ -x "$build_path/$bench" ]]; then
  mkdir -p "$scratch/too_big" "$scratch/broken"
  cp "$scratch/huge_2e9.mtx" "$scratch/too_big/"
  cp "$scratch/bad_header.mtx" "$scratch/broken/"
  cases+=(
    "0;;huge_2e9 .*skipped: not enough host memory;;$bench --shapes none --matrices $scratch/too_big --repeats 1"
    "0;;bad_header .*skipped: .*bad_header.mtx:1: bad header;;$bench --shapes none --matrices $scratch/broken --repeats 1"
  )
fi

# Markdown-safe first line of a message: no temporary folder, escaped bars, dashes and tags.
markdown_message() {
  head -1 <<< "$1" | sed "s|$scratch/||g; s/|/\\\\|/g; s/--/\\\\--/g; s/</\\&lt;/g; s/>/\\&gt;/g"
}

status=0
{
  echo "| command | exit | expected | time (s) | message |"
  echo "|---|---:|---:|---:|---|"
} > "$table"
for entry in "${cases[@]}"; do
  expected="${entry%%;;*}"
  rest="${entry#*;;}"
  pattern="${rest%%;;*}"
  command="${rest#*;;}"
  start=$(date +%s.%N)
  # shellcheck disable=SC2086  # the case is a command line, split into words on purpose
  output=$(cd "$scratch" && timeout "$limit_s" "$build_path/"$command 2>&1)
  code=$?
  # The line that names the problem (for a refusal, the first line of the message).
  shown_line=$(grep -iE -m1 -- "$pattern" <<< "$output" || head -1 <<< "$output")
  elapsed=$(awk -v start="$start" -v end="$(date +%s.%N)" 'BEGIN {printf "%.2f", end - start}')
  shown=$(sed "s|$scratch/||g" <<< "$command")
  echo "| \`${shown}\` | $code | $expected | $elapsed | $(markdown_message "$shown_line") |" >> "$table"
  if [[ $code -eq 124 ]]; then
    echo "FAIL (over ${limit_s} s): $shown" >&2
    status=1
  elif [[ $code -ne $expected ]]; then
    echo "FAIL (exit $code, expected $expected): $shown: $shown_line" >&2
    status=1
  elif ! grep -qiE -- "$pattern" <<< "$output"; then
    echo "FAIL (message does not match '$pattern'): $shown: $shown_line" >&2
    status=1
  fi
done
cat "$table"
if ((status == 0)); then
  echo "all ${#cases[@]} cases refused as expected" >&2
fi
exit "$status"
