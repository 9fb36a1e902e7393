"""Message sizes and bandwidths in words, as the cluster's findings and the HTML report show
them: one formatter, so the chart and the finding it illustrates read the same numbers."""

from __future__ import annotations


def size_text(n: float) -> str:
    """A message size in binary units (4 B, 64 KiB, 16 MiB, 1 GiB)."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n:g} B"


def bandwidth_text(bps: float) -> str:
    """Bytes per second in decimal units, as nccl-tests prints bandwidth (MB/s, kB/s)."""
    return f"{bps / 1e6:.1f} MB/s" if bps >= 1e5 else f"{bps / 1e3:.2f} kB/s"
