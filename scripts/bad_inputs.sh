#!/usr/bin/env bash
# Runs every step program on bad input and writes a Markdown table of what each one said:
# the command, the exit code and the first line of the message. Each case must exit
# non-zero with a message; the script fails if one does not.
#
# Usage: scripts/bad_inputs.sh [BUILD_DIR] [TABLE_FILE]   (defaults: build, bad-inputs.md)
# Runs on any machine; on one without a GPU, inputs that pass validation end at the
# "no CUDA-capable GPU" message instead (also a row of the table).
set -uo pipefail

build="${1:-build}"
table="${2:-bad-inputs.md}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Matrix Market files with one defect each, for the programs that read them.
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n' > "$scratch/too_few.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1.0\n' > "$scratch/out_of_range.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 x 1.0\n' > "$scratch/non_numeric.mtx"
printf 'hello\n' > "$scratch/bad_header.mtx"

s1=step1_naive/step1_naive
s2=step2_three_approaches/step2_three_approaches
s3=step3_shared_tiling/step3_shared_tiling
s4=step4_boundary_checks/step4_boundary_checks
s5=step5_tensor_core_sddmm/step5_tensor_core_sddmm
cases=(
  "$s1 --size 0"
  "$s1 --size -4"
  "$s1 --size abc"
  "$s1 --size 33"
  "$s1 --rows 40 --inner 8 --cols 8"
  "$s1 --repeats 0"
  "$s1 --colour blue"
  "$s2 --size 0"
  "$s2 --size 20000"
  "$s2 --approach 4"
  "$s2 --bench-sizes 1024,x"
  "$s3 --size 1000"
  "$s3 --rows 64 --inner 33 --cols 64"
  "$s4 --rows -3"
  "$s4 --inner abc"
  "$s4 --rows 100000 --inner 1 --cols 100000"
  "$s4 --approach 9"
)
# Without a GPU, a valid command must say so plainly.
nvidia-smi -L >/dev/null 2>&1 || cases+=("$s1")
if [[ -x "$build/$s5" ]]; then
  cases+=(
    "$s5 --k 0"
    "$s5 --matrix $scratch/missing.mtx"
    "$s5 --matrix $scratch/bad_header.mtx"
    "$s5 --matrix $scratch/too_few.mtx"
    "$s5 --matrix $scratch/out_of_range.mtx"
    "$s5 --matrix $scratch/non_numeric.mtx"
    "$s5 --m 916000 --n 916000 --nnz 5000000 --approach 2"
  )
fi

status=0
{
  echo "| command | exit | message |"
  echo "|---|---:|---|"
} > "$table"
for entry in "${cases[@]}"; do
  # shellcheck disable=SC2086  # the case is a command line, split into words on purpose
  output=$("$build/"$entry 2>&1 >/dev/null)
  code=$?
  message=$(head -1 <<< "$output" | sed "s|$scratch/||g; s/|/\\\\|/g")
  shown=$(sed "s|$scratch/||g" <<< "$entry")
  echo "| \`${shown}\` | $code | $message |" >> "$table"
  if [[ $code -eq 0 || -z "$message" ]]; then
    echo "bad input accepted or unexplained: $entry (exit $code)" >&2
    status=1
  fi
done
cat "$table"
exit "$status"
