"""``posenc run``: run a command script of the exercise.

Usage::

    python -m posenc_lib run lesson.txt        # or: posenc run lesson.txt
    python -m posenc_lib run - < lesson.txt    # '-' or no file: standard input
    posenc run --solution my_solution.py lesson.txt

Each query's line goes to standard output as soon as it is computed. At the first
bad line the error message (``line N: ...``) goes to standard error, without a
traceback, and the exit status is 2; what was printed before stays printed.

``--solution FILE.py`` takes ``lookup`` and/or ``pos_encoding`` from a Python
file of yours (the library's own is used for a name the file does not define).
Each call of yours has a time limit (``--time-limit``, default 5 s); whatever it
raises, ``sys.exit()`` and ``KeyboardInterrupt`` included, is a ``line N:``
error. Your file runs in a child process that this command watches
(:mod:`._child_run`): if it ends early (``os._exit()``, a crash) or closes
standard output, that is an error (exit 2), never a short success; if it shows
no sign of life for the time limit plus 4 s (it turned off or ignored the
alarm), it is killed, with whatever it started, and that is an error too. A
Ctrl-C always ends the run with 130, whatever your code does with it.

Exit status: 0 when every line ran; 2 for a bad line, an unreadable or too
large script (over 8 MiB), a solution that cannot be loaded, ends the process
early or runs past its time limit, or output that cannot be written (standard
output closed or full); 130 when interrupted with
Ctrl-C; 141 when the reader of the output goes away (``| head -1``), quietly.
No input and no state of the streams gives a Python traceback.
"""

import errno
import importlib.util
import os
import sys

from . import _child_run, guard
from .commands import MAX_SCRIPT_CHARS, CommandError, iter_commands
from .guard import TIME_LIMIT, guarded_call, why

__all__ = ["add_run_parser", "run_main"]

_EXIT_ERROR = 2
_EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C
_EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as `cat` ends under `| head -1`


class _Refused(Exception):
    """Ends the run with a message for standard error and exit status 2."""


def add_run_parser(commands):
    """Add the ``run`` subcommand to an argparse subparsers object."""
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
    run.add_argument(
        "--time-limit",
        metavar="SECONDS",
        type=float,
        default=TIME_LIMIT,
        help=f"time each call of your functions may take (default {TIME_LIMIT:g})",
    )


def _read_bytes(name):
    """At most ``MAX_SCRIPT_CHARS + 1`` bytes of the file ``name`` or of stdin."""
    limit = MAX_SCRIPT_CHARS + 1
    if name != "-":
        with open(name, "rb") as stream:
            return stream.read(limit)
    if sys.stdin is None:
        raise OSError(errno.EBADF, "it is closed")
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    data = stream.read(limit)
    return data.encode("utf-8") if isinstance(data, str) else data


def _read_script(name):
    """The script's text; ``_Refused`` if it cannot be read or is too large."""
    shown = "standard input" if name == "-" else name
    try:
        data = _read_bytes(name)
        if len(data) > MAX_SCRIPT_CHARS:
            raise _Refused(
                f"posenc: {shown} is larger than {MAX_SCRIPT_CHARS} bytes (8 MiB), "
                "the limit for a script."
            )
        return data.decode("utf-8-sig")  # a byte-order mark is skipped
    except OSError as exc:
        raise _Refused(f"posenc: cannot read {shown}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise _Refused(f"posenc: cannot read {shown}: {exc}") from None


def _load_solution(path, time_limit):
    """``{"lookup": ..., "pos_encoding": ...}`` with whichever the file defines."""
    spec = importlib.util.spec_from_file_location("posenc_solution", path)
    if spec is None:
        raise _Refused(
            f"posenc: cannot load {path}: ImportError: {path} is not a Python file"
        )
    module = importlib.util.module_from_spec(spec)
    error = guarded_call(spec.loader.exec_module, (module,), time_limit).error
    if error is not None:
        raise _Refused(f"posenc: cannot load {path}: {why(error)}")
    found = {name: getattr(module, name, None) for name in ("lookup", "pos_encoding")}
    if not any(callable(function) for function in found.values()):
        raise _Refused(
            f"posenc: cannot load {path}: ImportError: {path} defines neither "
            "lookup nor pos_encoding"
        )
    return {name: f for name, f in found.items() if callable(f)}


def _say(message):
    """Write ``message`` to standard error if it is there; never raise."""
    try:
        if sys.stderr is not None:
            print(message, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _fail(message):
    """Print ``message`` to standard error; return the error exit status."""
    _say(message)
    return _EXIT_ERROR


def _silence_stdout():
    """Point standard output at the null device, so that the flush at exit
    cannot fail a second time (and print "Exception ignored")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def say_gave_up(limit):
    """Tell that the learner's code swallowed every timeout (then it is ended)."""
    _say(
        f"posenc: your function ran past the time limit ({limit:g} s) and did "
        "not stop when told to (does it catch every exception?)."
    )


def _give_up(limit):
    """The last resort for code that swallows every timeout: exit at once."""
    say_gave_up(limit)
    os._exit(_EXIT_ERROR)


def _run(args, beat):
    """Run the script of ``args``; return the exit status.

    With ``--solution`` the parent hands the script to a child process
    (:mod:`._child_run`) and waits for its verdict; the child comes back here
    with ``beat``, its heartbeat, and runs the learner's functions.
    """
    if sys.stdout is None:
        raise _Refused("posenc: standard output is closed: nowhere to print to.")
    if not 0 < args.time_limit <= 3600:
        raise _Refused(
            f"posenc: --time-limit {args.time_limit:g}, must be in (0, 3600]."
        )
    text = _read_script(args.file)
    if args.solution and beat is None:  # the parent: the child runs the solution
        sys.stdout.flush()
        status, message = _child_run.run_in_child(text, args.solution, args.time_limit)
        return status if message is None else _fail(message)
    out = sys.stdout  # held before the solution runs: it may replace sys.stdout
    functions = _load_solution(args.solution, args.time_limit) if args.solution else {}
    lines = iter_commands(text, **functions, time_limit=args.time_limit)
    return _print_lines(lines, out, beat)


def _print_lines(lines, out, beat=None):
    """Print each line to ``out`` as it comes; the exit status (2 at a bad line).

    ``out`` is standard output as it was before the solution ran, so a solution
    that sets ``sys.stdout`` to something else loses no line; one that closes
    it is an error.
    """
    try:
        for line in lines:
            print(line, file=out, flush=True)
            if beat is not None:
                beat()
    except CommandError as exc:
        if not getattr(out, "closed", False):
            out.flush()
        return _fail(str(exc))
    except ValueError:  # print to a closed file
        if not getattr(out, "closed", False):
            raise
        return _fail(
            "posenc: standard output was closed (by your solution?) before the "
            "script was done: its output is incomplete."
        )
    return 0


def run_main(args, *, beat=None, give_up=_give_up):
    """Run ``posenc run`` for parsed ``args``; return the exit status.

    ``beat`` and ``give_up`` are for the child process of ``--solution``.

    Returns
    -------
    int
        0 when every line ran; 2 at the first bad line, unreadable input,
        output that cannot be written or lost, or a solution that ended the
        process early; 130 on Ctrl-C; 141 on a closed pipe.
    """
    guard.last_resort = give_up
    try:
        return _run(args, beat)
    except _Refused as refused:
        return _fail(str(refused))
    except KeyboardInterrupt:
        _say("posenc: interrupted.")
        return _EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return _EXIT_BROKEN_PIPE
    except OSError as exc:  # standard output full or failing
        _silence_stdout()
        return _fail(f"posenc: cannot write to standard output: {exc.strerror or exc}")
