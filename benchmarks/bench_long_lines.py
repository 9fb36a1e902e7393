"""Benchmark ``tfdoctor explain`` on long single lines built from every signature's own words.

Usage: python benchmarks/bench_long_lines.py [--kb 100] [--limit 1.0] [--top 10]

A regular expression with two unbounded gaps (``A.*B.*C``) is linear on a log line of normal
length and quadratic or worse on a long line that repeats its first words without ever
completing the match: a pasted minified JSON, a progress bar without newlines, a list of
thousands of paths. Such lines reach ``explain`` from real users, and one of them can turn
seconds into minutes. For every signature in ``tfdoctor/signatures.yaml`` and every example
of it, this builds lines of about ``--kb`` KB that make the search work hardest:

- ``keyword``: the signature's prefilter keyword repeated (every line passes the prefilter);
- ``repeat``: the example line repeated on one line (many complete matches);
- ``cut``: the example line without its last quarter, repeated (many starts, no match);
- ``head``: the example's first words repeated (the start of a match, over and over).

:func:`hard_texts` adds long lines of shapes the signatures' own words do not build (a path
of thousands of parts before an undefined symbol), each with the lines around it that bring
more readers to it.

Each line goes through the whole of ``explain`` (signatures, the evidence layer, every
reader) and through the redaction every report applies, so a slow pattern anywhere is
found, not only in the signatures. The result is the
slowest lines and their throughput; the exit code is 1 when a line takes longer than
``--limit`` seconds (default 1 s for 100 KB: 0.1 MB/s, 500 times below the target for a
whole log, so only a super-linear pattern fails it).
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tfdoctor.explain import explain
from tfdoctor.explain.reader import read_log
from tfdoctor.matrix import Matrix, load_matrix
from tfdoctor.redact import Redactor
from tfdoctor.signatures import Signatures, load_signatures


def _fill(piece: str, size: int, sep: str = " ") -> str:
    """``piece`` repeated, joined by ``sep``, to about ``size`` characters on one line."""
    piece = piece.replace("\r", " ").replace("\n", " ").strip() or "x"
    count = max(1, size // (len(piece) + len(sep)))
    return sep.join([piece] * count)


def long_lines(signatures: Signatures, size: int) -> Iterator[tuple[str, str, str]]:
    """(signature id, variant, line) for every signature and example."""
    for signature in signatures.signatures:
        if signature.keyword.strip():
            yield signature.id, "keyword", _fill(signature.keyword, size)
        for number, example in enumerate(signature.examples):
            words = example.split()
            tag = f"#{number}"
            yield signature.id, f"repeat{tag}", _fill(example, size)
            cut = example[: max(1, len(example) * 3 // 4)]
            head = " ".join(words[: max(1, len(words) // 3)])
            yield signature.id, f"cut{tag}", _fill(cut, size)
            yield signature.id, f"head{tag}", _fill(head, size)


def hard_texts(size: int) -> Iterator[tuple[str, str, str]]:
    """(name, variant, text) for long lines beyond the signatures' own words, in the context
    that brings more readers to them (moved here from the tests, where a time bound flakes on
    a busy machine):

    - ``undefined-symbol (long-path)``: glibc's "undefined symbol" after a path of thousands
      of parts, below an install of TensorFlow and a hosted notebook's frame, where the
      readers of undefined symbols and of a replaced notebook image search the line too.
    """
    yield (
        "undefined-symbol",
        "long-path",
        "Successfully installed tensorflow-2.12.0\n"
        "Traceback (most recent call last):\n"
        '  File "/content/models/research/object_detection/model_main_tf2.py", line 113, in '
        "<module>\n"
        "ImportError: " + "/x" * (size // 2) + ": undefined symbol: y",
    )


#: Reports redact every string they hold, cited log lines included.
_REDACTOR = Redactor(private=True, home="/home/someone", hostname="build-host-7")


def time_line(line: str, signatures: Signatures, matrix: Matrix) -> float:
    """Seconds ``explain`` and a report's redaction take over ``line`` (read as a log of that
    one line)."""
    stream = io.BytesIO((line + "\n").encode("utf-8"))
    start = time.perf_counter()
    explain(read_log(stream, "line.log"), signatures, matrix)
    _REDACTOR.text(line)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Time every long line; print the slowest; exit 1 when one is over the limit."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--kb", type=int, default=100, help="line length in KB (default 100)")
    parser.add_argument(
        "--limit", type=float, default=1.0, help="seconds one line may take (default 1.0)"
    )
    parser.add_argument("--top", type=int, default=10, help="slowest lines to print")
    parser.add_argument("--only", metavar="ID", help="only this signature's lines")
    args = parser.parse_args(argv)
    signatures = load_signatures()
    matrix = load_matrix()
    timings: list[tuple[float, str, str, int]] = []
    size = args.kb * 1000
    for sig_id, variant, line in (*long_lines(signatures, size), *hard_texts(size)):
        if args.only and sig_id != args.only:
            continue
        timings.append((time_line(line, signatures, matrix), sig_id, variant, len(line)))
    timings.sort(reverse=True)
    total = sum(t for t, *_ in timings)
    print(f"{len(timings)} lines of about {args.kb} KB, {total:.1f} s in all")
    for seconds, sig_id, variant, length in timings[: args.top]:
        rate = length / 1e6 / seconds if seconds else float("inf")
        print(f"  {seconds:7.3f} s  {rate:8.2f} MB/s  {sig_id} ({variant})")
    slow = [t for t in timings if t[0] > args.limit]
    if slow:
        print(f"{len(slow)} line(s) over {args.limit} s")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
