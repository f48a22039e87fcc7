"""``posenc grade``: the command line of :mod:`posenc_tools.grading`.

The learner's ``posenc`` command hands ``posenc grade ...`` over to :func:`main`.
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
            "outside it."
        ),
    )
    parser.add_argument(
        "submissions", nargs="*", help="notebooks, learner folders, or folders of them"
    )
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--jobs", type=int, default=None, help="default: the cores")
    parser.add_argument("--shard", default=None, help="I/N: every N-th, from the I-th")
    parser.add_argument(
        "--merge", action="store_true", help="join the grades.csv files given instead"
    )
    defaults = Limits()
    parser.add_argument("--cell-seconds", type=float, default=defaults.cell_seconds)
    parser.add_argument(
        "--notebook-seconds", type=float, default=defaults.notebook_seconds
    )
    parser.add_argument("--memory-mb", type=int, default=defaults.memory_mb)
    parser.add_argument(
        "--worker-margin-seconds", type=float,
        default=defaults.worker_margin_seconds,
        help="how much longer than its limits a learner's grading may take",
    )  # fmt: skip
    parser.add_argument(
        "--unsandboxed", action="store_true",
        help="where no sandbox can be made: run learners' code as you, unisolated",
    )  # fmt: skip
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
    from .grader import grade, merge, parse_shard

    try:
        if args.merge:
            rows = merge(args.submissions, args.out)
        else:
            if args.shard is not None:
                parse_shard(args.shard)
            if args.jobs is not None and args.jobs < 1:
                raise ValueError(f"--jobs == {args.jobs}, must be an integer >= 1.")
            limits = Limits(args.cell_seconds, args.notebook_seconds, args.memory_mb,
                            args.worker_margin_seconds)  # fmt: skip
            progress = _progress if sys.stderr.isatty() else None
            rows = grade(
                args.submissions, args.out, jobs=args.jobs, limits=limits,
                shard=args.shard, progress=progress, unsandboxed=args.unsandboxed,
            )  # fmt: skip
    except (OSError, ValueError, TypeError, ImportError) as exc:
        print(f"posenc grade: {exc}", file=sys.stderr)
        return 2
    learners = len({row["learner"] for row in rows})
    passed = sum(row["passed"] in (True, "True") for row in rows)
    print(f"{learners} learners, {passed} of {len(rows)} tasks passed: {args.out}")
    return 0


def main(argv=None):
    """``posenc grade`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    return grade_main(parser().parse_args(argv))
