"""``make notebooks``: see :mod:`posenc_tools.run_notebooks` (kept here for habit)."""

from posenc_tools.run_notebooks import main

if __name__ == "__main__":  # its workers import this file again (spawn)
    raise SystemExit(main())
