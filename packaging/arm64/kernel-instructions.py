#!/usr/bin/env python3
"""Counts the instructions the page kernels execute in an arm64 `folio` under qemu-user.

usage: kernel-instructions.py QEMU SYSROOT FOLIO            the fold and turn frames' table
       kernel-instructions.py QEMU SYSROOT FOLIO -- ARG...  one run of FOLIO ARG..., per function

A frame's figure is `folio render` of that frame less `folio render` of the flat sheet alone (the
render draws the sheet first), both with the variant's kernels, counting only the variant's file. The kernels are every function compiled from the page kernels' C files (the FILE groups
of the program's symbol table). qemu logs only the translated blocks inside them (-dfilter) and every
execution of each (exec, nochain); a kernel's count is the sum over executions of its blocks'
instructions. NEON kernels cannot be timed under emulation, but their instructions can be counted
exactly.
The filter needs the program's load address before it runs: qemu is given a guest address space of
its own (-R), where it places the program the same way every run, and the counted run checks it.
"""

import bisect
import os
import re
import subprocess
import sys
import tempfile

KERNEL_FILES = {"portable.c", "neon.c", "avx2.c", "avx512.c"}
# 512 GiB of guest addresses, reserved (not allocated) by qemu.
GUEST_SPACE = "0x8000000000"


def fail(message):
    sys.exit(f"kernel-instructions: {message}")


def kernel_functions(program):
    """(start, end, file, name) of every function from KERNEL_FILES, as linked (not yet loaded)."""
    table = subprocess.run(["readelf", "-sW", program], capture_output=True, text=True, check=True).stdout
    functions, current, seen = [], None, set()
    for line in table.splitlines():
        fields = line.split()
        if len(fields) < 8 or not fields[0].endswith(":"):
            continue
        kind, name = fields[3], fields[7]
        if kind == "FILE":
            current = name if name in KERNEL_FILES else None
            if current:
                if current in seen:
                    fail(f"{program} has two files named {current}: which is the kernels' is unclear")
                seen.add(current)
        elif kind == "FUNC" and current and fields[4] == "LOCAL":
            start, size = int(fields[1], 16), int(fields[2], 0)  # readelf writes large sizes in hex
            if size > 0:
                functions.append((start, start + size, current, name))
    if not functions:
        fail(f"{program} has no symbols from {', '.join(sorted(KERNEL_FILES))} (stripped?)")
    return sorted(functions)


def code_address(program):
    """The linked address of the program's executable segment, which qemu logs as start_code."""
    headers = subprocess.run(["readelf", "-lW", program], capture_output=True, text=True, check=True).stdout
    for line in headers.splitlines():
        fields = line.split()
        if fields[:1] == ["LOAD"] and "E" in fields[6:-1]:
            return int(fields[2], 16)
    fail(f"{program} has no executable segment")


def start_code(log):
    with open(log, errors="replace") as f:
        for line in f:
            if line.startswith("start_code"):
                return int(line.split()[1], 16)
    fail("qemu logged no start_code")


def qemu(qemu_path, sysroot, log, flags, program, arguments, extra=()):
    command = [qemu_path, "-R", GUEST_SPACE, "-L", sysroot, "-d", flags, *extra, "-D", log, program, *arguments]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL)


class Counter:
    """Counts the kernels' instructions in runs of one program."""

    def __init__(self, qemu_path, sysroot, program):
        self.qemu_path, self.sysroot, self.program = qemu_path, sysroot, program
        self.functions = kernel_functions(program)
        with tempfile.TemporaryDirectory(prefix="folio-kernel-count-") as scratch:
            # Where the program loads: from a run that only starts it.
            log = os.path.join(scratch, "page.log")
            if qemu(qemu_path, sysroot, log, "page", program, ["--version"]).wait() != 0:
                fail(f"{program} --version failed under qemu")
            self.loaded = start_code(log)
            self.base = self.loaded - code_address(program)
        self.starts = [self.base + start for start, _, _, _ in self.functions]
        self.ranges = ",".join(f"0x{self.base + start:x}+0x{end - start:x}" for start, end, _, _ in self.functions)

    def count(self, arguments):
        """{(file, function): instructions} over one run of the program with `arguments`."""
        with tempfile.TemporaryDirectory(prefix="folio-kernel-count-") as scratch:
            # The log read through a pipe as qemu writes it.
            log = os.path.join(scratch, "exec.log")
            os.mkfifo(log)
            run = qemu(self.qemu_path, self.sysroot, log, "page,in_asm,exec,nochain", self.program, arguments,
                       ("-dfilter", self.ranges))
            sizes, executions, loaded = {}, {}, None
            block = None
            trace = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
            with open(log, errors="replace") as f:
                for line in f:
                    if line.startswith("Trace"):
                        match = trace.match(line)
                        if match:
                            pc = int(match.group(1), 16)
                            executions[pc] = executions.get(pc, 0) + 1
                        block = None
                    elif line.startswith("IN:"):
                        block = "first"
                    elif line.startswith("0x") and block is not None:
                        pc = int(line.split(":", 1)[0], 16)
                        if block == "first":
                            block = pc
                            sizes[pc] = 0
                        sizes[block] += 1
                    elif line.startswith("start_code"):
                        loaded = int(line.split()[1], 16)
                    elif not line.strip():
                        block = None
            if run.wait() != 0:
                fail(f"folio {' '.join(arguments)} failed under qemu")
        if loaded != self.loaded:
            fail(f"the counted run loaded at {loaded and hex(loaded)}, not where the first did: qemu placed it differently")
        unsized = [pc for pc in executions if pc not in sizes]
        if unsized:
            fail(f"{len(unsized)} executed blocks were never logged as translated (first at 0x{unsized[0]:x})")
        totals = {}
        for pc, times in executions.items():
            i = bisect.bisect_right(self.starts, pc) - 1
            if i < 0 or pc >= self.base + self.functions[i][1]:
                fail(f"a logged block at 0x{pc:x} lies outside the kernels")
            key = self.functions[i][2:]
            totals[key] = totals.get(key, 0) + sizes[pc] * times
        return totals


def in_file(totals, file):
    return {name: count for (f, name), count in totals.items() if f == file}


FRAMES = [("fold 0.9", ["--fold", "0.9"]), ("turn 0.25", ["--flip", "0.25"])]
SIZES = ["1280x800", "2560x1600"]
VARIANTS = [("portable", "portable.c"), ("neon", "neon.c")]


def main():
    if len(sys.argv) < 4 or (len(sys.argv) > 4 and sys.argv[4] != "--"):
        fail("usage: kernel-instructions.py QEMU SYSROOT FOLIO [-- ARGUMENT...]")
    counter = Counter(*sys.argv[1:4])
    if len(sys.argv) > 4:
        totals = counter.count(sys.argv[5:])
        for (file, name), count in sorted(totals.items(), key=lambda item: -item[1]):
            print(f"{file} {name} {count}")
        print(f"total {sum(totals.values())}")
        return
    out = os.path.join(tempfile.gettempdir(), f"folio-kernel-count-{os.getpid()}.png")
    rows, details = [], []
    try:
        for size in SIZES:
            flat = {variant: counter.count(["render", "--size", size, "--kernels", variant, "--out", out])
                    for variant, _ in VARIANTS}
            for frame, pose in FRAMES:
                figures = []
                for variant, file in VARIANTS:
                    totals = counter.count(["render", "--size", size, *pose, "--kernels", variant, "--out", out])
                    kernels, before = in_file(totals, file), in_file(flat[variant], file)
                    functions = {name: kernels.get(name, 0) - before.get(name, 0) for name in kernels}
                    figures.append(sum(functions.values()))
                    shown = ", ".join(f"{name} {count:,}" for name, count in sorted(functions.items(), key=lambda item: -item[1]) if count)
                    details.append(f"{frame} {size} {variant}: {shown}")
                rows.append((frame, size, *figures))
    finally:
        if os.path.exists(out):
            os.remove(out)
    print(f"{'frame':<10} {'size':<10} {'portable':>12} {'neon':>12} {'neon/portable':>14}")
    for frame, size, portable, neon in rows:
        print(f"{frame:<10} {size:<10} {portable:>12,} {neon:>12,} {neon / portable:>14.3f}")
    print("\nBy function:")
    for line in details:
        print(f"  {line}")


if __name__ == "__main__":
    main()
