"""The probe children a command can start before the rest of the program has loaded.

``tfdoctor check`` and ``tfdoctor pin`` spend about 0.3 s importing the CLI, the checks and
the matrix reader; the NVML and cuInit children (an interpreter start each, about 0.1 s)
need none of it. :func:`start_machine_probes` starts them at once, and the probes take them
over through :func:`tfdoctor.probes._run.run_command` when they get there: same argv and
environment, same answer, most of its time already spent.
"""

from __future__ import annotations

from tfdoctor.probes._run import start_early
from tfdoctor.probes.cuinit import cuinit_argv
from tfdoctor.probes.nvidia import nvml_argv


def start_machine_probes(python: str) -> None:
    """Start the NVML child (this interpreter) and the cuInit child (``python``'s)."""
    start_early(nvml_argv())
    start_early(cuinit_argv(python))
