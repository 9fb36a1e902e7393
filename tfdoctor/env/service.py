"""``tfdoctor env``'s service: static facts, probed or loaded, turned into the settings."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Optional

from tfdoctor.doctor import collect_facts
from tfdoctor.env.settings import LOG_LEVELS, EnvSetting, environment_settings
from tfdoctor.inputs import DoctorError, load_facts, require_python
from tfdoctor.probes._run import Runner, run_command


def environment_for(
    python: str = sys.executable,
    facts_file: Optional[str] = None,
    *,
    async_allocator: bool = False,
    log_level: Optional[int] = None,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
) -> tuple[EnvSetting, ...]:
    """The variables ``tfdoctor env`` prints, from static facts (TensorFlow is not imported)."""
    if log_level is not None and log_level not in LOG_LEVELS:
        raise DoctorError(f"--log-level must be 0, 1, 2 or 3, got {log_level}")
    if facts_file is not None:
        facts = load_facts(facts_file)
    else:
        require_python(python, env, runner)
        facts = collect_facts(python, static=True, env=env, runner=runner)
    return environment_settings(facts, async_allocator=async_allocator, log_level=log_level)
