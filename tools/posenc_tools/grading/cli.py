"""``posenc grade``: the command line of :mod:`posenc_tools.grading`.

The learner's ``posenc`` command hands ``posenc grade ...`` over to :func:`main`.
It prints what was left out and why, then one line: how many learners were
graded, how many not, how many files were left out. Exit status: 0 when every
learner's rows say what their notebook did; 2 when it refuses (a bad option, no
sandbox, nobody to grade, a CSV to merge that is not a grades.csv, an ``--out``
that another run is writing, that is a file or inside the submissions), writing
nothing; 3 when the grader itself failed some learners (their rows say so); 130
when interrupted, leaving ``--out`` as it was.
"""

import argparse
import sys

from .limits import Limits

__all__ = ["grade_main", "main", "parser"]


def parser():
    """The argument parser of ``posenc grade``."""
    parser = argparse.ArgumentParser(
        prog="posenc grade",
        description=(
            "Run each learner's copy of 03_exercise.ipynb in a fresh kernel and "
            "check lookup, pos_encoding and sinusoidal_positions. Writes "
            "OUT/grades.csv and OUT/feedback/LEARNER.html. Each kernel runs in "
            "a box of its own (bubblewrap): its own processes, no network, a "
            "read-only system, only its own notebook; the verdicts are decided "
            "outside it. A file that is not a learner's notebook is listed as "
            "left out, with the reason."
        ),
        epilog=(
            "Exit status: 0 when every learner's rows say what their notebook did; "
            "2 when refused (a bad option, no sandbox, nobody to grade, a CSV to "
            "merge that is not a grades.csv, an --out that another run is writing, "
            "that is a file or inside the submissions): nothing written; 3 when the "
            "grader itself failed some learners (their rows say 'not graded: the "
            "grading process failed' or 'the grader failed'); 130 when interrupted."
        ),
    )
    parser.add_argument(
        "submissions", nargs="*", help="notebooks, learner folders, or folders of them"
    )
    parser.add_argument(
        "--out",
        required=True,
        help="output folder, locked while the run writes it; its grades.csv and "
        "feedback/ are replaced when the run is complete, the earlier ones kept in "
        "OUT/replaced/",
    )
    parser.add_argument("--jobs", type=int, default=None, help="default: the cores")
    parser.add_argument("--shard", default=None, help="I/N: every N-th, from the I-th")
    parser.add_argument(
        "--merge", action="store_true", help="join the grades.csv files given instead"
    )
    defaults = Limits()
    parser.add_argument(
        "--cell-seconds",
        type=float,
        default=defaults.cell_seconds,
        help="each cell and each check; rounded up to whole seconds",
    )
    parser.add_argument(
        "--notebook-seconds", type=float, default=defaults.notebook_seconds
    )
    parser.add_argument(
        "--memory-mb",
        type=int,
        default=defaults.memory_mb,
        help="address space of each worker and each kernel; at most what the "
        "system allows (the hard RLIMIT_AS)",
    )
    parser.add_argument(
        "--worker-margin-seconds",
        type=float,
        default=defaults.worker_margin_seconds,
        help="how much longer than its limits a learner's grading may take",
    )
    parser.add_argument(
        "--unsandboxed",
        action="store_true",
        help="where no sandbox can be made: run learners' code as you, unisolated",
    )
    return parser


def _progress(done, total):
    width = 30
    filled = width * done // max(total, 1)
    bar = "#" * filled + "." * (width - filled)
    sys.stderr.write(f"\rgrading [{bar}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def grade_main(args):
    """Run ``posenc grade`` for parsed ``args``; return the exit status."""
    from .grader import grade, merge, parse_shard, tally

    left_out = []
    try:
        if args.merge:
            rows = merge(args.submissions, args.out)
        else:
            if args.shard is not None:
                parse_shard(args.shard)
            if args.jobs is not None and args.jobs < 1:
                raise ValueError(f"--jobs == {args.jobs}, must be an integer >= 1.")
            limits = Limits(
                args.cell_seconds,
                args.notebook_seconds,
                args.memory_mb,
                args.worker_margin_seconds,
            )
            progress = _progress if sys.stderr.isatty() else None
            rows, left_out = grade(
                args.submissions,
                args.out,
                jobs=args.jobs,
                limits=limits,
                shard=args.shard,
                progress=progress,
                unsandboxed=args.unsandboxed,
            )
    except (OSError, ValueError, TypeError, ImportError) as exc:
        print(f"posenc grade: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"posenc grade: interrupted; {args.out} is as it was.", file=sys.stderr)
        return 130
    return _report(tally(rows), rows, left_out, args.out)


def _report(counts, rows, left_out, out):
    """Print what was left out, then one line of counts; return the exit status."""
    for path, why in left_out:
        print(f"left out: {path}: {why}")
    graded, not_graded, failed = counts
    blamed = f" ({failed} failed by the grader: exit status 3)" if failed else ""
    passed = sum(row["passed"] in (True, "True") for row in rows)
    print(
        f"{_count(graded + not_graded, 'learner')}: {graded} graded, "
        f"{not_graded} not graded{blamed}; {_count(len(left_out), 'file')} left "
        f"out; {passed} of {len(rows)} tasks passed: {out}"
    )
    return 3 if failed else 0


def _count(number, noun):
    return f"{number} {noun}{'s' * (number != 1)}"


def main(argv=None):
    """``posenc grade`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return grade_main(parser().parse_args(argv))
