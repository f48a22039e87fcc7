"""``posenc`` (or ``python -m posenc_lib``): the course's command line.

- ``posenc run FILE``: the exercise's command scripts, for learners
  (:mod:`posenc_lib.exercise.cli`);
- ``posenc grade SUBMISSION... --out DIR``: a class's exercise notebooks, for
  lecturers. The grader is not part of this package: it is one of the course's
  tools (``tools/`` in the course's folder, installed by ``make lab``), which
  offer it as the entry point ``grade`` of the group ``posenc.commands``.
"""

import argparse
import sys
from importlib.metadata import entry_points

from .exercise.cli import add_run_parser, run_main

__all__ = ["main"]

_NO_GRADER = (
    "posenc grade: the grader is one of the course's tools, not part of posenc-lib: "
    "in the course's folder, run `make lab` (or `pip install ./tools`) first."
)


def _parser():
    parser = argparse.ArgumentParser(
        prog="posenc",
        description="Token embeddings and sinusoidal positional encoding.",
        epilog="posenc grade SUBMISSION... --out DIR: grade a class (course tools).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    add_run_parser(commands)
    return parser


def _grade(argv):
    found = entry_points(group="posenc.commands", name="grade")
    if not found:
        print(_NO_GRADER, file=sys.stderr)
        return 2
    return next(iter(found)).load()(argv)


def main(argv=None):
    """Run the command line; return the exit status.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name; default ``sys.argv[1:]``.

    Returns
    -------
    int
        ``posenc run``: 0 when every line ran; 2 at the first bad line,
        unreadable input or output that cannot be written; 130 on Ctrl-C; 141
        on a closed pipe. ``posenc grade``: as the grader says.

    Examples
    --------
    >>> import io, contextlib
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     main(["run", "no-such-file.txt"])
    2
    >>> print(err.getvalue(), end="")
    posenc: cannot read no-such-file.txt: No such file or directory
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["grade"]:
        return _grade(argv[1:])
    return run_main(_parser().parse_args(argv))


if __name__ == "__main__":  # pragma: no cover - exercised through subprocesses
    raise SystemExit(main())
