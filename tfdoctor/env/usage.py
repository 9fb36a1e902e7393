"""How each format ``tfdoctor env`` prints is put to use: the one home of those lines, read by
the output's own header (:mod:`tfdoctor.render.envfile`) and by the fixes that tell a user to
load the settings (:func:`tfdoctor.causes.common.load_env`). Imports nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

#: The command that loads ``tfdoctor env``'s settings into the running shell, per shell format.
LOAD: Final[Mapping[str, str]] = {
    # POSIX sh's command substitution, read by bash, zsh and dash alike.
    "sh": 'eval "$(tfdoctor env)"',
    "fish": "tfdoctor env --shell fish | source",
    # Invoke-Expression runs one string: Out-String joins the lines the pipe carries.
    "powershell": "tfdoctor env --shell powershell | Out-String | Invoke-Expression",
}

#: How each format's output is used, as its header line says it.
USAGE: Final[Mapping[str, str]] = {
    "sh": f"{LOAD['sh']} in bash, zsh or dash",
    "fish": LOAD["fish"],
    "powershell": LOAD["powershell"],
    "dockerfile": "paste into a Dockerfile, after the FROM line",
    "dotenv": "docker run --env-file FILE, docker compose env_file, or python-dotenv",
}
