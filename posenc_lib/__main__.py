"""``posenc`` (or ``python -m posenc_lib``): the course's command line.

Two commands, one per audience:

- ``posenc run FILE``: the exercise's command scripts, for learners
  (:mod:`posenc_lib.exercise.cli`);
- ``posenc grade SUBMISSION... --out DIR``: a class's chapter-05 notebooks, for
  lecturers (:mod:`posenc_lib.grading.cli`; the grader itself is imported only
  when ``grade`` is called).
"""

import argparse

from .exercise.cli import add_run_parser, run_main
from .grading.cli import add_grade_parser

__all__ = ["main"]


def _parser():
    parser = argparse.ArgumentParser(
        prog="posenc",
        description="Token embeddings and sinusoidal positional encoding.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    add_run_parser(commands)
    add_grade_parser(commands)
    return parser


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
        on a closed pipe. ``posenc grade``: 0 when the CSV was written, 2 on a
        bad argument.

    Examples
    --------
    >>> import io, contextlib
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     main(["run", "no-such-file.txt"])
    2
    >>> print(err.getvalue(), end="")
    posenc: cannot read no-such-file.txt: No such file or directory
    """
    args = _parser().parse_args(argv)
    if args.command == "grade":
        from .grading.cli import grade_main

        return grade_main(args)
    return run_main(args)


if __name__ == "__main__":  # pragma: no cover - exercised through subprocesses
    raise SystemExit(main())
