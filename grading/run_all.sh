#!/usr/bin/env bash
# Grades a class: every folder in STUDENTS is one student's submission (one folder per
# step, see grading/README.md). The course is built once per lane; each student then costs
# the compilation of the files that include their kernels, the links and the tests
# (grade.py, sanitizers included). Lanes share the cores (gradelib/lanes.py). Writes
# OUT_DIR/class_grades.md and .csv (a row per student, a link to each report; rewritten
# after every student) and OUT_DIR/students/<name>/grades.md. A broken student never stops
# the run; SIGTERM stops it with the table of the students graded so far.
#
# Usage: grading/run_all.sh STUDENTS OUT_DIR [grade_class.py options...]
#   e.g. grading/run_all.sh ~/submissions class-grades --lanes 2 \
#          --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90 --cmake-arg=-DCMAKE_PREFIX_PATH=$PWD/.deps/usr
# Exit status: 2 for a usage error (no such folder), 1 when the course itself does not
# build, 0 otherwise (the grades are in the table).
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 STUDENTS OUT_DIR [grade_class.py options...]" >&2
  exit 2
fi
exec python3 "$(dirname "$0")/grade_class.py" "$@"
