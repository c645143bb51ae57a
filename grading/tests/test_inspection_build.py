"""The trust boundary of steps 2 to 5 on a real CMake + Ninja build with the course's own
cmake/Course.cmake (no GPU needed): a tiny step folder built like step 5's (a course launcher,
a kernel file a student writes, the checked shuffle as PRELUDE) three times: with the
reference's kernel file (the pristine tree), with a hostile one and with one whose kernel
does not match the interface.

The hostile file holds a constructor of priority 101 with a system call in inline asm, a
static object whose constructor runs a shell, an `.init_array` and a `.preinit_array` entry,
host functions, and a kernel whose shuffle names half the warp. Its compiled object holds none
of that host code (its host part is byte for byte the pristine one's, which the inspection
checks), its kept PTX is the student's kernel, and the inspection finds the half-warp mask
there. The mismatched file's build fails with a message that names its kernels."""
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

from tests.helpers import GRADING
from gradelib import build, elf, inspection, plan, sandbox

CMAKE = os.environ.get("COURSE_GRADING_TEST_CMAKE") or shutil.which("cmake")
NINJA = shutil.which("ninja")
NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                               if pathlib.Path("/usr/local/cuda/bin/nvcc").exists() else None)
ROOT = GRADING.parent
FOLDER = "step5_tensor_core_sddmm"
KERNEL = "sddmm_warp_per_nonzero.cuh"

PROJECT = f'''cmake_minimum_required(VERSION 3.24)
project(boundary_probe LANGUAGES CXX CUDA)
set(CMAKE_CUDA_STANDARD 17)
include("{ROOT}/cmake/Course.cmake")
add_library(course_common INTERFACE)
add_subdirectory({FOLDER})
'''
STEP = f'''course_add_kernel_library(step5_kernels LAUNCHERS step5_launchers.cu KERNELS {KERNEL}
  PRELUDE {FOLDER}/warp_shuffle_check.cuh)
target_include_directories(step5_kernels PUBLIC "${{PROJECT_SOURCE_DIR}}")
target_compile_definitions(step5_kernels PRIVATE COURSE_CHECK_WARP_MASKS)
'''
# An anonymous namespace: cudafe++ names it with a hash of the source's path, which differs
# between these build folders (compared with the hash left out).
LAUNCHER = f'''#include "{FOLDER}/{KERNEL}"
namespace course::step5 {{
namespace {{
unsigned blocks() {{ return 1; }}
}}  // namespace
void launch_probe_sum(const float* in, float* out) {{
  probe_sum_kernel<<<blocks(), 32>>>(in, out);
}}
}}  // namespace course::step5
'''
REFERENCE = f'''#pragma once
#include "{FOLDER}/warp_shuffle_check.cuh"
namespace course::step5 {{
__global__ void probe_sum_kernel(const float* in, float* out) {{
  float value = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1) {{
    value += checked_shfl_xor_sync(0xFFFFFFFFu, value, offset);
  }}
  if (threadIdx.x == 0) out[0] = value;
}}
}}  // namespace course::step5
'''
HOSTILE = r'''#pragma once
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
namespace {
long hostile_syscall(long number) {
  long result;
  asm volatile("syscall" : "=a"(result) : "a"(number) : "rcx", "r11", "memory");
  return result;
}
__attribute__((constructor(101))) void hostile_first() { hostile_syscall(60); }
__attribute__((constructor)) void hostile_constructor() { std::system("touch /tmp/hostile"); }
struct HostileObject { HostileObject() { std::puts("hostile static object"); } } hostile_object;
void hostile_entry() { _exit(0); }
__attribute__((section(".preinit_array"), used)) void (*hostile_preinit)() = hostile_entry;
__attribute__((section(".init_array"), used)) void (*hostile_init)() = hostile_entry;
}  // namespace
namespace course::step5 {
int hostile_helper(int x) { return static_cast<int>(hostile_syscall(x)); }
__global__ void probe_sum_kernel(const float* in, float* out) {
  float value = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1) {
    value += __shfl_xor_sync(0x0000FFFFu, value, offset);
  }
  if (threadIdx.x == 0) out[0] = value * 7.0f;
}
}  // namespace course::step5
'''
MISMATCH = r'''#pragma once
namespace course::step5 {
__device__ int probe_counter;
__global__ void probe_extra_kernel(float* out) { out[0] = 1.0f; }
__global__ void probe_sum_kernel(const float* in, float* out, int scale = 1) {
  out[threadIdx.x] = in[threadIdx.x] * scale;
}
}  // namespace course::step5
'''


@unittest.skipUnless(CMAKE and NINJA and NVCC, "cmake, ninja or nvcc missing")
class DeviceOnlyKernels(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        root = pathlib.Path(cls.folder.name)
        course = root / "course"
        (course / FOLDER).mkdir(parents=True)
        (course / "CMakeLists.txt").write_text(PROJECT, encoding="utf-8")
        (course / FOLDER / "CMakeLists.txt").write_text(STEP, encoding="utf-8")
        (course / FOLDER / "step5_launchers.cu").write_text(LAUNCHER, encoding="utf-8")
        (course / FOLDER / KERNEL).write_text(REFERENCE, encoding="utf-8")
        shutil.copy2(ROOT / FOLDER / "warp_shuffle_check.cuh", course / FOLDER)
        cls.builds, cls.outputs, cls.submissions = {}, {}, {}
        for name, text in (("reference", REFERENCE), ("hostile", HOSTILE),
                           ("mismatch", MISMATCH)):
            submission = root / name
            (submission / FOLDER).mkdir(parents=True)
            (submission / FOLDER / KERNEL).write_text(text, encoding="utf-8")
            build = root / f"build-{name}"
            environment = dict(os.environ,
                               PATH=f"{pathlib.Path(NVCC).parent}:{os.environ['PATH']}")
            subprocess.run([CMAKE, "-S", str(course), "-B", str(build), "-G", "Ninja",
                            f"-DCMAKE_CUDA_COMPILER={NVCC}", "-DCMAKE_CUDA_ARCHITECTURES=90",
                            "-DCMAKE_BUILD_TYPE=Release", f"-DCOURSE_KERNELS={submission}"],
                           check=True, capture_output=True, env=environment)
            built = subprocess.run([CMAKE, "--build", str(build)], capture_output=True,
                                   text=True, env=environment)
            cls.builds[name], cls.submissions[name] = build, submission
            cls.outputs[name] = (built.returncode, built.stdout + built.stderr)
        cls.object = (f"{FOLDER}/CMakeFiles/step5_kernels.dir/course_kernels/"
                      "step5_launchers.cu.o")

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def test_the_forwarding_header_gives_the_student_file_to_the_gpu_passes_only(self):
        header = (self.builds["hostile"] / FOLDER / "course_kernels" / FOLDER / KERNEL
                  ).read_text(encoding="utf-8")
        gpu, host = header.split("#else")
        self.assertIn("#ifdef __CUDA_ARCH__", gpu)
        self.assertIn(f'#include "{FOLDER}/warp_shuffle_check.cuh"', gpu)
        self.assertIn(str(self.submissions["hostile"]), gpu)
        self.assertNotIn(str(self.submissions["hostile"]), host)

    def test_no_host_code_of_the_student_is_compiled(self):
        self.assertEqual(self.outputs["hostile"][0], 0, self.outputs["hostile"][1])
        obj = elf.ElfObject(self.builds["hostile"] / self.object)
        names = [symbol.name for symbol in obj.symbols]
        self.assertFalse([name for name in names if "hostile" in name], names)
        sections = [section.name for section in obj.sections]
        self.assertNotIn(".preinit_array", sections)
        self.assertFalse([name for name in sections if name.startswith(".init_array.")])
        self.assertEqual(next(s for s in obj.sections if s.name == ".init_array").size, 8)
        for section in obj.sections:
            if section.executable:
                self.assertNotIn(b"\x0f\x05", section.data, section.name)
        # Byte for byte the course's object, apart from the device code.
        self.assertEqual(inspection.host_code_findings(
            self.builds["hostile"] / self.object, self.builds["reference"] / self.object,
            (KERNEL,)), [])
        # ... and the device code is the student's: its half-warp mask and its factor 7.
        ptx = "\n".join(path.read_text() for path in inspection.device_code(
            self.builds["hostile"] / self.object))
        self.assertIn("65535", ptx)
        self.assertIn("0f40E00000", ptx)

    def test_the_inspection_reads_the_masks_in_the_kept_ptx(self):
        box = sandbox.Sandbox(ROOT, enabled=False)
        found = inspection.inspect_build(box, self.builds["hostile"], self.builds["reference"],
                                         self.submissions["hostile"], [plan.STEP_BY_LABEL["step5"]],
                                         [], jobs=2)
        self.assertEqual(found.problems, [])
        self.assertEqual(found.student_kernels["step5"], ["probe_sum_kernel"])
        rules = {finding.rule: finding.text for finding in found.findings["step5"]}
        self.assertEqual(set(rules), {"warp-mask"}, rules)
        self.assertIn("uses the mask 0x0000ffff", rules["warp-mask"])
        clean = inspection.inspect_build(box, self.builds["reference"],
                                         self.builds["reference"],
                                         self.submissions["reference"],
                                         [plan.STEP_BY_LABEL["step5"]], [], jobs=2)
        self.assertEqual(clean.findings["step5"], [])

    def test_a_kernel_that_is_not_the_interfaces_fails_the_build_naming_it(self):
        status, output = self.outputs["mismatch"]
        self.assertNotEqual(status, 0)
        self.assertIn("does not match the course's kernel interface", output)
        self.assertIn("course::step5::probe_extra_kernel(float*)", output)
        self.assertIn("variable course::step5::probe_counter", output)
        # The grader's note on the step quotes that explanation first.
        first = build.step_errors(output, FOLDER).splitlines()[0]
        self.assertIn("does not match the course's kernel interface", first)


if __name__ == "__main__":
    unittest.main()
