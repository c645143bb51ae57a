"""The kernels a student's files define: the sanitizer runs check only those."""
import unittest

from tests.helpers import GRADING
from gradelib import kernels, plan


class KernelNames(unittest.TestCase):
    def test_definitions_with_templates_and_launch_bounds(self):
        text = """
            template <int TILE>
            __global__ void tiled_checked_kernel(const float* m, int rows) {}
            __global__ void __launch_bounds__(Tiling::kThreads)
                rect_tiles_kernel(const float* a) {}
            __device__ float helper(float x) { return x; }
            __global__ void renamed_by_the_student (float* p);
            """
        self.assertEqual(kernels.defined_kernels(text),
                         ["rect_tiles_kernel", "renamed_by_the_student", "tiled_checked_kernel"])

    def test_the_course_and_exercise_files(self):
        by_folder = {step.folder: step for step in plan.STEPS}
        for source in ("reference", "exercise"):
            folder_of = kernels.submission_folder(GRADING.parent, source)
            names = {step.label: kernels.step_kernels(folder_of, step, by_folder)
                     for step in plan.STEPS}
            self.assertEqual(names["step1"], ["naive_single_block_kernel"], source)
            self.assertEqual(names["step3"], ["one_thread_per_element_kernel",
                                              "output_tiles_no_shared_kernel",
                                              "single_block_loop_kernel", "tiled_shared_kernel"],
                             source)
            self.assertEqual(names["step4"], ["rect_tiles_kernel", "tiled_checked_kernel"])
            self.assertEqual(names["step5"], ["sddmm_tile_grouped_kernel",
                                              "sddmm_warp_per_nonzero_kernel"])

    def test_filter_arguments(self):
        self.assertEqual(kernels.kernel_filter([]), [])
        self.assertEqual(kernels.kernel_filter(["a_kernel", "b"]),
                         ["--kernel-name", "regex=a_kernel|b"])


if __name__ == "__main__":
    unittest.main()
