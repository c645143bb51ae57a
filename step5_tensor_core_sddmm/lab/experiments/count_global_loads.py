#!/usr/bin/env python3
"""Counts, per variant of the WMMA shape experiment's product kernel, the global loads in the
PTX (ld.global) and in the machine code (SASS: LDG), and the branches (BRA) and warp
reductions (REDUX) in the SASS: the evidence, without a GPU, of which variants keep the read
of S's tile that computes the note's `sparsity`.

Usage: python3 count_global_loads.py OBJECT.o

OBJECT.o is wmma_shape_sddmm.cu's object file (build/step5_tensor_core_sddmm/CMakeFiles/
step5_kernels.dir/experiments/wmma_shape_sddmm.cu.o). Needs cuobjdump and nvdisasm on PATH
(the CUDA toolkit's, or the pip packages nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm).
"""
import re
import subprocess
import sys

USES = ["(a) none", "(b) read + if never taken", "(c) read kept, no branch",
        "(d) read, empty asm only", "(e) read, value unused"]
KERNEL = re.compile(r"shape_wmma_kernelILi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)ELNS1_11SparsityUseE(\d)E")


def per_kernel(text, entry, patterns):
    """{kernel name: [count of each pattern]} over the functions of a cuobjdump listing."""
    counts = {}
    name = None
    for line in text.splitlines():
        start = entry.search(line)
        if start:
            name = start.group(1)
            counts[name] = [0] * len(patterns)
        elif name is not None:
            for index, pattern in enumerate(patterns):
                counts[name][index] += bool(pattern.search(line))
    return counts


def dump(option, path):
    return subprocess.run(["cuobjdump", option, path], check=True, capture_output=True,
                          text=True).stdout


def main():
    arguments = sys.argv[1:]
    if arguments[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(arguments) != 1 or any(argument.startswith("-") for argument in arguments):
        print(f"{sys.argv[0]}: takes one argument, OBJECT.o, got {' '.join(arguments) or 'none'} "
              "(see --help)", file=sys.stderr)
        return 2
    ptx = per_kernel(dump("-ptx", sys.argv[1]), re.compile(r"\.entry\s+(\w+)\("),
                     [re.compile(r"\bld\.global")])
    sass = per_kernel(dump("-sass", sys.argv[1]), re.compile(r"Function : (\w+)"),
                      [re.compile(r"\bLDG\b"), re.compile(r"\bBRA\b"), re.compile(r"\bREDUX\b")])
    rows = []
    for name, (ldg, bra, redux) in sass.items():
        match = KERNEL.search(name)
        if match is None:
            continue
        m, n, warps_x, warps_y, use = (int(group) for group in match.groups())
        rows.append((use, m, n, warps_x, f"{m}x{n}x16", f"{32 * warps_x}x{warps_y}", USES[use],
                     ptx[name][0], ldg, bra, redux))
    print("| WMMA shape | block | sparsity | PTX ld.global | SASS LDG | SASS BRA | SASS REDUX |")
    print("|---|---|---|---:|---:|---:|---:|")
    for row in sorted(rows):
        print("| " + " | ".join(str(cell) for cell in row[4:]) + " |")


if __name__ == "__main__":
    sys.exit(main())
