"""Compare the smoke test's CPU matmul throughput with a bare TensorFlow loop and NumPy.

Run from the repository root with the environment under test active::

    python benchmarks/bench_smoke.py

In one run on one machine: ``tfdoctor smoke --quick --json --device CPU:0`` (timed whole,
against ``python -c "import tensorflow"``), then, at the matmul size the smoke reported, a
bare ``tf.function`` matmul loop and NumPy's matmul, each in a fresh process. It prints the
CPU peak the smoke test judged against, how it was found (``derived``: cores x clock x FLOP
per cycle for the microarchitecture; ``measured``: the FMA loop, when it beat the derivation)
and both figures. Targets: the smoke reports at least 0.9x the bare loop's GFLOP/s; the peak
is at least what the bare loop reaches (a peak below a measured matmul is wrong); and
``smoke --quick`` finishes within the TensorFlow import time plus 5 s.
"""

from __future__ import annotations

import json
import statistics
import sys

from _timing import timed

BARE_TF = """
import sys, time
import tensorflow as tf
n = int(sys.argv[1])
with tf.device("/CPU:0"):
    a = tf.random.uniform((n, n), -1.0, 1.0)
    b = tf.random.uniform((n, n), -1.0, 1.0)
    f = tf.function(tf.linalg.matmul)
    f(a, b).numpy()
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(5):
            c = f(a, b)
        c.numpy()
        runs.append(5 * 2.0 * n**3 / (time.perf_counter() - start))
print(max(runs))
"""

BARE_NUMPY = """
import sys, time
import numpy as np
n = int(sys.argv[1])
rng = np.random.default_rng(0)
a = rng.uniform(-1, 1, (n, n)).astype("float32")
b = rng.uniform(-1, 1, (n, n)).astype("float32")
a @ b
runs = []
for _ in range(3):
    start = time.perf_counter()
    for _ in range(5):
        a @ b
    runs.append(5 * 2.0 * n**3 / (time.perf_counter() - start))
print(max(runs))
"""


def last_number(code: str, n: int) -> float:
    """The number a snippet above prints last, run with matrix size ``n`` in a fresh process."""
    out = timed([sys.executable, "-c", code, str(n)], timeout=900)[1]
    return float(out.strip().splitlines()[-1])


def main() -> int:
    imports = [timed([sys.executable, "-c", "import tensorflow"])[0] for _ in range(3)]
    import_s = statistics.median(imports)
    smoke_s, out = timed(
        [sys.executable, "-m", "tfdoctor", "smoke", "--quick", "--json", "--device", "CPU:0"],
        timeout=900,
    )
    smoke = json.loads(out)["facts"]["smoke"]
    device = smoke["devices"][0]
    row = next(r for r in device["results"] if (r["kernel"], r["dtype"]) == ("matmul", "float32"))
    n = int(row["size"].split("=")[1])
    bare, numpy = last_number(BARE_TF, n), last_number(BARE_NUMPY, n)
    reported = row["throughput"]
    print(f"matmul float32 n={n} on /CPU:0")
    print(f"  smoke reported   {reported / 1e9:7.1f} GFLOP/s  ({reported / bare:.2f}x bare TF)")
    print(f"  bare tf.function {bare / 1e9:7.1f} GFLOP/s")
    print(f"  NumPy            {numpy / 1e9:7.1f} GFLOP/s")
    peak = row["peak"] or 0.0
    cpu = device.get("cpu_peak") or {}
    print(f"  peak ({device['peak_basis'] or 'none'}) {peak / 1e9:8.1f} GFLOP/s")
    print(f"    derived        {(cpu.get('derived_flops') or 0) / 1e9:7.1f} GFLOP/s  ", end="")
    print(
        f"({cpu.get('microarchitecture') or 'microarchitecture unknown'}, "
        f"{cpu.get('flops_per_cycle')} FLOP/cycle x {cpu.get('cores')} cores x "
        f"{(cpu.get('clock_hz') or 0) / 1e9:.2f} GHz, clock: {cpu.get('clock_source')})"
    )
    measured = cpu.get("measured_flops")
    if measured:
        print(f"    measured       {measured / 1e9:7.1f} GFLOP/s  ({cpu.get('measured_kernel')})")
    else:
        print(f"    measured             -  ({cpu.get('measure_error')})")
    print(f"import tensorflow median {import_s:.2f} s; smoke --quick {smoke_s:.2f} s")
    ok_speed = reported >= 0.9 * bare
    ok_peak = peak >= bare
    ok_time = smoke_s <= import_s + 5.0
    print(f"target smoke >= 0.9x bare TF loop: {'met' if ok_speed else 'MISSED'}")
    print(f"target peak >= bare TF loop: {'met' if ok_peak else 'MISSED'}")
    print(f"target smoke --quick <= import + 5 s: {'met' if ok_time else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
