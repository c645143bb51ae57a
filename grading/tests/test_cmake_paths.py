"""cmake/Course.cmake writes the forwarding headers verbatim: a student's path with '@',
'${', spaces or non-ASCII letters reaches the compiler unchanged (file(CONFIGURE) used to
expand '@uni.edu/hw@' to nothing)."""
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

from tests.helpers import GRADING

CMAKE = os.environ.get("COURSE_GRADING_TEST_CMAKE") or shutil.which("cmake")


@unittest.skipIf(CMAKE is None, "cmake not found")
class ForwardingHeaders(unittest.TestCase):
    def test_paths_are_written_verbatim_and_only_when_changed(self):
        with tempfile.TemporaryDirectory() as folder:
            target = pathlib.Path(folder) / "zoë a@uni.edu" / "k.cuh"
            include = '/home/zoë a@uni.edu/hw@1/${HOME}/step1_naive/kernel.cuh'
            script = pathlib.Path(folder) / "write.cmake"
            script.write_text(
                f'include("{GRADING.parent / "cmake" / "Course.cmake"}")\n'
                f'course_write_if_changed("${{TARGET}}" "#include \\"${{INCLUDE}}\\"\\n")\n',
                encoding="utf-8")

            def write():
                subprocess.run([CMAKE, f"-DTARGET={target}", f"-DINCLUDE={include}", "-P",
                                str(script)], check=True, capture_output=True)
            write()
            self.assertEqual(target.read_text(encoding="utf-8"), f'#include "{include}"\n')
            os.utime(target, (1000, 1000))
            write()  # same content: the file (and its time stamp) stays
            self.assertEqual(target.stat().st_mtime, 1000)


if __name__ == "__main__":
    unittest.main()
