"""Measure this CPU's float32 FMA throughput and its clock with a few bytes of machine code.

Run by path as ``python fma_loop.py CONFIG_JSON``; prints one JSON document on stdout. The
config names the threads to load at once and the FMA kernels to time (``fma256``: 256-bit
``vfmadd231ps``, AVX and FMA3; ``fma512``: 512-bit, AVX-512F), chosen by the parent from the
CPU flags. Standard library only, Python 3.8+, nothing from tfdoctor, x86-64 Linux only (the
System V calling convention: the iteration count arrives in rdi); anywhere else it prints
``{"error": ...}`` and exits 0.

Each kernel is a loop of twelve independent ``vfmadd231ps`` on zeroed registers (zeros: no
denormal assists), enough to keep two FMA pipes of latency 4 to 6 busy, so it runs at the
core's FMA throughput: the hardware peak at the clock the cores really run at. The clock
comes from a chain of dependent register adds (one cycle each on every x86-64 core). The
loops run in memory mapped writable, then made executable (never both), and are called
through ctypes, which releases the GIL: one Python thread per CPU runs them at once. After
a warm-up that lets the clock ramp, each figure is the best of three runs.
"""

from __future__ import annotations

import ctypes
import json
import mmap
import os
import platform
import statistics
import sys
import threading
import time
from typing import Any, Callable

#: Independent FMA accumulators (ymm/zmm 0-11); the sources are registers 14 and 15.
ACCUMULATORS = 12
#: Dependent adds per loop iteration of the clock kernel.
ADDS = 100
#: float32 lanes per register.
LANES = {"fma256": 8, "fma512": 16}
#: Seconds one timed run aims at, and how many runs (the best one counts).
RUN_SECONDS = 0.04
RUNS = 3

PROT_READ, PROT_WRITE, PROT_EXEC = 1, 2, 4


def vxorps(reg: int) -> bytes:
    """``vxorps ymmN, ymmN, ymmN`` (3-byte VEX): zeroes all of ymmN, and zmmN above it."""
    inv = 0 if reg >= 8 else 1
    vex = [0xC4, (inv << 7) | (1 << 6) | (inv << 5) | 0x01, ((~reg & 0xF) << 3) | 0x04]
    return bytes([*vex, 0x57, 0xC0 | ((reg & 7) << 3) | (reg & 7)])


def vfmadd231ps(kernel: str, dst: int) -> bytes:
    """``vfmadd231ps dst, r14, r15`` on ymm (VEX.256) or zmm (EVEX.512) registers below 16."""
    modrm = 0xC0 | ((dst & 7) << 3) | 7
    inv = 0 if dst >= 8 else 1
    if kernel == "fma256":
        # VEX: R X B mmmmm=0F38 | W=0 vvvv=~14 L=1 pp=66 | opcode B8 | modrm
        return bytes([0xC4, (inv << 7) | 0x42, 0x0D, 0xB8, modrm])
    # EVEX: R X B R' 00 mm=0F38 | W=0 vvvv=~14 1 pp=66 | z L'L=512 b V'=~0 aaa | B8 | modrm
    return bytes([0x62, (inv << 7) | 0x52, 0x0D, 0x48, 0xB8, modrm])


def loop(body: bytes, prologue: bytes, epilogue: bytes) -> bytes:
    """``prologue; top: body; dec rdi; jnz top; epilogue; ret`` (rdi: the iteration count)."""
    tail = bytes([0x48, 0xFF, 0xCF])  # dec rdi
    jump = -(len(body) + len(tail) + 6)
    tail += bytes([0x0F, 0x85]) + jump.to_bytes(4, "little", signed=True)  # jnz rel32
    return prologue + body + tail + epilogue + bytes([0xC3])


def fma_code(kernel: str) -> bytes:
    """The FMA loop: zero the registers, then ACCUMULATORS FMAs per iteration."""
    zero = b"".join(vxorps(r) for r in [*range(ACCUMULATORS), 14, 15])
    body = b"".join(vfmadd231ps(kernel, r) for r in range(ACCUMULATORS))
    return loop(body, zero, bytes([0xC5, 0xF8, 0x77]))  # vzeroupper before returning


def clock_code() -> bytes:
    """The clock loop: ``mov edx, 1; xor eax, eax``, then ADDS ``add rax, rdx`` per iteration."""
    prologue = bytes([0xBA, 1, 0, 0, 0, 0x31, 0xC0])
    return loop(bytes([0x48, 0x01, 0xD0]) * ADDS, prologue, b"")


class Code:
    """Machine code in its own pages, writable while written and then only executable."""

    def __init__(self, code: bytes) -> None:
        size = max(mmap.PAGESIZE, len(code))
        self.pages = mmap.mmap(-1, size, prot=PROT_READ | PROT_WRITE)
        self.pages.write(code)
        self.buffer = ctypes.c_char.from_buffer(self.pages)
        address = ctypes.addressof(self.buffer)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        if libc.mprotect(address, size, PROT_READ | PROT_EXEC) != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, "mprotect(PROT_EXEC) refused: " + os.strerror(errno))
        self.call: Callable[[int], int] = ctypes.CFUNCTYPE(ctypes.c_uint64, ctypes.c_uint64)(
            address
        )


def run_threads(call: Callable[[int], int], iterations: int, threads: int) -> dict[str, Any]:
    """``call(iterations)`` on ``threads`` threads at once: the wall seconds of the whole run,
    and the CPU seconds each thread ran (``thread_time``: time the scheduler gave it, without
    the time other processes or a hypervisor took, so a busy machine still shows the core's
    own speed)."""
    barrier = threading.Barrier(threads + 1)
    seconds = [0.0] * threads

    def work(index: int) -> None:
        barrier.wait()
        start = time.thread_time()
        call(iterations)
        seconds[index] = max(time.thread_time() - start, 1e-9)

    workers = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(threads)]
    for worker in workers:
        worker.start()
    barrier.wait()
    start = time.perf_counter()
    for worker in workers:
        worker.join()
    return {"wall": time.perf_counter() - start, "each": seconds}


def sized(call: Callable[[int], int], threads: int) -> int:
    """Iterations for one run of about RUN_SECONDS, from a short run on every thread at once
    (which also lets the clock ramp up)."""
    iterations = 20000
    while True:
        took = run_threads(call, iterations, threads)["wall"]
        if took >= 0.01 or iterations >= 1 << 40:
            return max(1, int(iterations * RUN_SECONDS / max(took, 1e-9)))
        iterations *= 8


def measure_clock(threads: int) -> dict[str, Any]:
    """Cycles per second each thread ran while all ran the add chain: the all-core clock."""
    code = Code(clock_code())
    iterations = sized(code.call, threads)
    best: list[float] = []
    for _ in range(RUNS):
        run = run_threads(code.call, iterations, threads)
        rates = [iterations * ADDS / s for s in run["each"]]
        if statistics.median(rates) > (statistics.median(best) if best else 0.0):
            best = rates
    return {"hz": statistics.median(best), "per_thread_hz": [round(r) for r in best]}


def measure_fma(kernel: str, threads: int) -> dict[str, Any]:
    """float32 FLOP per second of the FMA loop on ``threads`` threads at once (FMA = 2 FLOP).

    ``flops`` sums each thread's FLOP per CPU second: what the cores do while they run, which
    SMT siblings share (each sibling gets half) and time-slicing does not lower. ``wall_flops``
    is what the run reached in wall time, competition included.
    """
    code = Code(fma_code(kernel))
    iterations = sized(code.call, threads)
    flop = iterations * ACCUMULATORS * LANES[kernel] * 2
    best: dict[str, Any] = {"flops": 0.0}
    for _ in range(RUNS):
        run = run_threads(code.call, iterations, threads)
        rate = sum(flop / s for s in run["each"])
        if rate > best["flops"]:
            best = {
                "flops": rate,
                "wall_flops": threads * flop / run["wall"],
                "seconds": run["wall"],
            }
    best["threads"] = threads
    return best


def supported() -> str:
    """Why this machine cannot run the kernels, or ``""`` when it can."""
    if not sys.platform.startswith("linux"):
        return f"the FMA kernels run on Linux only, not {sys.platform}"
    if platform.machine() not in ("x86_64", "amd64", "AMD64"):
        return f"the FMA kernels are x86-64 machine code; this CPU is {platform.machine()}"
    return ""


def main(argv: list[str]) -> int:
    """Measure what the config asks for and print it as one JSON document."""
    if len(argv) != 2:
        sys.stderr.write("usage: fma_loop.py CONFIG_JSON\n")
        return 2
    config = json.loads(argv[1])
    threads = max(1, int(config.get("threads") or 1))
    kernels = [k for k in config.get("kernels") or [] if k in LANES]
    why = supported()
    if why:
        print(json.dumps({"error": why}))
        return 0
    out: dict[str, Any] = {"threads": threads, "kernels": {}}
    start = time.perf_counter()
    try:
        out["clock"] = measure_clock(threads)
        for kernel in kernels:
            out["kernels"][kernel] = measure_fma(kernel, threads)
    except (OSError, ValueError, AttributeError) as exc:
        out["error"] = f"{type(exc).__name__}: {exc}"
    out["seconds"] = time.perf_counter() - start
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
