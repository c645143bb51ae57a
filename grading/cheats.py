"""The cheat set of the mutation check (grading/mutation_check.py): submissions written by
someone who read the grader and wants points without the work. Data only, like mutations.py.

Each is a Mutation (mutations.py) of the reference's student files with family "cheat" and
`expect`: "zero" (the step it cheats must score 0 and every other step of the submission
keeps full marks) or "loses" (it must lose the points its hidden bug costs). What is expected
to stop it is in `checks` (documentation). The check also verifies that grading a cheat
changes no file outside its report folder and leaves no process behind (sentinels).
"""
from mutations import Check, Mutation

S1_KERNEL = "step1_naive/naive_single_block.cuh"
S1_LAUNCHER = "step1_naive/step1_launchers.cu"
S2_A1 = "step2_three_approaches/single_block_loop.cuh"
S2_A2 = "step2_three_approaches/one_thread_per_element.cuh"
S2_A3 = "step2_three_approaches/output_tiles_no_shared.cuh"
S3_FILE = "step3_shared_tiling/tiled_shared.cuh"
S4_RECT = "step4_boundary_checks/rect_tiles.cuh"
S5_WARP = "step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh"

INSPECTION = Check("inspection of the compiled files")
EVIDENCE = Check("evidence run (a student kernel must read the inputs)")
SANDBOX = Check("sandbox (nothing written outside, no network, PID namespace)")
PRIMITIVE = Check("inspection of the preprocessed source (primitive)")
MACRO = Check("inspection of the preprocessed source (macro)")


def appended(file, end, code, name, checks, expect="zero"):
    """A cheat that adds @p code after the last line @p end of @p file."""
    return Mutation(name, file.split("/")[0], file, end, end + "\n" + code, checks, "cheat",
                    expect=expect)


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
''', "cheat step1: forged report and exit from a static initializer", (INSPECTION, EVIDENCE)),
    appended(S3_FILE, "}  // namespace course::step3", r'''
#include <cstdlib>
// (cheat) Leaves before main: nothing ever runs, the exit status is 0.
__attribute__((constructor)) static void leave_before_main() { std::_Exit(0); }
''', "cheat step3: early exit from a constructor function", (INSPECTION, EVIDENCE)),
    Mutation("cheat step1: the launcher multiplies on the CPU, no kernel launched", "step1_naive",
             S1_LAUNCHER,
             "  naive_single_block_kernel<<<grid, block, 0, stream>>>(a, b, c, sizes.inner, "
             "sizes.cols);\n  CUDA_CHECK_LAUNCH(naive_single_block_kernel);",
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
             (INSPECTION, EVIDENCE), "cheat", expect="zero"),
    Mutation("cheat step5: raw __shfl_xor_sync instead of checked_shfl_xor_sync", "step5_tensor_core_sddmm",
             S5_WARP, "value += checked_shfl_xor_sync(kAllLanes, value, offset);",
             "value += __shfl_xor_sync(kAllLanes, value, offset);  // (cheat) no mask check",
             (PRIMITIVE,), "cheat", expect="zero"),
    Mutation("cheat step5: a macro turns checked_shfl_xor_sync into a 16-lane raw shuffle",
             "step5_tensor_core_sddmm", S5_WARP, "__device__ inline float warp_sum(float value) {",
             "// (cheat) the checked primitive, redefined: a raw shuffle with a 16-lane mask\n"
             "#define checked_shfl_xor_sync(mask, value, offset) "
             "__shfl_xor_sync(0x0000FFFFu, value, offset)\n"
             "__device__ inline float warp_sum(float value) {",
             (PRIMITIVE, MACRO), "cheat", expect="zero"),
    Mutation("cheat step3: a macro turns __syncthreads() into nothing", "step3_shared_tiling",
             S3_FILE, "#pragma once",
             "#pragma once\n// (cheat) barriers cost time: make them disappear\n"
             "#define __syncthreads() ((void)0)",
             (MACRO,), "cheat", expect="zero"),
    Mutation("cheat step4: a static kernel behind a decoy comment, its barrier missing",
             "step4_boundary_checks", S4_RECT,
             "template <typename Tiling>\n__global__ void __launch_bounds__(Tiling::kThreads)",
             "// __global__ void helper(  (cheat: a decoy for a pattern over the source)\n"
             "template <typename Tiling>\n__global__ static void __launch_bounds__(Tiling::kThreads)",
             (Check("racecheck on the static kernel, named from the compiled symbols"),),
             "cheat", expect="loses",
             more=((S4_RECT, "    __syncthreads();  // both tiles must be complete before "
                    "anyone reads them",
                    "    // (cheat: barrier removed, the kernel is hidden from the filter)"),)),
    appended(S2_A1, "}  // namespace course::step2", r'''
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
  }
} writes_outside;
}  // namespace
''', "cheat step2: writes outside its folders from a static initializer", (INSPECTION, SANDBOX)),
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
  }
} network;
}  // namespace
''', "cheat step2: opens network connections from a static initializer", (INSPECTION, SANDBOX)),
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
  }
} survivor;
}  // namespace
''', "cheat step2: a setsid grandchild that outlives its time limit", (INSPECTION, SANDBOX)),
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
