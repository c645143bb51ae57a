"""Step 1's launcher allowlist (gradelib/launcher_rules.py) on the course's own launcher
(step1_naive/step1_launchers.cu) and variants of it, compiled here with nvcc as the build
compiles it (no GPU needed): the honest variants (a second kernel, a template kernel, helper
functions, a static kernel) have no finding; each trick is a finding that names what it
found. Also: kernels come from the compiled symbols whatever the source hides, and a call's
target is found with its relocation's addend applied."""
import concurrent.futures
import pathlib
import shutil
import subprocess
import tempfile
import unittest

from tests.helpers import GRADING
from gradelib import elf, inspection, launcher_rules

NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                               if pathlib.Path("/usr/local/cuda/bin/nvcc").exists() else None)
ROOT = GRADING.parent
REFERENCE = (ROOT / "step1_naive" / "step1_launchers.cu").read_text(encoding="utf-8")
NAMESPACE = "namespace course::step1 {\n"
LAUNCH = ("  naive_single_block_kernel<<<grid, block, 0, stream>>>(a, b, c, sizes.inner, "
          "sizes.cols);\n  CUDA_CHECK_LAUNCH(naive_single_block_kernel);")
GRID = "  const dim3 grid(1, 1);"


def variant(before="", inside="", launch=None, grid=None, after=""):
    """The course's launcher with @p before ahead of its namespace, @p inside at its start,
    its launch replaced by @p launch, its grid line by @p grid, and @p after at the end."""
    assert REFERENCE.count(NAMESPACE) == 1 and LAUNCH in REFERENCE and GRID in REFERENCE
    text = REFERENCE.replace(NAMESPACE, before + NAMESPACE + inside, 1)
    if launch is not None:
        text = text.replace(LAUNCH, launch)
    if grid is not None:
        text = text.replace(GRID, grid)
    return text + after


STRAIGHT = ("__global__ void {name}(const float* a, const float* b, float* c, int inner, "
            "int cols) {{\n  float sum = 0.0f;\n  for (int k = 0; k < inner; ++k) sum += "
            "a[threadIdx.y * inner + k] * b[k * cols + threadIdx.x];\n  c[threadIdx.y * cols + "
            "threadIdx.x] = sum;\n}}\n")

HONEST_KERNELS = (
    "__global__ void zero_fill_kernel(float* c, int n) {\n  for (int i = threadIdx.x; i < n; "
    "i += blockDim.x) c[i] = 0.0f;\n}\n"
    + "template <int kUnroll>\n" + STRAIGHT.format(name="unrolled_kernel")
    + "static " + STRAIGHT.format(name="file_local_kernel")
    + "namespace {\ndim3 block_for(const ProductSizes& s) { return dim3(s.cols, s.rows); }\n"
      "}  // namespace\nint blocks_for(const ProductSizes& s) { return s.rows > 0 ? 1 : 0; }\n")
HONEST_LAUNCH = (
    "  zero_fill_kernel<<<1, 256, 0, stream>>>(c, sizes.rows * sizes.cols);\n"
    "  CUDA_CHECK_LAUNCH(zero_fill_kernel);\n"
    "  unrolled_kernel<4><<<grid, block, 0, stream>>>(a, b, c, sizes.inner, sizes.cols);\n"
    "  CUDA_CHECK_LAUNCH(unrolled_kernel);\n"
    "  file_local_kernel<<<dim3(blocks_for(sizes)), block_for(sizes), 0, stream>>>(\n"
    "      a, b, c, sizes.inner, sizes.cols);\n  CUDA_CHECK_LAUNCH(file_local_kernel);")

# Each object holds several tricks (each finding names its own), so that few compile here.
VARIANTS = {
    "reference": variant(),
    # The honest variants together: a second kernel, a template kernel, a static kernel,
    # helper functions (one file-local, one global in course::step1).
    "honest": variant(inside=HONEST_KERNELS, launch=HONEST_LAUNCH),
    # Code before main: a static object that forges a report, a constructor, a .preinit_array
    # entry, and a constructor of priority 101 whose system call hides in an immediate
    # (`movw $0x050f, %ax` is 66 b8 0f 05; the jump lands on 0f 05, a syscall).
    "before_main": variant(before=(
        "#include <cstdio>\n#include <unistd.h>\nnamespace {\nstruct Forged { Forged() { if "
        "(FILE* f = std::fopen(\"r.xml\", \"w\")) std::fclose(f); _exit(0); } } forged;\n"
        "__attribute__((constructor)) void early() { static volatile int x; x = 1; }\n"
        "void earliest() {}\n__attribute__((section(\".preinit_array\"), used)) void "
        "(*earliest_entry)() = earliest;\n__attribute__((constructor(101))) void plant() {\n"
        "  long result;\n  asm volatile(\"jmp 1f+2\\n1: movw $0x050f, %%ax\" : \"=a\"(result) "
        ": \"0\"(60L) : \"rcx\", \"r11\", \"memory\");\n}\n}  // namespace\n")),
    # Looking at the process: envp before main, getenv and environ in the launcher, a system
    # call in the launcher.
    "environment": variant(before=(
        "#include <cstdlib>\n#include <cstring>\nextern char** environ;\nnamespace {\n"
        "bool sanitized = false;\n__attribute__((constructor)) void look(int, char**, char** "
        "envp) {\n  for (char** e = envp; *e; ++e) if (std::strncmp(*e, \"CUDA_INJECTION64_"
        "PATH=\", 22) == 0) sanitized = true;\n}\n}  // namespace\n"), grid=(
        "  long result;\n  asm volatile(\"syscall\" : \"=a\"(result) : \"a\"(39L) : \"rcx\", "
        "\"r11\", \"memory\");\n  const dim3 grid(static_cast<unsigned>((std::getenv(\"X\") "
        "!= nullptr) + (environ[0] != nullptr) + sanitized + (result > 0)), 1);")),
    # Host memory: a __managed__ product on the host, a copy to the host, state between calls.
    "host_memory": variant(
        inside="__managed__ float staged[3 * 1024];\nnamespace {\nint calls = 0;\n}\n",
        launch=LAUNCH + "\n  (void)cudaDeviceSynchronize();\n  for (int i = 0; i < 1024; ++i)"
               " staged[2048 + i] = staged[i] * staged[1024 + i];\n  float host[4];\n"
               "  CUDA_CHECK(cudaMemcpy(host, a, sizeof(float), cudaMemcpyDeviceToHost));",
        grid="  const dim3 grid(++calls > 1 ? 1 : 1, 1);"),
    # Definitions that would replace another's: the C library's puts, an indirect function.
    "replacements": variant(after=(
        '\nextern "C" int puts(const char*) { return 0; }\nextern "C" {\nstatic void* pick() '
        '{ return nullptr; }\nvoid chosen() __attribute__((ifunc("pick")));\n}\n')),
}


def compile_variant(folder, name, text):
    path = pathlib.Path(folder) / f"{name}.cu"
    path.write_text(text, encoding="utf-8")
    obj = path.with_suffix(".o")
    result = subprocess.run([NVCC, "-O3", "-DNDEBUG", "-std=c++17", f"-I{ROOT}",
                             "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                             "-c", str(path), "-o", str(obj)], capture_output=True, text=True)
    return obj if result.returncode == 0 else result.stderr


@unittest.skipUnless(NVCC, "nvcc is not installed")
class LauncherAllowlist(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            futures = {name: pool.submit(compile_variant, cls.folder.name, name, text)
                       for name, text in VARIANTS.items()}
            cls.objects = {name: future.result() for name, future in futures.items()}

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def findings(self, name):
        obj = self.objects[name]
        self.assertIsInstance(obj, pathlib.Path, f"{name} does not compile: {obj}")
        return launcher_rules.launcher_findings(obj, self.objects["reference"],
                                                inspection.demangle)

    def assertFound(self, name, *texts):
        found = "\n".join(self.findings(name))
        for text in texts:
            self.assertIn(text, found, f"{name}: {found or 'no finding'}")

    def test_the_course_launcher_and_honest_variants_have_no_finding(self):
        self.assertEqual(self.findings("reference"), [])
        self.assertEqual(self.findings("honest"), [])

    def test_code_before_main(self):
        self.assertFound("before_main", "references", "fopen", "_exit",
                         "runs code before main: .init_array names", "early()",
                         "the section .preinit_array", "the section .init_array.00101",
                         "holds the bytes of a system call (syscall) in "
                         "(anonymous namespace)::plant()")

    def test_system_calls_and_the_environment(self):
        self.assertFound("environment", "system call (syscall) in "
                         "course::step1::launch_naive_single_block", "look(int, char**, char**)",
                         "writable variable (anonymous namespace)::sanitized", "getenv",
                         "environ", "strncmp")

    def test_host_memory(self):
        self.assertFound("host_memory", "__cudaRegisterManagedVar", "cudaMemcpy",
                         "computes in floating point in "
                         "course::step1::launch_naive_single_block", "mulss",
                         "writable variable course::step1::(anonymous namespace)::calls",
                         "uses writable data at .bss")

    def test_definitions_that_would_replace_others(self):
        self.assertFound("replacements", "defines puts (outside course::step1)",
                         "as an indirect function")

    def test_kernels_come_from_the_symbols_whatever_the_source_hides(self):
        names = sorted(inspection.kernel_base(name) for name in inspection.object_kernels(
            self.objects["honest"]).values())
        self.assertEqual(names, ["file_local_kernel", "naive_single_block_kernel",
                                 "unrolled_kernel", "zero_fill_kernel"])

    def test_a_call_reaches_the_function_its_relocation_names_with_the_addend(self):
        # `call f` is a relocation to f - 4 (or to its section + offset - 4): the target is
        # symbol + addend + 4. Without the +4 the call lands in the function before f (the
        # previous inspection reported nvcc's registration as calling _Unwind_Resume).
        obj = elf.ElfObject(self.objects["honest"])
        code = launcher_rules.disassemble(obj.path)
        for section in obj.sections:
            if section.name in code:
                launcher_rules._finish(code[section.name], section.size)
        init = next(s for s in obj.symbols if launcher_rules.NVCC_INIT.match(s.name))
        reached, externals, indirect = launcher_rules._reach(obj, code,
                                                             (init.section, init.value))
        self.assertTrue(all(launcher_rules.NVCC_INIT_LOCAL.match(name) for name in reached),
                        reached)
        self.assertIn("__cudaRegisterFunction", externals)
        self.assertNotIn("_Unwind_Resume", externals)
        self.assertEqual(indirect, [])


if __name__ == "__main__":
    unittest.main()
