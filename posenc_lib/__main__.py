"""``python -m posenc_lib run FILE``: the exercise's command line.

The command line lives in :mod:`posenc_lib.exercise.cli`; this file only lets
Python run the package.
"""

from .exercise.cli import main

__all__ = ["main"]

if __name__ == "__main__":  # pragma: no cover - exercised through subprocesses
    raise SystemExit(main())
