"""The grader's building blocks: the grading plan, sanitizer-output parsing, test runs,
scores and reports. grade.py, grade_class.py and mutation_check.py use them; the CPU tests
in grading/tests cover them without a GPU."""
