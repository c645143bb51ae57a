"""The inspection of compiled files and preprocessed source (gradelib/inspection.py), on small
files compiled here with nvcc (no GPU needed): kernels from the symbols whatever the source
hides, the host rules against a baseline object, and the source rules after the preprocessor."""
import json
import pathlib
import shutil
import subprocess
import tempfile
import unittest

from gradelib import inspection

NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                               if pathlib.Path("/usr/local/cuda/bin/nvcc").exists() else None)

BASE = r'''
namespace course::step9 {
__global__ void visible_kernel(const float* a, float* c, int n) {
  const int i = threadIdx.x;
  if (i < n) c[i] = a[i];
}
void launch(const float* a, float* c, int n) { visible_kernel<<<1, 32>>>(a, c, n); }
}  // namespace course::step9
'''


def compile_source(folder, name, source):
    path = pathlib.Path(folder) / f"{name}.cu"
    path.write_text(source)
    subprocess.run([NVCC, "-O2", "-arch=sm_90", "-c", str(path), "-o", str(path.with_suffix(".o"))],
                   check=True, capture_output=True)
    return path.with_suffix(".o")


@unittest.skipUnless(NVCC, "nvcc is not installed")
class CompiledFiles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.base = compile_source(cls.folder.name, "base", BASE)

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def variant(self, name, extra, replace=None):
        source = BASE if replace is None else BASE.replace(*replace)
        return compile_source(self.folder.name, name, source + extra)

    def findings(self, obj):
        return {finding.rule: finding.text
                for finding in inspection.host_findings(obj, self.base, ("file.cuh",))}

    def test_kernels_come_from_the_symbols_whatever_the_source_hides(self):
        obj = self.variant("hidden", r'''
#define KERNEL __global__
namespace course::step9 {
// __global__ void decoy(
__global__ static void hidden_kernel(float* c) { c[threadIdx.x] = 1.0f; }
template <int T> KERNEL void template_kernel(float* c) { c[threadIdx.x] = T; }
namespace { __global__ void anonymous_kernel(float* c) { c[0] = 2; } }
void launch_more(float* c) {
  hidden_kernel<<<1, 1>>>(c); template_kernel<3><<<1, 1>>>(c); anonymous_kernel<<<1, 1>>>(c);
}
}
''')
        names = sorted(inspection.kernel_base(name)
                       for name in inspection.object_kernels(obj).values())
        self.assertEqual(names, ["anonymous_kernel", "hidden_kernel", "template_kernel",
                                 "visible_kernel"])

    def test_the_reference_itself_has_no_finding(self):
        self.assertEqual(self.findings(self.base), {})
        renamed = self.variant("renamed", "", ("visible_kernel", "my_own_kernel"))
        self.assertEqual(self.findings(renamed), {})

    def test_a_static_initializer_that_writes_a_report_and_exits(self):
        found = self.findings(self.variant("forged", r'''
#include <cstdio>
#include <unistd.h>
namespace { struct Forged { Forged() {
  if (FILE* f = std::fopen("report.xml", "w")) { std::fputs("<testsuites/>", f); std::fclose(f); }
  _exit(0); } } forged; }
'''))
        self.assertIn("fopen", found["host-symbols"])
        self.assertIn("_exit", found["host-symbols"])
        self.assertIn("runs code before main", found["static-initializer"])

    def test_a_constructor_function_with_no_call_at_all(self):
        found = self.findings(self.variant("constructor", r'''
__attribute__((constructor)) static void before_main() { static volatile int x; x = 1; }
'''))
        self.assertIn("static-initializer", found)

    def test_host_device_copies_and_system_calls(self):
        found = self.findings(self.variant("cpu", r'''
namespace course::step9 {
void copy_out(float* host, const float* device) {
  cudaMemcpy(host, device, 4, cudaMemcpyDeviceToHost);
  long result;
  asm volatile("syscall" : "=a"(result) : "a"(39L) : "rcx", "r11", "memory");
}
}
'''))
        self.assertIn("cudaMemcpy", found["host-symbols"])
        self.assertIn("system-call", found)

    def test_a_definition_that_would_replace_the_librarys(self):
        found = self.findings(self.variant("replace", r'''
#include <cstdio>
extern "C" int puts(const char*) { return 0; }
namespace course { void check_cuda_launch(const char*) {} }
'''))
        self.assertIn("puts", found["host-definitions"])
        self.assertIn("course::check_cuda_launch", found["host-definitions"])


def preprocessed(student_lines, course_lines=(), command_line=("#define COURSE_CHECK_WARP_MASKS 1",)):
    parts = ['# 0 "<command-line>"', *command_line,
             '# 1 "/tmp/judge/course/step5_tensor_core_sddmm/warp_shuffle_check.cuh" 1',
             *course_lines,
             '# 1 "/tmp/judge/submission/step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh" 1',
             *student_lines]
    return "\n".join(parts) + "\n"


class Source(unittest.TestCase):
    COURSE = ("__attribute__((device)) inline float checked_shfl_xor_sync(unsigned m, float v, "
              "int l) { return __shfl_xor_sync(m, v, l); }",
              "#define COURSE_WARP_HELPER 1")

    def rules(self, student, label="step5"):
        return {finding.rule: finding.text for finding in inspection.source_findings(
            preprocessed(student, self.COURSE), label, "sm_90")}

    def test_the_checked_primitive_and_own_macros_are_fine(self):
        self.assertEqual(self.rules(["#define MY_TILE 16",
                                     "v += checked_shfl_xor_sync(0xffffffffu, v, 16);"]), {})

    def test_a_raw_shuffle_after_expansion(self):
        found = self.rules(["v += __shfl_xor_sync(0xffffffffu, v, 16);"])
        self.assertIn("__shfl_xor_sync", found["primitive"])
        self.assertEqual(self.rules(["v += __shfl_xor_sync(0xffffffffu, v, 16);"], "step3"), {})
        found = self.rules(['asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 31, -1;" : "=f"(v) : "f"(v));'])
        self.assertIn("inline PTX", found["primitive"])
        found = self.rules(["auto t = cg::tiled_partition<32>(b); v = cg::reduce(t, v, p);"])
        self.assertIn("reduce", found["primitive"])

    def test_macro_tricks(self):
        for line in ("#define checked_shfl_xor_sync(m, v, l) __shfl_xor_sync(m, v, l)",
                     "#define __syncthreads() ((void)0)", "#undef COURSE_CHECK_WARP_MASKS",
                     "#undef COURSE_WARP_HELPER", '#pragma push_macro("X")',
                     '#define P _Pragma("push_macro(\\"X\\")")'):
            self.assertIn("macro", self.rules([line]), line)

    def test_preprocessing_commands_of_a_compile_command(self):
        entry = {"command": "/usr/local/cuda/bin/nvcc -DA=1 -I/x -O3 "
                 "--generate-code=arch=compute_80,code=[compute_80,sm_80] "
                 "--generate-code=arch=compute_90,code=[compute_90,sm_90] -MD -MT o.o -MF o.d "
                 "-x cu -c /tmp/judge/build/w.cu -o o.o"}
        commands = dict(inspection.preprocess_commands(entry))
        self.assertEqual(sorted(commands), ["host", "sm_80", "sm_90"])
        for command in commands.values():
            self.assertIn("-E", command)
            self.assertNotIn("-o", command)
            self.assertNotIn("-MF", command)
        self.assertIn("-U__CUDA_ARCH__", commands["host"])
        json.dumps(commands)


if __name__ == "__main__":
    unittest.main()
