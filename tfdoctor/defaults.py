"""Defaults shared by the command line and the code behind it (imports nothing heavy)."""

from __future__ import annotations

#: Seconds the TensorFlow child may take by default; a cold import takes about 3-5 s.
DEFAULT_TIMEOUT = 60.0

#: Seconds one smoke-test kernel may take before the child is killed and the kernel named.
DEFAULT_KERNEL_TIMEOUT = 60.0
