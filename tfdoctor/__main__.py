"""``python -m tfdoctor``."""

from __future__ import annotations

import sys

from tfdoctor.cli.fast import main

if __name__ == "__main__":
    sys.exit(main())
