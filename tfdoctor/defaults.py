"""Defaults shared by the command line and the code behind it (imports nothing heavy)."""

from __future__ import annotations

import enum

#: Seconds the TensorFlow child may take by default; a cold import takes about 3-5 s.
DEFAULT_TIMEOUT = 60.0

#: Seconds allowed for the import when `import tensorflow` is already known to resolve to
#: another module (a `tensorflow/` folder or `tensorflow.py` earlier on the path): that cause
#: is reported whatever happens, and a module of one's own imports in well under a second, so
#: only a quick outcome (its own error, or success) is worth waiting for.
SHADOW_IMPORT_TIMEOUT = 5.0

#: Seconds one smoke-test kernel may take before the child is killed and the kernel named.
DEFAULT_KERNEL_TIMEOUT = 60.0


class ExitCode(enum.IntEnum):
    """Exit codes of every command; documented in the README."""

    OK = 0
    WARNINGS = 1  # only with --strict
    ERRORS = 2
    DOCTOR_FAILED = 3  # bad arguments, unreadable facts file
    INTERRUPTED = 130  # Ctrl-C (SIGINT): 128 + 2, the shell's convention
