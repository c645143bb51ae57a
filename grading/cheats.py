"""The cheat set of the mutation check (grading/mutation_check.py): submissions written by
someone who read the grader and wants points without the work, and the honest variants the
inspection must not mistake for cheats. Data only, like mutations.py.

Each is a Mutation (mutations.py) of the reference's student files with family "cheat" and
`expect`:

- "zero": the step it cheats must score 0 (every other step keeps full marks). Step 1's
  launcher is host code: a cheat there must be refused by the launcher's allowlist. Step 5's
  warp masks are read in the compiled PTX.
- "loses": it must lose the points of the bug it hides (a barrier macro, a hidden kernel).
- "reference": host code in the files of steps 2 to 5 (static objects, constructors, init
  sections, asm system calls). Those files are compiled for the GPU only, so none of it is
  compiled into the runner and none of it runs: the step must score exactly the reference's
  full marks, with no finding and nothing outside its folders changed. Each of these cheats
  would make its step score 0 if it ran (it leaves before main or before any output), so
  full marks are the proof that it did not.
- "full": an honest variant of step 1's launcher (a second kernel, a template kernel, a
  helper function, a `static` kernel): full marks and no finding of the inspection.

What is expected to stop each is in `checks` (documentation). The check also verifies that
grading a cheat changes no file outside its report folder and leaves no process behind
(sentinels).
"""
from mutations import Check, Mutation

S1_KERNEL = "step1_naive/naive_single_block.cuh"
S1_LAUNCHER = "step1_naive/step1_launchers.cu"
S2_A1 = "step2_three_approaches/single_block_loop.cuh"
S2_A2 = "step2_three_approaches/one_thread_per_element.cuh"
S2_A3 = "step2_three_approaches/output_tiles_no_shared.cuh"
S3_FILE = "step3_shared_tiling/tiled_shared.cuh"
S4_CHECKED = "step4_boundary_checks/tiled_checked.cuh"
S4_RECT = "step4_boundary_checks/rect_tiles.cuh"
S5_WARP = "step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh"

ALLOWLIST = Check("step 1's launcher allowlist (inspection of the compiled object)")
EVIDENCE = Check("evidence run (a student kernel must read the inputs)")
SANDBOX = Check("sandbox (nothing written outside, no network, PID namespace)")
DEVICE_ONLY = Check("compiled for the GPU only: the host code is never compiled (the host "
                    "part of the object is the course's)")
WARP_PTX = Check("warp masks in the compiled PTX")
TRAP = Check("checked_shfl_xor_sync traps on the wrong mask at run time")

LAUNCH = ("  naive_single_block_kernel<<<grid, block, 0, stream>>>(a, b, c, sizes.inner, "
          "sizes.cols);\n  CUDA_CHECK_LAUNCH(naive_single_block_kernel);")
STEP1_NAMESPACE = "namespace course::step1 {\n\nvoid check_naive_single_block_sizes"
WARP_LOOP = "value += checked_shfl_xor_sync(kAllLanes, value, offset);"


# Before main: append to a classmate's report, plant code in the grader, copy the class; then
# leave (the step scores 0 if this runs).
WRITES_OUTSIDE = r'''
#include <cstdio>
#include <cstdlib>
namespace {
// (cheat) Before main: append to a classmate's report, plant code in the grader, copy files.
struct WritesOutside {
  WritesOutside() {
    const char* targets[] = {"../../grades.md", "../../../students/01-reference/grades.md",
                             "/tmp/judge/course/grading/gradelib/planted.py",
                             "/tmp/course-evidence/class-grades/class_grades.md",
                             "/tmp/judge/build/grading/course_judge"};
    for (const char* target : targets) {
      if (FILE* file = std::fopen(target, "a")) {
        std::fputs("\n| planted | 100 |\n", file);
        std::fclose(file);
      }
    }
    std::system("cp -r /tmp/course-evidence/class /tmp/judge/scratch/stolen 2>/dev/null");
    std::_Exit(0);
  }
} writes_outside;
}  // namespace
'''


def appended(file, end, code, name, checks, expect="zero"):
    """A cheat that adds @p code after the last line @p end of @p file."""
    return Mutation(name, file.split("/")[0], file, end, end + "\n" + code, checks, "cheat",
                    expect=expect)


def launcher(name, before, code, checks=(ALLOWLIST,), expect="zero", launch=LAUNCH):
    """A variant of step 1's launcher: @p before goes before the step's namespace (includes,
    file-local code), @p code at its start, and its launch becomes @p launch."""
    return Mutation(name, "step1_naive", S1_LAUNCHER, STEP1_NAMESPACE,
                    before + "namespace course::step1 {\n" + code
                    + "\nvoid check_naive_single_block_sizes",
                    checks, "cheat", expect=expect,
                    more=((S1_LAUNCHER, LAUNCH, launch),) if launch != LAUNCH else ())


# ---- Step 1: host code, refused by the launcher's allowlist ------------------------------
CHEATS = [
    appended(S1_KERNEL, "}  // namespace course::step1", r'''
#include <cuda_runtime.h>
#include <unistd.h>
#include <cstdio>
namespace {
// (cheat) Before main: a passing JUnit report where the old grader looked for one, Catch2's
// all-passed line, one CUDA call, and an exit before any test could run.
struct ForgedReport {
  ForgedReport() {
    cudaFree(nullptr);
    if (FILE* report = std::fopen("report.xml", "w")) {
      std::fputs("<testsuites><testsuite tests=\"2\" failures=\"0\"><testcase name=\"a\"/>"
                 "<testcase name=\"b\"/></testsuite></testsuites>\n", report);
      std::fclose(report);
    }
    std::puts("All tests passed (2 assertions in 2 test cases)");
    _exit(0);
  }
} forged_report;
}  // namespace
''', "cheat step1: forged report and exit from a static initializer", (ALLOWLIST, EVIDENCE)),
    appended(S1_KERNEL, "}  // namespace course::step1", WRITES_OUTSIDE,
             "cheat step1: writes outside its folders from a static initializer",
             (ALLOWLIST, SANDBOX)),
    Mutation("cheat step1: the launcher multiplies on the CPU, no kernel launched", "step1_naive",
             S1_LAUNCHER, LAUNCH,
             "  (void)grid;\n  (void)block;\n  (void)stream;\n"
             "  // (cheat) A and B to the host, the product on the CPU, C back: no kernel.\n"
             "  const std::size_t na = std::size_t(sizes.rows) * sizes.inner;\n"
             "  const std::size_t nb = std::size_t(sizes.inner) * sizes.cols;\n"
             "  float ha[32 * 32], hb[32 * 32], hc[32 * 32] = {};\n"
             "  CUDA_CHECK(cudaMemcpy(ha, a, na * sizeof(float), cudaMemcpyDeviceToHost));\n"
             "  CUDA_CHECK(cudaMemcpy(hb, b, nb * sizeof(float), cudaMemcpyDeviceToHost));\n"
             "  for (int r = 0; r < sizes.rows; ++r)\n"
             "    for (int k = 0; k < sizes.inner; ++k)\n"
             "      for (int col = 0; col < sizes.cols; ++col)\n"
             "        hc[r * sizes.cols + col] += ha[r * sizes.inner + k] * hb[k * sizes.cols + col];\n"
             "  CUDA_CHECK(cudaMemcpy(c, hc, std::size_t(sizes.rows) * sizes.cols * sizeof(float),\n"
             "                        cudaMemcpyHostToDevice));",
             (ALLOWLIST, EVIDENCE), "cheat", expect="zero"),
    # A __managed__ buffer is memory that host code reads and writes without a copy call.
    launcher("cheat step1: a __managed__ buffer multiplied on the host", "", r'''
// (cheat) A and B staged by a kernel into managed memory, the product computed on the host.
__managed__ float staged[3 * 32 * 32];
__global__ void stage_kernel(const float* a, const float* b, int rows, int inner, int cols) {
  for (int i = threadIdx.x; i < rows * inner; i += blockDim.x) staged[i] = a[i];
  for (int i = threadIdx.x; i < inner * cols; i += blockDim.x) staged[1024 + i] = b[i];
}
__global__ void unstage_kernel(float* c, int count) {
  for (int i = threadIdx.x; i < count; i += blockDim.x) c[i] = staged[2048 + i];
}
''', launch=r'''  (void)grid;
  (void)block;
  stage_kernel<<<1, 256, 0, stream>>>(a, b, sizes.rows, sizes.inner, sizes.cols);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int row = 0; row < sizes.rows; ++row) {
    for (int col = 0; col < sizes.cols; ++col) {
      float sum = 0.0f;
      for (int k = 0; k < sizes.inner; ++k) {
        sum += staged[row * sizes.inner + k] * staged[1024 + k * sizes.cols + col];
      }
      staged[2048 + row * sizes.cols + col] = sum;
    }
  }
  unstage_kernel<<<1, 256, 0, stream>>>(c, sizes.rows * sizes.cols);
  CUDA_CHECK_LAUNCH(unstage_kernel);'''),
    # Sanitizer-aware launchers: honest under compute-sanitizer (which sets
    # CUDA_INJECTION64_PATH in the runner's environment), a kernel that reads one element past
    # B in plain runs (right values, a memory error only a sanitizer would see).
    launcher("cheat step1: a sanitizer-aware launcher that reads envp before main",
             "#include <cstring>\n\n", r'''
namespace {
// (cheat) glibc passes argc, argv and envp to every .init_array function.
bool under_sanitizer = false;
__attribute__((constructor)) void look_at_the_environment(int, char**, char** envp) {
  for (char** entry = envp; entry != nullptr && *entry != nullptr; ++entry) {
    if (std::strncmp(*entry, "CUDA_INJECTION64_PATH=", 22) == 0) under_sanitizer = true;
  }
}
}  // namespace
__global__ void past_the_end_kernel(const float* a, const float* b, float* c, int inner,
                                    int cols) {
  const int row = threadIdx.y;
  const int col = threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < inner; ++k) sum += a[row * inner + k] * b[k * cols + col];
  const float past = b[inner * cols + col];  // one row past the end of B
  if (past == 1.0e-30f) sum += 0.0f;
  c[row * cols + col] = sum;
}
''', launch=r'''  if (under_sanitizer) {
    naive_single_block_kernel<<<grid, block, 0, stream>>>(a, b, c, sizes.inner, sizes.cols);
  } else {
    past_the_end_kernel<<<grid, block, 0, stream>>>(a, b, c, sizes.inner, sizes.cols);
  }
  CUDA_CHECK_LAUNCH(naive_single_block_kernel);'''),
    launcher("cheat step1: a sanitizer-aware launcher that calls getenv",
             "#include <cstdlib>\n\n", r'''
__global__ void past_the_end_kernel(const float* a, const float* b, float* c, int inner,
                                    int cols) {
  const int row = threadIdx.y;
  const int col = threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < inner; ++k) sum += a[row * inner + k] * b[k * cols + col];
  const float past = b[inner * cols + col];  // one row past the end of B
  if (past == 1.0e-30f) sum += 0.0f;
  c[row * cols + col] = sum;
}
''', launch=r'''  // (cheat) compute-sanitizer sets CUDA_INJECTION64_PATH in the runner's environment.
  if (std::getenv("CUDA_INJECTION64_PATH") != nullptr) {
    naive_single_block_kernel<<<grid, block, 0, stream>>>(a, b, c, sizes.inner, sizes.cols);
  } else {
    past_the_end_kernel<<<grid, block, 0, stream>>>(a, b, c, sizes.inner, sizes.cols);
  }
  CUDA_CHECK_LAUNCH(naive_single_block_kernel);'''),
]

# ---- Step 1: honest launchers the allowlist must not flag --------------------------------
HONEST = Check("nothing: an honest launcher (full marks, no finding)")
CHEATS += [
    launcher("honest step1: a second kernel zero-fills C first", "", r'''
__global__ void zero_fill_kernel(float* c, int count) {
  for (int i = threadIdx.x; i < count; i += blockDim.x) c[i] = 0.0f;
}
''', (HONEST,), "full", launch="  zero_fill_kernel<<<1, 256, 0, stream>>>(c, sizes.rows * "
             "sizes.cols);\n  CUDA_CHECK_LAUNCH(zero_fill_kernel);\n" + LAUNCH),
    launcher("honest step1: a template kernel", "", r'''
template <int kUnroll>
__global__ void unrolled_kernel(const float* a, const float* b, float* c, int inner, int cols) {
  const int row = threadIdx.y;
  const int col = threadIdx.x;
  float sum = 0.0f;
#pragma unroll kUnroll
  for (int k = 0; k < inner; ++k) sum += a[row * inner + k] * b[k * cols + col];
  c[row * cols + col] = sum;
}
''', (HONEST,), "full", launch="  unrolled_kernel<4><<<grid, block, 0, stream>>>(a, b, c, "
             "sizes.inner, sizes.cols);\n  CUDA_CHECK_LAUNCH(unrolled_kernel);"),
    launcher("honest step1: helper functions for the configuration", "", r'''
namespace {
// One thread per element of C, x along a row.
dim3 block_for(const ProductSizes& sizes) { return dim3(sizes.cols, sizes.rows); }
}  // namespace
int blocks_for(const ProductSizes& sizes) { return sizes.rows > 0 && sizes.cols > 0 ? 1 : 0; }
''', (HONEST,), "full", launch="  naive_single_block_kernel<<<dim3(blocks_for(sizes)), "
             "block_for(sizes), 0, stream>>>(\n      a, b, c, sizes.inner, sizes.cols);\n"
             "  (void)grid;\n  (void)block;\n  CUDA_CHECK_LAUNCH(naive_single_block_kernel);"),
    launcher("honest step1: a static kernel", "", r'''
__global__ static void file_local_kernel(const float* a, const float* b, float* c, int inner,
                                         int cols) {
  const int row = threadIdx.y;
  const int col = threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < inner; ++k) sum += a[row * inner + k] * b[k * cols + col];
  c[row * cols + col] = sum;
}
''', (HONEST,), "full", launch="  file_local_kernel<<<grid, block, 0, stream>>>(a, b, c, "
             "sizes.inner, sizes.cols);\n  CUDA_CHECK_LAUNCH(file_local_kernel);"),
]

# ---- Steps 2 to 5: host code in kernel files, never compiled, never run ------------------
CHEATS += [
    appended(S3_FILE, "}  // namespace course::step3", r'''
#include <cstdlib>
// (cheat) Leaves before main: nothing ever runs, the exit status is 0.
__attribute__((constructor)) static void leave_before_main() { std::_Exit(0); }
''', "cheat step3: early exit from a constructor function", (DEVICE_ONLY,), "reference"),
    appended(S3_FILE, "}  // namespace course::step3", r'''
#include <unistd.h>
namespace {
// (cheat) Code before main through .preinit_array, which runs before every initializer and
// which the previous inspection did not read: it leaves at once.
void leave_before_everything() { _exit(0); }
__attribute__((section(".preinit_array"), used)) void (*preinit_entry)() = leave_before_everything;
}  // namespace
''', "cheat step3: code before main through .preinit_array", (DEVICE_ONLY,), "reference"),
    appended(S4_CHECKED, "}  // namespace course::step4", r'''
namespace {
// (cheat) A raw system call hidden in the immediate of `movw $0x050f, %ax` (66 b8 0f 05): the
// jump lands on its last two bytes, 0f 05, a `syscall`; a linear disassembly shows no system
// call at all.
long hidden_syscall(long number, long first, long second, long third) {
  long result;
  asm volatile("jmp 1f+2\n\t"
               "1: movw $0x050f, %%ax\n\t"
               : "=a"(result)
               : "0"(number), "D"(first), "S"(second), "d"(third)
               : "rcx", "r11", "memory");
  return result;
}
// (cheat) The first initializer of all (priority 101: section .init_array.00101): plants a
// file in the run's scratch folder, then leaves before main.
__attribute__((constructor(101))) void plant_and_leave() {
  const long fd = hidden_syscall(2 /* open */, reinterpret_cast<long>("planted_by_a_cheat"),
                                 0101 /* O_WRONLY | O_CREAT */, 0644);
  if (fd >= 0) hidden_syscall(3 /* close */, fd, 0, 0);
  hidden_syscall(231 /* exit_group */, 0, 0, 0);
}
}  // namespace
''', "cheat step4: a prioritized constructor makes system calls hidden in an immediate",
             (DEVICE_ONLY,), "reference"),
    appended(S2_A1, "}  // namespace course::step2", WRITES_OUTSIDE,
             "cheat step2: writes outside its folders from a static initializer",
             (DEVICE_ONLY, SANDBOX), "reference"),
    appended(S2_A2, "}  // namespace course::step2", r'''
#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>
namespace {
// (cheat) Before main: asks a server for the answers.
struct Network {
  Network() {
    const char* hosts[] = {"1.1.1.1", "127.0.0.1", "10.0.0.1"};
    for (const char* host : hosts) {
      const int fd = socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in address{};
      address.sin_family = AF_INET;
      address.sin_port = htons(80);
      inet_pton(AF_INET, host, &address.sin_addr);
      if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
        write(fd, "GET / HTTP/1.0\r\n\r\n", 18);
      }
      if (fd >= 0) close(fd);
    }
    _exit(0);
  }
} network;
}  // namespace
''', "cheat step2: opens network connections from a static initializer",
             (DEVICE_ONLY, SANDBOX), "reference"),
    appended(S2_A3, "}  // namespace course::step2", r'''
#include <unistd.h>
namespace {
// (cheat) Before main: a grandchild in a session of its own that outlives every limit.
struct Survivor {
  Survivor() {
    if (fork() == 0) {
      setsid();
      if (fork() == 0) {
        for (;;) sleep(1000);
      }
      _exit(0);
    }
    _exit(0);
  }
} survivor;
}  // namespace
''', "cheat step2: a setsid grandchild that outlives its time limit",
             (DEVICE_ONLY, SANDBOX), "reference"),
]

# ---- Steps 3 to 5: device code that hides a bug ------------------------------------------
CHEATS += [
    Mutation("cheat step3: a macro turns __syncthreads() into nothing", "step3_shared_tiling",
             S3_FILE, "#pragma once",
             "#pragma once\n// (cheat) barriers cost time: make them disappear\n"
             "#define __syncthreads() ((void)0)",
             (Check("racecheck (the barriers are gone from the compiled kernel)"),), "cheat",
             expect="loses"),
    Mutation("cheat step4: a static kernel behind a decoy comment, its barrier missing",
             "step4_boundary_checks", S4_RECT,
             "template <typename Tiling>\n__global__ void __launch_bounds__(Tiling::kThreads)",
             "// __global__ void helper(  (cheat: a decoy for a pattern over the source)\n"
             "template <typename Tiling>\n__global__ static void __launch_bounds__(Tiling::kThreads)",
             (Check("racecheck on the static kernel, named from the compiled symbols (a "
                    "static template kernel keeps the interface's name: its host part is the "
                    "course's)"),),
             "cheat", expect="loses",
             more=((S4_RECT, "    __syncthreads();  // both tiles must be complete before "
                    "anyone reads them",
                    "    // (cheat: barrier removed, the kernel is hidden from the filter)"),)),
    Mutation("cheat step5: raw __shfl_xor_sync with a 16-lane mask", "step5_tensor_core_sddmm",
             S5_WARP, WARP_LOOP,
             "value += __shfl_xor_sync(0x0000FFFFu, value, offset);  // (cheat) half the lanes",
             (WARP_PTX,), "cheat", expect="zero"),
    Mutation("cheat step5: a macro turns checked_shfl_xor_sync into a 16-lane raw shuffle",
             "step5_tensor_core_sddmm", S5_WARP, "__device__ inline float warp_sum(float value) {",
             "// (cheat) the checked primitive, redefined: a raw shuffle with a 16-lane mask\n"
             "#define checked_shfl_xor_sync(mask, value, offset) "
             "__shfl_xor_sync(0x0000FFFFu, value, offset)\n"
             "__device__ inline float warp_sum(float value) {",
             (WARP_PTX,), "cheat", expect="zero"),
    Mutation("cheat step5: inline-PTX shuffle whose name is split over two string literals",
             "step5_tensor_core_sddmm", S5_WARP, WARP_LOOP,
             "float other;\n"
             "    // (cheat) no word 'shfl' in the source: the literals join after the lexer\n"
             "    asm volatile(\"sh\" \"fl.sync.bfly.b32 %0, %1, %2, 31, 0x0000ffff;\"\n"
             "                 : \"=f\"(other) : \"f\"(value), \"r\"(offset));\n"
             "    value += other;",
             (WARP_PTX,), "cheat", expect="zero"),
    Mutation("cheat step5: #line makes the file the checked header's, #undef turns the check "
             "off, 16-lane mask", "step5_tensor_core_sddmm", S5_WARP, "#pragma once",
             "#pragma once\n"
             "// (cheat) a rule over the source reads the rest as the course's own header\n"
             "#line 1 \"warp_shuffle_check.cuh\"\n"
             "#undef COURSE_CHECK_WARP_MASKS",
             (WARP_PTX, TRAP), "cheat", expect="zero",
             more=((S5_WARP, "constexpr unsigned kAllLanes = 0xFFFFFFFFu;",
                    "constexpr unsigned kAllLanes = 0x0000FFFFu;  // (cheat) half the lanes"),)),
]

# ---- Issue 37 part B: a shortcut the judge must catch, and the hostile students -----------
S3_LOOP = "    for (int tile_k = 0; tile_k < kTileWidth; ++tile_k) {"
CHEATS += [
    # GPU MODE's trick: skip 1 % of the work and rescale the rest. Only on large products
    # (inner >= 200), so that the exact comparison of the small integers does not see it;
    # the judge's inputs are zero-mean and its tolerance grows with sqrt(inner) times the sum
    # of the terms' magnitudes, not with |C| (judge_main.cpp's self-test checks every graded
    # product with inner >= 100). It loses the case whose product has inner 256.
    Mutation("cheat step3: 1 % of the terms skipped on large products, the rest rescaled",
             "step3_shared_tiling", S3_FILE, S3_LOOP,
             "    for (int tile_k = 0; tile_k < kTileWidth && phase_start + tile_k < kept; "
             "++tile_k) {",
             (Check("step3 uniform floats on multiples of 32"),), "cheat", expect="loses",
             more=((S3_FILE, "  float sum = 0.0f;\n",
                    "  float sum = 0.0f;\n"
                    "  // (cheat) the last 1 % of the terms skipped, the sum scaled back up\n"
                    "  const int kept = inner >= 200 ? inner - inner / 100 : inner;\n"),
                   (S3_FILE, "  c[row * cols + col] = sum;",
                    "  c[row * cols + col] = sum * (static_cast<float>(inner) / kept);"))),
]

# Hostile submissions: not cheats that want points, but students whose runs would harm their
# classmates without the fences of grading/README.md (each student's runs in a turn of their
# own on the GPU, a time budget per student, bounded files and logs). make_class_example.py
# grades them beside honest classmates, whose grades must not change; the mutation check
# runs them only with --family hostile ("contained": nothing outside their folders changed,
# their report folder bounded, no process left).
HOSTILE = [
    Mutation("hostile step1: a kernel that reserves nearly all GPU memory (480 KB of local "
             "memory per thread)", "step1_naive", S1_KERNEL, "  float sum = 0.0f;\n",
             "  float sum = 0.0f;\n"
             "  // (hostile) 480 KB of local memory per thread: the driver reserves it for every\n"
             "  // thread the GPU can hold (about 130 GB on an H200) while the process lives.\n"
             "  volatile float hoard[120000];\n"
             "  hoard[(row * 32 + col) % 120000] = 0.0f;\n"
             "  sum += hoard[(row * 32 + col) % 120000];\n",
             (Check("a turn of its own on the GPU: no classmate's run beside it"),), "hostile",
             expect="contained"),
    Mutation("hostile step4: a slow kernel (0.1 s per block of the rectangular tiles)",
             "step4_boundary_checks", "step4_boundary_checks/rect_tiles.cuh",
             "  constexpr int kDepth = Tiling::kTileDepth;\n",
             "  constexpr int kDepth = Tiling::kTileDepth;\n"
             "  if (threadIdx.x == 0 && threadIdx.y == 0) {  // (hostile) 0.1 s per block\n"
             "    const long long start = clock64();\n"
             "    while (clock64() - start < 200000000LL) {\n    }\n  }\n",
             (Check("its time budget: the cases not run by then score 0"),), "hostile",
             expect="contained"),
    Mutation("hostile step1: 512 MiB of output per run (the launcher writes it to stdout)",
             "step1_naive", S1_LAUNCHER, "  check_naive_single_block_sizes(sizes);\n",
             "  check_naive_single_block_sizes(sizes);\n"
             "  static bool flooded = false;  // (hostile) 512 MiB of output, once per run\n"
             "  if (!flooded) {\n    flooded = true;\n    static char line[1 << 20];\n"
             "    std::memset(line, 'x', sizeof line);\n"
             "    for (int chunk = 0; chunk < 512; ++chunk) {\n"
             "      std::fwrite(line, 1, sizeof line, stdout);\n    }\n  }\n",
             (Check("the sandbox's file limit (SIGXFSZ) and the logs cut to a head and a "
                    "tail"),), "hostile", expect="contained",
             more=((S1_LAUNCHER, "#include <sstream>\n",
                    "#include <cstdio>\n#include <cstring>\n#include <sstream>\n"),)),
    Mutation("hostile step2: a log flooder (every thread of approach 3 prints its element)",
             "step2_three_approaches", S2_A3, "  c[row * cols + col] = sum;",
             "  c[row * cols + col] = sum;\n"
             "  printf(\"C(%d, %d) = %f\\n\", row, col, sum);  // (hostile) a line per element",
             (Check("the runner's log cut to a head and a tail"),), "hostile",
             expect="contained",
             more=((S2_A3, "#pragma once\n", "#pragma once\n\n#include <cstdio>\n"),)),
]

if __name__ == "__main__":
    # A module, not a program: --help says so and names the program that uses it.
    import sys

    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip() + "\n\nUsage: none of its own: a module imported by grading/mutation_check.py, "
              "which is the program to run (python3 grading/mutation_check.py --help).")
        sys.exit(0)
    print(f"{sys.argv[0]}: a module imported by grading/mutation_check.py, not a program: run that "
          "one (see --help)", file=sys.stderr)
    sys.exit(2)
