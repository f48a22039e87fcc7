"""``posenc`` (or ``python -m posenc_lib``): the course's command line.

``posenc run FILE`` runs the exercise's command scripts (for learners);
``posenc grade SUBMISSION... --out DIR`` grades a class (for lecturers) with the
course's tools, the entry point ``grade`` of the group ``posenc.commands``.
"""

import os
import sys

# ``python -m posenc_lib`` puts the working folder first on sys.path: a learner's
# own numpy.py or select.py there must not replace the real ones. posenc_lib's
# __init__ imports nothing yet, so dropping it here, first, is in time.
if __name__ == "__main__" and sys.path[:1] == [os.getcwd()]:
    del sys.path[0]

import argparse  # noqa: E402
from importlib.metadata import entry_points  # noqa: E402

from .exercise.cli import add_run_parser, run_main  # noqa: E402

__all__ = ["main"]


def main(argv=None):
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); return the
    exit status: ``posenc run``'s (0 when every line ran), or the grader's.

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
        found = entry_points(group="posenc.commands", name="grade")
        if not found:
            print(
                "posenc grade: the grader is one of the course's tools, not part of "
                "posenc-lib: in the course's folder, run `make lab` (or `pip install "
                "./tools`) first.",
                file=sys.stderr,
            )
            return 2
        return next(iter(found)).load()(argv[1:])
    parser = argparse.ArgumentParser(
        prog="posenc",
        description="Token embeddings and sinusoidal positional encoding.",
        epilog="posenc grade SUBMISSION... --out DIR: grade a class (course tools).",
    )
    add_run_parser(parser.add_subparsers(dest="command", required=True))
    return run_main(parser.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover - exercised through subprocesses
    raise SystemExit(main())
