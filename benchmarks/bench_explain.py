"""Benchmark ``tfdoctor explain`` on a large mixed TensorFlow log: MB/s and peak RSS.

Usage: python benchmarks/bench_explain.py [--mb 50] [--plain | --dump | --distinct] [--keep FILE]
       [--literals]

The log mixes what a training run prints (Keras progress bars redrawn with ``\\r``, epoch
lines, TensorFlow's start-up noise, a traceback) with a few failure lines, so the prefilter
meets both the common and the rare case. ``--plain`` writes the harder case: the same lines
with no redrawn progress bars (each bar's last state only) and TensorFlow's noise after every
epoch, so that every byte is a line to search. ``--dump`` writes TensorFlow's BFC allocator
dump after an out-of-memory error instead (thousands of chunk lines, each with a hexadecimal
address of its own, so that no two lines share a shape of digits), and ``--distinct`` a log whose
lines all differ (object reprs, hashes, VLOG lines). The target is 50 MB/s and under 100 MB
resident, for each.

``--literals`` measures instead what two comments of the scan claim: that a compiled pattern
finds a short literal faster than ``str.find`` does where the literal is absent from a long
text (``explain.scanning._lines_holding``, ``reader.clean``'s ``\\r\\n``). It prints, for each of a
few such literals, the best of several searches of the log by each, and their ratio.
"""

from __future__ import annotations

import argparse
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tfdoctor.explain import explain
from tfdoctor.explain.reader import read_log
from tfdoctor.matrix import load_matrix
from tfdoctor.signatures import load_signatures

_NOISE = (
    "2024-03-10 18:42:51.339121: I tensorflow/core/framework/local_rendezvous.cc:404] Local "
    "rendezvous is aborting with status: OUT_OF_RANGE: End of sequence\n"
    "2023-12-05 09:29:20.002737: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] "
    "TF-TRT Warning: Could not find TensorRT\n"
    "2025-02-09 09:37:34.496341: I external/local_xla/xla/stream_executor/cuda/cuda_executor."
    "cc:901] successful NUMA node read from SysFS had negative value (-1), but there must be "
    "at least one NUMA node, so returning NUMA node zero.\n"
)
_FAILURE = (
    "2021-01-02 20:12:26.425425: W tensorflow/stream_executor/platform/default/dso_loader.cc:"
    "60] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
    "cannot open shared object file: No such file or directory\n"
)


def _epoch(n: int) -> str:
    bars = "".join(
        f"\r{i:4d}/1563 [{'=' * (i * 30 // 1563):<30}] - ETA: 12s - loss: 0.{i:04d} - "
        "accuracy: 0.9123"
        for i in range(1, 1564, 97)
    )
    return (
        f"Epoch {n}/1000\n{bars}\r1563/1563 [==============================] - 14s 9ms/step - "
        "loss: 0.2190 - accuracy: 0.9345 - val_loss: 0.3012 - val_accuracy: 0.9012\n"
        "I0000 00:00:1710092571.339121   10148 device_compiler.h:186] Compiled cluster using "
        "XLA!  This line is logged at most once for the lifetime of the process.\n"
        '  File "/usr/local/lib/python3.10/dist-packages/keras/src/engine/training.py", line '
        f"{1000 + n}, in fit\n"
    )


_BFC = "tensorflow/core/common_runtime/bfc_allocator.cc"


def _dump(n: int) -> str:
    """The ``n``-th piece of a BFC allocator dump: its head where a dump starts, then chunk
    lines, each at an address of its own (the allocator prints every chunk of every region)."""
    stamp = f"2023-05-01 12:{n // 60000 % 60:02d}:{n // 1000 % 60:02d}.{n % 1000000:06d}"
    if n % 4000 == 0:
        return (
            f"{stamp}: W {_BFC}:479] Allocator (GPU_0_bfc) ran out of memory trying to "
            "allocate 1.00GiB (rounded to 1073741824)requested by op MatMul\n"
            f"{stamp}: I {_BFC}:1027] BFCAllocator dump for GPU_0_bfc\n"
            f"{stamp}: I {_BFC}:1034] Bin (256): \tTotal Chunks: {n % 97}, Chunks in use: "
            f"{n % 89}. {n % 83}.0KiB allocated for chunks. 4.0KiB in use in bin. 3.1KiB "
            "client-requested in use in bin.\n"
        )
    address = 0x7F2C3E000000 + n * 0x1100
    kind = ("InUse", "Free")[n % 5 == 0]
    return f"{stamp}: I {_BFC}:1084] {kind} at {address:x} of size {256 << n % 9} next {n % 2048}\n"


def _distinct(n: int) -> str:
    """The ``n``-th line of a log whose lines all differ: object reprs at their addresses,
    hashes, VLOG lines with a pointer."""
    value = (n * 0x9E3779B97F4A7C15) & (1 << 64) - 1
    return (
        f"<tensorflow.python.framework.ops.EagerTensor object at 0x{value >> 16:012x}>",
        f"checkpoint {value:016x}{value ^ 0xDEADBEEF:016x} saved",
        f"I0501 12:00:{n % 60:02d}.{n % 1000000:06d} {n % 65536} gpu_util.cc:{n % 900}] "
        f"buffer 0x{value >> 20:x} stream {value & 0xFFFFF:x}",
    )[n % 3] + "\n"


def write_log(path: Path, megabytes: float, plain: bool = False, kind: str = "mixed") -> int:
    """A mixed log of about ``megabytes`` MB at ``path`` (``plain``: no redrawn lines, noise
    after every epoch; ``kind`` "dump": an allocator dump, "distinct": lines that all differ);
    returns its size in bytes."""
    target = int(megabytes * 1_000_000)
    if kind != "mixed":
        piece_of = _dump if kind == "dump" else _distinct
        size = n = 0
        with path.open("w", encoding="utf-8", newline="") as out:
            while size < target:
                # A few thousand lines a write: the generator's own time stays small.
                piece = "".join(map(piece_of, range(n, n + 4096)))
                n += 4096
                out.write(piece)
                size += len(piece.encode("utf-8"))
        return size
    size = 0
    n = 0
    with path.open("w", encoding="utf-8", newline="") as out:
        while size < target:
            n += 1
            if plain:
                epoch = "\n".join(line.rsplit("\r", 1)[-1] for line in _epoch(n).split("\n"))
                piece = epoch + _NOISE + (_FAILURE if n % 300 == 0 else "")
            else:
                piece = (
                    _epoch(n) + (_NOISE if n % 7 == 0 else "") + (_FAILURE if n % 500 == 0 else "")
                )
            out.write(piece)
            size += len(piece.encode("utf-8"))
    return size


#: Literals the scan looks for in a whole text, none of them in the generated log: Windows' line
#: end, and signatures' keywords that hold digits, short and longer.
_LITERALS = ("\r\n", "-32", "64_", "32 bit (", "code 137")


def time_literals(text: str, runs: int = 7) -> list[tuple[str, float, float]]:
    """(literal, seconds by a compiled pattern, seconds by ``str.find``) for each of
    :data:`_LITERALS` absent from ``text``, the best of ``runs`` searches each."""
    out = []
    for literal in _LITERALS:
        if literal in text:
            continue
        search = re.compile(re.escape(literal)).search
        by_pattern = by_find = float("inf")
        for _ in range(runs):
            start = time.perf_counter()
            search(text)
            by_pattern = min(by_pattern, time.perf_counter() - start)
            start = time.perf_counter()
            text.find(literal)
            by_find = min(by_find, time.perf_counter() - start)
        out.append((literal, by_pattern, by_find))
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the log, explain it, print MB/s and peak RSS."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--mb", type=float, default=50.0, help="log size in MB (default 50)")
    parser.add_argument("--keep", metavar="FILE", help="write the log here and keep it")
    parser.add_argument(
        "--plain", action="store_true", help="no redrawn progress bars: every line is searched"
    )
    kinds = parser.add_mutually_exclusive_group()
    kinds.add_argument(
        "--dump", action="store_true", help="an allocator dump: no two lines share a shape"
    )
    kinds.add_argument("--distinct", action="store_true", help="lines that all differ")
    parser.add_argument(
        "--literals",
        action="store_true",
        help="time a compiled pattern against str.find for short absent literals instead",
    )
    args = parser.parse_args(argv)
    kind = "dump" if args.dump else "distinct" if args.distinct else "mixed"
    if args.literals:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "mixed.log"
            write_log(path, args.mb, args.plain, kind)
            text = path.read_text(encoding="utf-8")
        for literal, by_pattern, by_find in time_literals(text):
            print(
                f"{literal!r:12} pattern {by_pattern * 1e3:7.2f} ms, str.find "
                f"{by_find * 1e3:7.2f} ms: {by_find / by_pattern:4.1f}x"
            )
        return 0
    signatures = load_signatures()
    matrix = load_matrix()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.keep) if args.keep else Path(tmp) / "mixed.log"
        size = write_log(path, args.mb, args.plain, kind)
        start = time.perf_counter()
        with path.open("rb") as stream:
            report = explain(read_log(stream, path.name), signatures, matrix)
        seconds = time.perf_counter() - start
    # ru_maxrss is KiB on Linux (bytes on macOS).
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rss_mb = rss / (1 << 20) if sys.platform == "darwin" else rss / 1024
    print(f"log: {size / 1e6:.1f} MB, {seconds:.2f} s, {size / 1e6 / seconds:.1f} MB/s")
    print(f"peak RSS: {rss_mb:.1f} MiB (the log generator's included)")
    print("findings: " + ", ".join(f.id for f in report.findings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
