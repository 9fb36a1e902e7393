"""The command line: one module per command, each a thin slice over one service.

- :mod:`~tfdoctor.cli.fast` runs first (the ``tfdoctor`` executable): ``--version``, ``run``,
  kept help texts, the probes' early start; everything else goes to :mod:`~tfdoctor.cli.app`.
- :mod:`~tfdoctor.cli.app` is the typer application: the commands' registration, and
  :func:`~tfdoctor.cli.app.main`, which maps every error to its exit code.
- :mod:`~tfdoctor.cli.options` declares the options commands share; :mod:`~tfdoctor.cli.output`
  renders, prints and fails.
- ``check``, ``smoke``, ``matrix``, ``env``, ``pin``, ``run``, ``explain``, ``scan``,
  ``cluster``, ``diff``, ``fleet``: one module each, which parses options, calls one
  service, renders and exits. A new command is a new module and one line in
  :data:`tfdoctor.cli.app.COMMANDS`.

This package's own module imports nothing, so that the fast path stays fast. Each command
imports its service and renderer when it runs: ``tfdoctor --version``, ``pin`` and ``env`` do
not pay for the checks, and no command pays for another's modules.
"""
