"""``posenc run``: run a command script of the exercise.

``posenc run [--solution my_solution.py] [lesson.txt | -]`` prints each query's
line as it is computed, the first bad line's message (``line N: ...``) to standard
error, never a traceback; the solution's functions run in a guard's child.
"""

import errno
import importlib.util
import os
import signal
import sys
from contextlib import suppress

from ..validation import describe
from .commands import MAX_SCRIPT_CHARS, CommandError, interpret
from .guard import TIME_LIMIT, Guard
from .reports import describe_error, serve_calls, why

__all__ = ["add_run_parser", "run_main"]

_NAMES = ("lookup", "pos_encoding")


class _Refused(Exception):
    """Ends the run with a message for standard error and exit status 2."""


class _Signalled(BaseException):  # noqa: N818 - an event, like KeyboardInterrupt
    """SIGTERM or SIGHUP: unwind (the guard's child ends), then exit 128 + N."""


def add_run_parser(commands):
    """Add the ``run`` subcommand to an argparse subparsers object."""
    run = commands.add_parser(
        "run",
        help="run a command script (TABLE, TOKENS, LOOKUP, POSENC, ADD, SIM)",
        description="Run a command script and print one line per query.",
    )
    run.add_argument("file", nargs="?", default="-", help="the script; '-': stdin")
    solution = "take lookup and/or pos_encoding from this Python file"
    run.add_argument("--solution", metavar="FILE.py", help=solution)
    limit = f"time each call of your functions may take (default {TIME_LIMIT:g})"
    run.add_argument(
        "--time-limit", metavar="SECONDS", type=float, default=TIME_LIMIT, help=limit
    )


def _read_script(name):
    """The script's text; ``_Refused`` if it cannot be read or is too large."""
    shown = "standard input" if name == "-" else name
    try:
        if name != "-":
            with open(name, "rb") as stream:
                data = stream.read(MAX_SCRIPT_CHARS + 1)
        elif sys.stdin is None:
            raise OSError(errno.EBADF, "it is closed")
        else:
            data = getattr(sys.stdin, "buffer", sys.stdin).read(MAX_SCRIPT_CHARS + 1)
            data = data.encode("utf-8") if isinstance(data, str) else data
        if len(data) > MAX_SCRIPT_CHARS:
            limit = f"{MAX_SCRIPT_CHARS} bytes (8 MiB), the limit for a script"
            raise _Refused(f"posenc: {shown} is larger than {limit}.")
        return data.decode("utf-8-sig")  # a byte-order mark is skipped
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise _Refused(f"posenc: cannot read {shown}: {reason}") from None


def _load(path, functions, note):
    """In the guard's child: run the solution file, keep its functions; report
    which of _NAMES it defines (None for a function), or the error raised."""
    sys.path.append(os.path.dirname(os.path.abspath(path)))  # its own modules
    note({"doing": "load"})
    try:
        spec = importlib.util.spec_from_file_location("posenc_solution", path)
        if spec is None:
            raise ImportError(f"{path} is not a Python file")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except BaseException as error:  # noqa: BLE001 - whatever it is, it is reported
        return {"error": describe_error(error)}
    found = {name: vars(module)[name] for name in _NAMES if name in vars(module)}
    functions.update((name, f) for name, f in found.items() if callable(f))
    return {
        "defines": {n: None if callable(f) else describe(f) for n, f in found.items()}
    }


def _solution(guard, path):
    """The names the solution defines, loaded in the guard's child; or _Refused."""
    report = guard.ask("load")
    print(report.get("printed", ""), end="", flush=True)
    cannot = f"posenc: cannot load {path}: "
    if "error" in report:
        raise _Refused(cannot + why(report["error"]))
    if "timeout" in report:
        limit = f"the time limit ({guard.limit:g} s) while loading (an endless loop"
        raise _Refused(f"{cannot}it ran past {limit} at its top level?)")
    if "ended" in report:
        raise _Refused(f"{cannot}it ended the process loading it ({report['ended']})")
    for name, value in report["defines"].items():
        if value is not None:
            is_not = "but it is not a function"
            raise _Refused(f"posenc: {path} defines {name}, {is_not}: {value}")
    if not report["defines"]:
        neither = "defines neither lookup nor pos_encoding"
        raise _Refused(f"{cannot}ImportError: {path} {neither}")
    return tuple(report["defines"])


def _say(message, status=2):
    """Write ``message`` to standard error if it is there; return ``status``."""
    with suppress(OSError, ValueError):  # closed
        if sys.stderr is not None:  # (print(file=None) would print to stdout)
            print(message, file=sys.stderr, flush=True)
    return status


def _run(args):
    """Run the script of ``args``; return the exit status."""
    if sys.stdout is None:
        raise _Refused("posenc: standard output is closed: nowhere to print to.")
    limit = args.time_limit
    if not 0 < limit <= 3600:
        raise _Refused(f"posenc: --time-limit {limit:g}, must be in (0, 3600].")
    text = _read_script(args.file)
    if not args.solution:
        return _print_lines(interpret(text))
    functions, path = {}, args.solution
    call = serve_calls(functions, read_only=True)

    def serve(request, note):  # in the guard's child
        if request == "load":
            return _load(path, functions, note)
        return call(request, note)

    with Guard(serve, limit) as guard:
        return _print_lines(interpret(text, guard, _solution(guard, path)))


def _print_lines(lines):
    """Print each line as it comes; the exit status (2 at a bad line)."""
    try:
        for line in lines:
            print(line, flush=True)
    except CommandError as exc:
        sys.stdout.flush()
        return _say(str(exc))
    return 0


def run_main(args):
    """Run ``posenc run`` for parsed ``args``; return the exit status.

    Returns
    -------
    int
        0 when every line ran; 2 on any error; 130 on Ctrl-C; 141, quietly, when
        the reader of the output goes away (``| head -1``); 128 + N on signal N
        (SIGHUP, SIGTERM).
    """

    def on_signal(signum, frame):
        raise _Signalled(signum)

    old = {}
    for name in ("SIGTERM", "SIGHUP"):  # Windows has no SIGHUP
        with suppress(ValueError, AttributeError):  # not the main thread; Windows
            signum = getattr(signal, name)
            old[signum] = signal.signal(signum, on_signal)
    try:
        return _run(args)
    except _Refused as refused:
        return _say(str(refused))
    except _Signalled as signalled:
        signum = signalled.args[0]
        return _say(f"posenc: ended by {signal.Signals(signum).name}.", 128 + signum)
    except KeyboardInterrupt:
        return _say("posenc: interrupted.", 130)  # 128 + SIGINT, as shells report
    except (BrokenPipeError, OSError) as exc:  # standard output gone, full, failing
        # at the null device, the flush at exit cannot fail a second time
        with suppress(OSError, AttributeError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        if isinstance(exc, BrokenPipeError):
            return 141  # 128 + SIGPIPE, as `cat` ends under `| head -1`
        return _say(f"posenc: cannot write to standard output: {exc.strerror or exc}")
    finally:
        for signum, handler in old.items():
            signal.signal(signum, handler)
