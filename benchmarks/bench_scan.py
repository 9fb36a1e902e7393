"""Benchmark ``tfdoctor scan`` against Python's own parser, side by side in one run.

Usage: python benchmarks/bench_scan.py [--runs 5] [--tree DIR]

The floor is a bare, single-process ``ast.parse`` loop over every ``.py`` file of the installed
``keras`` package (about 900 files, 300k lines); ``tfdoctor scan`` parses the same tree (its
files in parallel), resolves the TensorFlow and Keras names and judges them. Both run as fresh
processes, interleaved, so start-up counts for both. The target is scan <= 1.2x the bare parse.
"""

from __future__ import annotations

import argparse
import sys
import sysconfig
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_medians, time_interleaved

TARGET_RATIO = 1.2

BARE = """
import ast, os, sys
for root, dirs, files in os.walk(sys.argv[1]):
    dirs.sort()
    for name in sorted(files):
        if name.endswith(".py"):
            with open(os.path.join(root, name), "rb") as f:
                ast.parse(f.read())
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per command (>= 5)")
    parser.add_argument("--tree", help="the tree to parse (default: the installed keras)")
    args = parser.parse_args()
    tree = Path(args.tree or Path(sysconfig.get_paths()["purelib"]) / "keras")
    if not tree.is_dir():
        print(f"bench_scan: {tree} does not exist (install keras, or pass --tree)")
        return 1
    files = [p for p in tree.rglob("*.py") if "__pycache__" not in p.parts]
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(f"tree: {tree.name} ({len(files)} files, {lines} lines)")
    commands = {
        "ast.parse (1 process)": [sys.executable, "-c", BARE, str(tree)],
        "tfdoctor scan": [
            sys.executable,
            "-m",
            "tfdoctor",
            "scan",
            str(tree),
            "--target",
            "2.21",
            "--json",
        ],
    }
    samples = time_interleaved(commands, max(5, args.runs))
    medians = print_medians(samples, "ast.parse (1 process)", "the bare parse")
    ratio = medians["tfdoctor scan"] / medians["ast.parse (1 process)"]
    verdict = "meets" if ratio <= TARGET_RATIO else "misses"
    print(f"scan / bare parse = {ratio:.2f} ({verdict} the {TARGET_RATIO}x target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
