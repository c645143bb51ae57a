#!/usr/bin/env bash
# Grades a class: every folder in STUDENTS is one student's submission (one folder per
# step, see grading/README.md). The course is built once (in a sandbox, with the reference);
# each student gets a fresh copy of that build in their report folder, compiles only the
# files that include their own, and is graded by grade.py: their runners run in a sandbox,
# the judge checks the outputs. Lanes share the cores (gradelib/lanes.py). Writes
# OUT_DIR/class_grades.md and .csv (a row per student, a link to each report; rewritten
# after every student) and OUT_DIR/students/<name>/grades.md. A broken student never stops
# the run; SIGTERM stops it with the table of the students graded so far.
#
# Usage: grading/run_all.sh STUDENTS OUT_DIR [grade_class.py options...]
#   e.g. grading/run_all.sh ~/submissions class-grades --lanes 2 \
#          --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90 --cmake-arg=-DCMAKE_PREFIX_PATH=$PWD/.deps/usr
# Exit status: 2 for a usage error (no such folder), 1 when the course itself does not
# build or grading changed a file outside a student's report folder, 0 otherwise (the
# grades are in the table).
set -uo pipefail
case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
esac
if [ $# -lt 2 ]; then
  echo "usage: $0 STUDENTS OUT_DIR [grade_class.py options...] (see --help)" >&2
  exit 2
fi
exec python3 "$(dirname "$0")/grade_class.py" "$@"
