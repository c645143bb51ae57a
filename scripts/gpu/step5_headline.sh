#!/usr/bin/env bash
# On the GPU machine (run from the repository root with OUT set, MATRICES=dir of the real .mtx.gz): step 5's
# headline run of issue 41. Every attention case of the public and other sets, each as a pattern and with
# random values, and the real matrices, through the path the program takes (HostSampling, the program's
# timing), against cuSPARSE fp16 and dense-then-sample in the same run, with the LIMIT column; then the
# program itself against the bench on the same files. Under 8 minutes on an H200, build included.
# Usage: OUT=/folder MATRICES=/folder/of/mtx.gz [BUDGET=seconds] bash scripts/gpu/step5_headline.sh   (BUDGET: default 475)
set -u
case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
  ?*) echo "step5_headline.sh: takes no arguments (OUT and BUDGET come from the environment; see --help)" >&2; exit 2 ;;
esac
[[ -n "${OUT:-}" ]] || { echo "step5_headline.sh: set OUT to the folder for the results (see --help)" >&2; exit 2; }
mkdir -p "$OUT"
START=$(date +%s); DEADLINE=$((START + ${BUDGET:-475}))
S=$OUT/summary.txt; L=$OUT/build.log; E=$OUT/stderr.log; P=$OUT/program_vs_bench.txt
: > $S; : > $L; : > $E; : > $P
note() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a $S; }
run() { local cap=$1 f=$2; shift 2; local left=$(( DEADLINE - $(date +%s) - 10 ));
  if (( left < 15 )); then note "SKIPPED: $*"; return 99; fi
  local lim=$(( cap < left ? cap : left )); echo "=== $* (limit ${lim}s)" >> $f
  timeout -k 5 $lim "$@" >> $f 2>&1; local rc=$?; note "rc=$rc: ${*:0:160}"; return $rc; }
export PATH=/usr/local/cuda/bin:$PATH
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); TAG=$(echo "$GPU" | grep -oiE "h100|h200|a100|l4|t4" | head -1 | tr A-Z a-z); TAG=${TAG:-gpu}
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee -a $S; date -u | tee -a $S
git log -1 --format='commit %H %s' 2>/dev/null | tee -a $S
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCOURSE_STEPS=step5_tensor_core_sddmm -DCMAKE_PREFIX_PATH=$PWD/.deps/usr >> $L 2>&1
run 180 $L cmake --build build-gpu -j 16 --target sddmm_bench step5_going_further generate_mask || { tail -30 $L; exit 1; }
B5=build-gpu/step5_tensor_core_sddmm/lab/sddmm_bench; G=build-gpu/step5_tensor_core_sddmm/going_further/step5_going_further
GM=build-gpu/common/generate_mask; SETS=step5_tensor_core_sddmm/lab/sets; R=$OUT/r; mkdir -p $R; T=$(mktemp -d)
COMMON="--approaches 4 --no-fp32 --repeats 10 --other-repeats 1"

# 1. The attention sets (each mask as a pattern and with random values).
run 190 $E $B5 $COMMON --masks $SETS/attention_public.txt --csv $R/headline_public_$TAG.csv --markdown $R/headline_public_$TAG.md
run 110 $E $B5 $COMMON --masks $SETS/attention_other.txt --csv $R/headline_other_$TAG.csv --markdown $R/headline_other_$TAG.md

# 2. The program against the bench on the same files (pattern and random values), inner 64 and 256: the
# issue's 16-block mask, the causal mask and a window mask whose entries all sit on dense panels.
mkdir -p $T/m
run 30 $E $GM --mask block-sparse --rows 16384 --cols 16384 --block-size 16 --block-density 0.03 --seed 11 --out $T/m/block16.mtx
run 30 $E $GM --mask sliding-window --rows 4096 --cols 4096 --window 4095 --causal --out $T/m/causal4096.mtx
run 30 $E $GM --mask sliding-window --rows 8192 --cols 8192 --window 256 --out $T/m/window8192.mtx
for m in block16 causal4096 window8192; do
  awk 'BEGIN{srand(7)} NR==1{sub("pattern","real");print;next} /^%/{print;next} !s{s=1;print;next} {printf "%s %.6f\n",$0,2*rand()-1}' $T/m/$m.mtx > $T/m/${m}_vrand.mtx
done
run 60 $E $B5 --approaches 4 --no-fp32 --repeats 20 --other-repeats 1 --matrices $T/m --matrix-inner 64,256 --markdown $R/program_check_bench_$TAG.md
for f in $T/m/*.mtx; do for k in 64 256; do
  echo "## $(basename $f .mtx) inner=$k" >> $P
  run 20 $P $G --approach 4 --matrix $f --inner $k --repeats 20 --seed 3
done; done
python3 - "$P" "$R/program_check_bench_$TAG.md" <<'PY' | tee -a $S
import re, sys
prog = {}; name = None
for line in open(sys.argv[1]):
    m = re.match(r"## (\S+) inner=(\d+)", line)
    if m: name = (m.group(1), m.group(2))
    m = re.match(r"sddmm ([0-9.eE+-]+) ms", line)
    if m and name: prog[name] = float(m.group(1))
bench = {}
for line in open(sys.argv[2]):
    cells = [c.strip() for c in line.split("|")]
    if len(cells) > 8 and cells[6] == "4 hybrid":
        try: bench[(cells[1], cells[4])] = float(cells[7])
        except ValueError: pass
worst = 0.0
for key in sorted(prog):
    if key in bench:
        ratio = prog[key] / bench[key]; worst = max(worst, abs(ratio - 1))
        print(f"program vs bench: {key[0]} inner={key[1]}: program {prog[key]:.4f} ms, bench {bench[key]:.4f} ms, ratio {ratio:.3f}")
print(f"program vs bench: largest difference {100 * worst:.1f} % over {len([k for k in prog if k in bench])} pairs (target: within 5 %)")
PY

# 3. The real matrices.
run 70 $E $B5 $COMMON --matrices ${MATRICES:-data} --csv $R/headline_matrices_$TAG.csv --markdown $R/headline_matrices_$TAG.md

# 4. The figures the targets read: each set's geomean and smallest against the better baseline, the largest
# valued / pattern, the LIMIT multiples.
for f in $R/headline_*.md; do
  grep -E "^\| 4 hybrid \| [a-z_]+ \| [0-9]" $f | sed "s|^|$(basename $f): |" | tee -a $S
  grep -E "^Largest valued / pattern" $f | sed "s|^|$(basename $f): |" | tee -a $S
done
cd $R && tar czf $OUT/headline_results.tar.gz . && cd - > /dev/null
cp $R/headline_public_$TAG.md $R/headline_other_$TAG.md $R/headline_matrices_$TAG.md $OUT/ 2>/dev/null; rm -rf $R $T
note done
