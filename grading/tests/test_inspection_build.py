"""The inspection on a real CMake + Ninja build (no GPU needed): every object that includes a
student's file must get its compile command, however CMake wrote compile_commands.json.

The GPU run of 2026-11-25 found none: CMake 4 writes each entry's "output" as an absolute
path, ninja names the objects relative to the build folder, and every student object of the
mutation check was "not inspected" (its step lost every point). Here a tiny project built like
the course (a generated wrapper in the build folder including the student's file through its
step folder, as course_add_kernel_library does, and a launch file of the course including it)
is inspected three times: with the database as this CMake wrote it, with every "output" made
absolute (CMake 4's form) and with no database at all (ninja's own command is used). Each time
the source rules must run on both objects: the raw shuffle of the student's file is found."""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

from gradelib import inspection, plan, sandbox

CMAKE = os.environ.get("COURSE_GRADING_TEST_CMAKE") or shutil.which("cmake")
NINJA = shutil.which("ninja")
NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                               if pathlib.Path("/usr/local/cuda/bin/nvcc").exists() else None)

STUDENT = r'''#pragma once
__device__ inline float lane_sum(float value) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    value += __shfl_xor_sync(0xFFFFFFFFu, value, offset);  // raw: not allowed in step 5
  }
  return value;
}
__global__ void student_sum_kernel(const float* in, float* out) {
  out[threadIdx.x] = lane_sum(in[threadIdx.x]);
}
'''
LAUNCH = r'''#include "step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh"
void launch_sum(const float* in, float* out) { student_sum_kernel<<<1, 32>>>(in, out); }
'''
CMAKELISTS = r'''cmake_minimum_required(VERSION 3.18)
project(inspection_probe LANGUAGES CXX CUDA)
set(stage "${CMAKE_CURRENT_BINARY_DIR}/course_kernels")
file(WRITE "${stage}/wrapper.cu"
     "#include \"${SUBMISSION}/step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh\"\n")
file(WRITE "${stage}/step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh"
     "#include \"${SUBMISSION}/step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh\"\n")
add_library(probe STATIC "${stage}/wrapper.cu" launch.cu)
target_include_directories(probe BEFORE PRIVATE "${stage}")
'''
OBJECTS = 2


@unittest.skipUnless(CMAKE and NINJA and NVCC, "cmake, ninja or nvcc missing")
class RealBuild(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        root = pathlib.Path(cls.folder.name)
        cls.course, cls.submission, cls.build = root / "course", root / "sub", root / "build"
        (cls.submission / "step5_tensor_core_sddmm").mkdir(parents=True)
        (cls.submission / "step5_tensor_core_sddmm" / "sddmm_warp_per_nonzero.cuh").write_text(
            STUDENT, encoding="utf-8")
        cls.course.mkdir()
        (cls.course / "CMakeLists.txt").write_text(CMAKELISTS, encoding="utf-8")
        (cls.course / "launch.cu").write_text(LAUNCH, encoding="utf-8")
        environment = dict(os.environ, PATH=f"{pathlib.Path(NVCC).parent}:{os.environ['PATH']}")
        subprocess.run([CMAKE, "-S", str(cls.course), "-B", str(cls.build), "-G", "Ninja",
                        f"-DCMAKE_CUDA_COMPILER={NVCC}", "-DCMAKE_CUDA_ARCHITECTURES=90",
                        "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", f"-DSUBMISSION={cls.submission}"],
                       check=True, capture_output=True, env=environment)
        subprocess.run([CMAKE, "--build", str(cls.build)], check=True, capture_output=True,
                       env=environment)
        cls.database = (cls.build / "compile_commands.json").read_text(encoding="utf-8")
        cls.box = sandbox.Sandbox(cls.course, enabled=False)

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def setUp(self):
        (self.build / "compile_commands.json").write_text(self.database, encoding="utf-8")

    def inspect(self):
        step = plan.STEP_BY_LABEL["step5"]
        found = inspection.inspect_build(self.box, self.build, self.build, self.submission,
                                         [step], [], jobs=2)
        self.assertEqual(found.problems, [])
        self.assertEqual(len(found.objects), OBJECTS, found.objects)
        self.assertEqual(found.student_kernels["step5"], ["student_sum_kernel"])
        rules = [finding.rule for finding in found.findings["step5"]]
        self.assertIn("primitive", rules)
        return found

    def test_the_database_as_this_cmake_wrote_it(self):
        self.inspect()

    def test_outputs_written_as_absolute_paths_as_cmake_4_does(self):
        entries = json.loads(self.database)
        for entry in entries:
            output = entry.get("output") or entry["command"].rsplit(" -o ", 1)[1].split()[0]
            entry["output"] = str(self.build / output) if not os.path.isabs(output) else output
        (self.build / "compile_commands.json").write_text(json.dumps(entries), encoding="utf-8")
        keys = set(inspection.compile_commands(self.build))
        self.assertTrue(all(not os.path.isabs(key) for key in keys), keys)
        self.inspect()

    def test_without_a_database_ninja_gives_the_commands(self):
        (self.build / "compile_commands.json").unlink()
        self.inspect()

    def test_an_object_without_any_command_costs_its_step(self):
        found = inspection.Inspection({"step5": []}, {"step5": []}, {}, [
            "step5: x.o: no compile command recorded", "the preprocessor is missing"])
        found.charge_problems()
        self.assertEqual([f.rule for f in found.findings["step5"]], ["inspection"] * 2)


class ObjectKeys(unittest.TestCase):
    def test_relative_absolute_and_sandbox_paths_name_the_same_object(self):
        wanted = "step1_naive/CMakeFiles/k.dir/course_kernels/step1_launchers.cu.o"
        for output, directory in ((wanted, "/tmp/judge/build"), ("./" + wanted, "/x"),
                                  ("/tmp/judge/build/" + wanted, "/tmp/judge/build"),
                                  ("/tmp/judge/build/" + wanted, "/elsewhere"),
                                  ("/host/b/" + wanted, "/host/b")):
            self.assertEqual(inspection.object_key(output, directory), wanted, output)


if __name__ == "__main__":
    unittest.main()
