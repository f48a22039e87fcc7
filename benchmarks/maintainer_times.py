"""Time the maintainer's commands and write the times into docs/maintaining.md.

    .venv/bin/python benchmarks/maintainer_times.py check test
    .venv/bin/python benchmarks/maintainer_times.py notebook  # NB=... as below

Each name is a target of the Makefile, run as ``make NAME`` from the repository
root (``notebook`` with ``NB=notebooks/02_sinusoidal_encoding.ipynb``, or the
``--notebook`` given) while this script measures its wall-clock time and the CPU
time of everything it started. Then it rewrites that command's row of the table
between ``<!-- maintainer-times -->`` and ``<!-- /maintainer-times -->`` in
docs/maintaining.md, with the date, the machine and the load average, and keeps
the other rows. Run it on a quiet machine: another process's load slows every
command (the table says how loaded the machine was). A command that fails is
reported and writes nothing.
"""

import argparse
import datetime
import os
import platform
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "maintaining.md"
MARKS = ("<!-- maintainer-times -->\n", "<!-- /maintainer-times -->")
BLOCK = re.compile(f"({MARKS[0]})(.*?)({MARKS[1]})", re.S)
HEADER = [
    "| command | wall clock | CPU time | measured | machine | load (1 min) |",
    "|---|---:|---:|---|---|---|",
]


def minutes(seconds):
    """``308.2`` -> ``'5 min 08 s'``."""
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60:02d} s" if whole >= 60 else f"{whole} s"


def machine():
    """The CPU model and the cores this process may use, and the Python."""
    try:
        with open("/proc/cpuinfo") as info:
            lines = [line for line in info if line.startswith("model name")]
        names = [line.split(":", 1)[1].strip() for line in lines]
    except OSError:
        names = []
    cpu = names[0] if names else platform.processor() or platform.machine()
    cores = len(os.sched_getaffinity(0))
    return f"{cpu}, {cores} cores, Python {platform.python_version()}"


def measure(command):
    """Run ``command``; return (wall seconds, CPU seconds of its processes)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def write_rows(rows, doc=DOC):
    """Replace the rows of ``rows``' commands in the marked block; keep the rest."""
    text = doc.read_text(encoding="utf-8")
    found = BLOCK.search(text)
    if found is None:
        raise SystemExit(f"{doc}: no <!-- maintainer-times --> block to write into")
    kept = [
        line
        for line in found.group(2).splitlines()
        if line.startswith("| `") and line.split("`")[1] not in rows
    ]
    table = HEADER + sorted(kept + list(rows.values()))
    doc.write_text(
        text[: found.start(2)] + "\n".join(table) + "\n" + text[found.end(2) :],
        encoding="utf-8",
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="+", choices=["check", "test", "notebook"])
    parser.add_argument("--notebook", default="notebooks/02_sinusoidal_encoding.ipynb")
    args = parser.parse_args(argv)
    rows = {}
    for target in args.targets:
        command = ["make", target]
        command += [f"NB={args.notebook}"] if target == "notebook" else []
        shown = " ".join(command)
        load = os.getloadavg()[0]
        print(f"timing `{shown}` (load {load:.2f})", file=sys.stderr, flush=True)
        wall, cpu = measure(command)
        today = datetime.date.today().isoformat()
        rows[shown] = (
            f"| `{shown}` | {minutes(wall)} | {minutes(cpu)} | {today} | {machine()} "
            f"| {load:.2f} before, {os.getloadavg()[0]:.2f} after |"
        )
        print(rows[shown], file=sys.stderr)
    write_rows(rows)
    print(f"wrote {len(rows)} row(s) into {DOC}", file=sys.stderr)


if __name__ == "__main__":
    main()
