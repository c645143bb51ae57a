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

VARIANTS = {
    "reference": variant(),
    "second_kernel": variant(
        inside="__global__ void zero_fill_kernel(float* c, int n) {\n  for (int i = "
               "threadIdx.x; i < n; i += blockDim.x) c[i] = 0.0f;\n}\n",
        launch="  zero_fill_kernel<<<1, 256, 0, stream>>>(c, sizes.rows * sizes.cols);\n"
               "  CUDA_CHECK_LAUNCH(zero_fill_kernel);\n" + LAUNCH),
    "template_kernel": variant(
        inside="template <int kUnroll>\n" + STRAIGHT.format(name="unrolled_kernel"),
        launch="  unrolled_kernel<4><<<grid, block, 0, stream>>>(a, b, c, sizes.inner, "
               "sizes.cols);\n  CUDA_CHECK_LAUNCH(unrolled_kernel);"),
    "helpers": variant(
        inside="namespace {\ndim3 block_for(const ProductSizes& s) { return dim3(s.cols, "
               "s.rows); }\n}  // namespace\nint blocks_for(const ProductSizes& s) { return "
               "s.rows > 0 ? 1 : 0; }\n",
        launch="  naive_single_block_kernel<<<dim3(blocks_for(sizes)), block_for(sizes), 0, "
               "stream>>>(a, b, c, sizes.inner, sizes.cols);\n  (void)grid;\n  (void)block;\n"
               "  CUDA_CHECK_LAUNCH(naive_single_block_kernel);"),
    "static_kernel": variant(
        inside="static " + STRAIGHT.format(name="file_local_kernel"),
        launch="  file_local_kernel<<<grid, block, 0, stream>>>(a, b, c, sizes.inner, "
               "sizes.cols);\n  CUDA_CHECK_LAUNCH(file_local_kernel);"),
    # Tricks.
    "forged_report": variant(before="#include <cstdio>\n#include <unistd.h>\nnamespace {\n"
                             "struct Forged { Forged() { if (FILE* f = std::fopen(\"r.xml\", "
                             "\"w\")) std::fclose(f); _exit(0); } } forged;\n}\n"),
    "constructor": variant(before="namespace {\n__attribute__((constructor)) void early() "
                           "{ static volatile int x; x = 1; }\n}\n"),
    "preinit": variant(before="namespace {\nvoid early() {}\n__attribute__((section("
                       "\".preinit_array\"), used)) void (*early_entry)() = early;\n}\n"),
    "prioritized_hidden_syscall": variant(before=(
        "namespace {\n__attribute__((constructor(101))) void plant() {\n  long result;\n"
        "  asm volatile(\"jmp 1f+2\\n1: movw $0x050f, %%ax\" : \"=a\"(result) : \"0\"(60L) "
        ": \"rcx\", \"r11\", \"memory\");\n}\n}\n")),
    "syscall_in_launcher": variant(grid=(
        "  long result;\n  asm volatile(\"syscall\" : \"=a\"(result) : \"a\"(39L) : \"rcx\", "
        "\"r11\", \"memory\");\n  const dim3 grid(result > 0 ? 1 : 1, 1);")),
    "envp": variant(before=(
        "#include <cstring>\nnamespace {\nbool sanitized = false;\n__attribute__((constructor"
        ")) void look(int, char**, char** envp) {\n  for (char** e = envp; *e; ++e) if (std::"
        "strncmp(*e, \"CUDA_INJECTION64_PATH=\", 22) == 0) sanitized = true;\n}\n}\n"),
        grid="  const dim3 grid(sanitized ? 1 : 1, 1);"),
    "getenv": variant(before="#include <cstdlib>\n", grid=(
        "  const dim3 grid(std::getenv(\"CUDA_INJECTION64_PATH\") ? 1 : 1, 1);")),
    "environ": variant(before="extern char** environ;\n", grid=(
        "  const dim3 grid(static_cast<unsigned>(environ[0] != nullptr), 1);")),
    "managed_product": variant(
        inside="__managed__ float staged[3 * 1024];\n",
        launch=LAUNCH + "\n  (void)cudaDeviceSynchronize();\n  for (int i = 0; i < 1024; ++i)"
               " staged[2048 + i] = staged[i] * staged[1024 + i];"),
    "host_copy": variant(launch=(
        "  float host[1024];\n  CUDA_CHECK(cudaMemcpy(host, a, sizeof(float), "
        "cudaMemcpyDeviceToHost));\n  (void)grid;\n  (void)block;\n  (void)stream;")),
    "state": variant(inside="namespace {\nint calls = 0;\n}\n", grid=(
        "  const dim3 grid(++calls > 1 ? 1 : 1, 1);")),
    "replaces_puts": variant(after='\nextern "C" int puts(const char*) { return 0; }\n'),
    "ifunc": variant(after=(
        '\nextern "C" {\nstatic void* pick() { return nullptr; }\nvoid chosen() '
        '__attribute__((ifunc("pick")));\n}\n')),
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
        for name in ("reference", "second_kernel", "template_kernel", "helpers",
                     "static_kernel"):
            self.assertEqual(self.findings(name), [], name)

    def test_code_before_main(self):
        self.assertFound("forged_report", "references", "fopen", "_exit",
                         "runs code before main: .init_array names")
        self.assertFound("constructor", "runs code before main", "early()")
        self.assertFound("preinit", "the section .preinit_array")
        self.assertFound("prioritized_hidden_syscall", "the section .init_array.00101",
                         "holds the bytes of a system call (syscall) in "
                         "(anonymous namespace)::plant()")

    def test_system_calls_environment_and_host_memory(self):
        self.assertFound("syscall_in_launcher", "system call (syscall) in "
                         "course::step1::launch_naive_single_block")
        self.assertFound("envp", "runs code before main", "look(int, char**, char**)",
                         "writable variable (anonymous namespace)::sanitized")
        self.assertFound("getenv", "references getenv")
        self.assertFound("environ", "references environ")
        self.assertFound("managed_product", "__cudaRegisterManagedVar",
                         "computes in floating point (mulss")
        self.assertFound("host_copy", "references cudaMemcpy")
        self.assertFound("state", "writable variable course::step1::(anonymous namespace)::calls",
                         "uses writable data at .bss")

    def test_definitions_that_would_replace_others(self):
        self.assertFound("replaces_puts", "defines puts (outside course::step1)")
        self.assertFound("ifunc", "as an indirect function")

    def test_kernels_come_from_the_symbols_whatever_the_source_hides(self):
        names = sorted(inspection.kernel_base(name) for name in inspection.object_kernels(
            self.objects["static_kernel"]).values())
        self.assertEqual(names, ["file_local_kernel", "naive_single_block_kernel"])
        names = sorted(inspection.kernel_base(name) for name in inspection.object_kernels(
            self.objects["template_kernel"]).values())
        self.assertEqual(names, ["naive_single_block_kernel", "unrolled_kernel"])

    def test_a_call_reaches_the_function_its_relocation_names_with_the_addend(self):
        # `call f` is a relocation to f - 4 (or to its section + offset - 4): the target is
        # symbol + addend + 4. Without the +4 the call lands in the function before f (the
        # previous inspection reported nvcc's registration as calling _Unwind_Resume).
        obj = elf.ElfObject(self.objects["second_kernel"])
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
