"""Command line: run a command script of the exercise.

Usage::

    python -m posenc_lib run lesson.txt        # or: posenc run lesson.txt
    posenc grade submissions/ --out grades/    # a class's chapter-05 notebooks
    python -m posenc_lib run - < lesson.txt    # '-' or no file: standard input
    posenc run --solution my_solution.py lesson.txt

Each query's line goes to standard output as soon as it is computed. At the first
bad line the error message (``line N: ...``) goes to standard error, without a
traceback, and the exit status is 2; what was printed before stays printed.

``--solution FILE.py`` takes ``lookup`` and/or ``pos_encoding`` from a Python
file of yours (the library's own is used for a name the file does not define).
"""

import argparse
import importlib.util
import sys
from pathlib import Path

from .commands import CommandError, iter_commands
from .grading_cli import add_grade_parser, grade_main

__all__ = ["main"]

_EXIT_ERROR = 2


def _parser():
    parser = argparse.ArgumentParser(
        prog="posenc",
        description="Token embeddings and sinusoidal positional encoding.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser(
        "run",
        help="run a command script (TABLE, TOKENS, LOOKUP, POSENC, ADD, SIM)",
        description="Run a command script and print one line per query.",
    )
    run.add_argument(
        "file", nargs="?", default="-", help="the script; '-' or none: stdin"
    )
    run.add_argument(
        "--solution",
        metavar="FILE.py",
        help="take lookup and/or pos_encoding from this Python file",
    )
    add_grade_parser(commands)
    return parser


def _read_script(name):
    if name == "-":
        return sys.stdin.read()
    return Path(name).read_text(encoding="utf-8")


def _load_solution(path):
    """``{"lookup": ..., "pos_encoding": ...}`` with whichever the file defines."""
    spec = importlib.util.spec_from_file_location("posenc_solution", path)
    if spec is None:
        raise ImportError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = {name: getattr(module, name, None) for name in ("lookup", "pos_encoding")}
    if not any(found.values()):
        raise ImportError(f"{path} defines neither lookup nor pos_encoding")
    return found


def _fail(message):
    """Print ``message`` to standard error; return the error exit status."""
    print(message, file=sys.stderr)
    return _EXIT_ERROR


def main(argv=None):
    """Run the command line; return the exit status (0 ok, 2 on an error).

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name; default ``sys.argv[1:]``.

    Returns
    -------
    int
        0 when every line ran, 2 at the first bad line or unreadable input.

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
        return grade_main(args)
    try:
        text = _read_script(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        return _fail(f"posenc: cannot read {args.file}: {reason}")
    functions = {}
    if args.solution:
        try:
            functions = _load_solution(args.solution)
        except Exception as exc:
            return _fail(
                f"posenc: cannot load {args.solution}: {type(exc).__name__}: {exc}"
            )
    try:
        for line in iter_commands(text, **functions):
            print(line, flush=True)
    except CommandError as exc:
        sys.stdout.flush()
        return _fail(str(exc))
    return 0
