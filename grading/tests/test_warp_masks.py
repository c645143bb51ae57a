"""Step 5's warp masks in compiled PTX (gradelib/warp_masks.py): small PTX texts for the
reader's rules, and kernels compiled here with nvcc --ptx exactly as the build compiles step
5's kernel files (the course's checked shuffle first, then the student's file, with
COURSE_DEVICE_ONLY_KERNELS and COURSE_CHECK_WARP_MASKS): the reference has no finding; a
16-lane mask is found however the source hides it (inline PTX whose name is split over two
string literals; `#line` naming the course's header and `#undef COURSE_CHECK_WARP_MASKS`)."""
import concurrent.futures
import pathlib
import shutil
import subprocess
import tempfile
import textwrap
import unittest

from tests.helpers import GRADING
from gradelib import warp_masks

NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                               if pathlib.Path("/usr/local/cuda/bin/nvcc").exists() else None)
ROOT = GRADING.parent
CHECKED = warp_masks.CHECKED


def ptx(body, name="_Z1kv", header=".visible .entry"):
    return f"{header} {name}(\n  .param .u64 {name}_param_0\n)\n{{\n{textwrap.dedent(body)}\n}}\n"


class Reader(unittest.TestCase):
    def findings(self, text):
        return warp_masks.ptx_findings(text)

    def test_full_masks_immediate_or_through_a_register(self):
        self.assertEqual(self.findings(ptx("""
            .reg .b32 %r<8>;
            .reg .pred %p<3>;
            mov.u32 %r5, -1;
            shfl.sync.bfly.b32 %r6|%p1, %r3, %r2, %r4, %r5;
            bar.warp.sync -1;
            vote.sync.ballot.b32 %r7, %p2, 0xffffffff;
            ret;""")), [])

    def test_masks_that_name_part_of_the_warp(self):
        found = "\n".join(self.findings(ptx("""
            .reg .b32 %r<9>;
            .reg .pred %p<3>;
            mov.b32 %r5, 65535;
            shfl.sync.bfly.b32 %r6|%p1, %r3, %r2, %r4, %r5;
            activemask.b32 %r8;
            vote.sync.any.pred %p2, %p1, %r8;
            bar.warp.sync 0x0000ffff;
            ret;""")))
        self.assertIn("uses the mask 0x0000ffff", found)
        self.assertIn("`vote.sync.any.pred %p2, %p1, %r8` uses the mask a value computed at "
                      "run time", found)
        self.assertIn("`bar.warp.sync 0x0000ffff`", found)

    def test_what_ptxas_reads_as_a_shuffle_is_read_as_one(self):
        for spelling in ("shfl .sync.bfly.b32 %r1, %r1, 1, 31, 0xffff;",
                         "shfl/* a comment */.sync.bfly.b32 %r1, %r1, 1, 31, 0xffff;",
                         "shfl.sync.bfly.b32 %r1, %r1, 1, 31,\n 0xffff;",
                         "@%p1 shfl.sync.bfly.b32 %r1, %r1, 1, 31, 0xffff;"):
            found = self.findings(ptx(f".reg .b32 %r<2>;\n.reg .pred %p<2>;\n{spelling}"))
            self.assertEqual(len(found), 1, spelling)
            self.assertIn("0x0000ffff", found[0])

    def test_what_the_reader_cannot_follow_is_a_finding(self):
        for mask in ("0xffff|0xffff0000", "(0xffffffff)", "%r9"):
            found = self.findings(ptx(f".reg .b32 %r<9>;\nshfl.sync.bfly.b32 %r1, %r1, 1, 31, "
                                      f"{mask};"))
            self.assertEqual(len(found), 1, mask)

    def test_a_register_left_unset_on_one_path(self):
        found = self.findings(ptx("""
            .reg .b32 %r<6>;
            .reg .pred %p<2>;
            @%p1 bra $L__skip;
            mov.u32 %r5, -1;
            $L__skip:
            shfl.sync.bfly.b32 %r1, %r1, 1, 31, %r5;
            ret;"""))
        self.assertEqual(len(found), 1)
        self.assertIn("undefined", found[0])

    def test_paths_follow_branches_and_returns(self):
        # Skipped by an unconditional branch: unset on the path that reaches the shuffle.
        found = self.findings(ptx("""
            .reg .b32 %r<6>;
            bra.uni $L__over;
            mov.u32 %r5, -1;
            $L__over:
            shfl.sync.bfly.b32 %r1, %r1, 1, 31, %r5;"""))
        self.assertIn("undefined", found[0])
        # Set before a branch around other code: set on every path (a `ret` ends one).
        self.assertEqual(self.findings(ptx("""
            .reg .b32 %r<6>;
            .reg .pred %p<2>;
            mov.u32 %r5, -1;
            @%p1 bra $L__late;
            ret;
            $L__late:
            shfl.sync.bfly.b32 %r1, %r1, 1, 31, %r5;""")), [])

    def test_a_predicated_definition_does_not_replace_the_earlier_value(self):
        found = self.findings(ptx("""
            .reg .b32 %r<6>;
            .reg .pred %p<2>;
            mov.u32 %r5, 255;
            @%p1 mov.u32 %r5, -1;
            shfl.sync.bfly.b32 %r1, %r1, 1, 31, %r5;"""))
        self.assertIn("0x000000ff", found[0])

    def test_a_register_of_an_inner_scope_is_another_register(self):
        found = self.findings(ptx("""
            .reg .b32 %r<6>;
            {
            .reg .b32 %r5;
            mov.u32 %r5, -1;
            }
            shfl.sync.bfly.b32 %r1, %r1, 1, 31, %r5;"""))
        self.assertEqual(len(found), 1)
        self.assertIn("undefined", found[0])

    def test_the_checked_shuffle_may_take_its_mask_from_its_parameter_only(self):
        checked = f"""
            .reg .b32 %r<8>;
            ld.param.u32 %r3, [{CHECKED}_param_0];
            trap;
            shfl.sync.bfly.b32 %r6|%p1, %r4, %r2, %r5, %r3;
            ret;"""
        header = ".func (.param .b32 func_retval0)"
        self.assertEqual(self.findings(ptx(checked, CHECKED, header)), [])
        self.assertTrue(self.findings(ptx(checked, "_Z8impostorjfi", header)))
        without_trap = checked.replace("trap;", "")
        self.assertIn("without its mask check",
                      "\n".join(self.findings(ptx(without_trap, CHECKED, header))))
        twice = ptx(checked, CHECKED, header) * 2
        self.assertIn("more than once", "\n".join(self.findings(twice)))

    def test_a_constant_mask_passed_to_the_checked_shuffle(self):
        call = f"""
            .reg .b32 %r<3>;
            {{
            .param .b32 param0;
            st.param.b32 [param0+0], {{mask}};
            .param .b32 retval0;
            call.uni (retval0), {CHECKED}, (param0);
            }}"""
        self.assertEqual(self.findings(ptx(call.replace("{mask}", "-1"))), [])
        self.assertEqual(self.findings(ptx(call.replace("{mask}", "%r1"))), [])  # run time
        found = self.findings(ptx(call.replace("{mask}", "65535")))
        self.assertIn("calls checked_shfl_xor_sync with the constant mask 0x0000ffff", found[0])

    def test_a_block_that_is_no_function(self):
        block = ".visible .weird k\n{\nshfl.sync.bfly.b32 %r1, %r1, 1, 31, 1;\n}\n"
        self.assertIn("neither a function nor data", self.findings(block)[0])


WARP_FILE = ROOT / "step5_tensor_core_sddmm" / "sddmm_warp_per_nonzero.cuh"
LOOP = "value += checked_shfl_xor_sync(kAllLanes, value, offset);"
STUDENTS = {
    "reference": {},
    "raw_full_mask": {LOOP: "value += __shfl_xor_sync(0xFFFFFFFFu, value, offset);"},
    "raw_half_mask": {LOOP: "value += __shfl_xor_sync(0x0000FFFFu, value, offset);"},
    "split_inline_ptx": {LOOP: "float other;\n    asm volatile(\"sh\" \"fl.sync.bfly.b32 %0, "
                               "%1, %2, 31, 0x0000ffff;\" : \"=f\"(other) : \"f\"(value), "
                               "\"r\"(offset));\n    value += other;"},
    "line_and_undef": {"#pragma once": "#pragma once\n#line 1 \"warp_shuffle_check.cuh\"\n"
                                       "#undef COURSE_CHECK_WARP_MASKS",
                       "constexpr unsigned kAllLanes = 0xFFFFFFFFu;":
                           "constexpr unsigned kAllLanes = 0x0000FFFFu;"},
    "active_mask": {LOOP: "value += __shfl_xor_sync(__activemask(), value, offset);"},
}


def compile_student(folder, name, edits):
    """sddmm_warp_per_nonzero_launch.cu compiled to PTX as the build compiles it, with the
    student's file behind a forwarding header that reads the course's checked shuffle first."""
    root = pathlib.Path(folder) / name
    (root / "step5_tensor_core_sddmm").mkdir(parents=True)
    text = WARP_FILE.read_text(encoding="utf-8")
    for original, replacement in edits.items():
        assert text.count(original) == 1, original
        text = text.replace(original, replacement)
    student = root / "student.cuh"
    student.write_text(text, encoding="utf-8")
    (root / "step5_tensor_core_sddmm" / "sddmm_warp_per_nonzero.cuh").write_text(
        "#ifdef __CUDA_ARCH__\n#include \"step5_tensor_core_sddmm/warp_shuffle_check.cuh\"\n"
        f"#include \"{student}\"\n#else\n#include \"{WARP_FILE}\"\n#endif\n", encoding="utf-8")
    out = root / "launch.ptx"
    result = subprocess.run(
        [NVCC, "-O3", "-std=c++17", "-arch=sm_90", "--ptx", "-DCOURSE_DEVICE_ONLY_KERNELS",
         "-DCOURSE_CHECK_WARP_MASKS", f"-I{root}", f"-I{ROOT}",
         str(ROOT / "step5_tensor_core_sddmm" / "sddmm_warp_per_nonzero_launch.cu"),
         "-o", str(out)], capture_output=True, text=True)
    return out.read_text(encoding="utf-8") if result.returncode == 0 else result.stderr


@unittest.skipUnless(NVCC, "nvcc is not installed")
class CompiledKernels(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            futures = {name: pool.submit(compile_student, cls.folder.name, name, edits)
                       for name, edits in STUDENTS.items()}
            cls.ptx = {name: future.result() for name, future in futures.items()}

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def findings(self, name):
        self.assertIn(".entry", self.ptx[name], f"{name} does not compile: {self.ptx[name]}")
        return "\n".join(warp_masks.ptx_findings(self.ptx[name]))

    def test_the_reference_and_a_raw_full_mask_have_no_finding(self):
        self.assertIn(f".func  (.param .b32 func_retval0) {CHECKED}(", self.ptx["reference"])
        self.assertEqual(self.findings("reference"), "")
        self.assertEqual(self.findings("raw_full_mask"), "")

    def test_half_warp_masks_however_the_source_writes_them(self):
        self.assertIn("uses the mask 0x0000ffff", self.findings("raw_half_mask"))
        self.assertIn("`shfl.sync.bfly.b32 %f", self.findings("split_inline_ptx"))
        self.assertIn("0x0000ffff", self.findings("split_inline_ptx"))
        # The course's shuffle was compiled before the #undef: it still traps, and the
        # constant it is called with is read in the PTX.
        line = self.findings("line_and_undef")
        self.assertIn("calls checked_shfl_xor_sync with the constant mask 0x0000ffff", line)
        self.assertNotIn("without its mask check", line)
        self.assertIn("computed at run time", self.findings("active_mask"))


if __name__ == "__main__":
    unittest.main()
