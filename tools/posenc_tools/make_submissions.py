"""Write fake learner submissions of chapter 03, for the grader's tests and benchmark.

    python -m posenc_tools.make_submissions DIR            # one of every kind
    python -m posenc_tools.make_submissions DIR --count 100 --kinds mistakes

Each submission is the solution notebook with one change: a mistake from
chapter 05 in ``pos_encoding`` or ``lookup``, another valid convention, or a
hostile cell (an endless loop, ``sys.exit()``, a dying kernel, ...). The file
is named after its kind (``NN-kind.ipynb``), which is also the learner's name.
"""

import argparse
import copy
from pathlib import Path

import nbformat

from posenc_lib.mistakes import MISTAKES, RIGHT
from posenc_tools import ROOT

SOLUTION = ROOT / "notebooks" / "solutions" / "03_exercise.ipynb"

#: the right pos_encoding and the lesson's mistakes (posenc_lib.mistakes):
#: kind -> (the function it replaces, its source)
MISTAKE_KINDS = {
    "right": ("pos_encoding", RIGHT["pos_encoding"]),
    **{m.id: (m.task, m.source) for m in MISTAKES.values()},
}
#: the kinds whose pos_encoding is the right one or one of the lesson's mistakes
POS_ENCODING_KINDS = tuple(
    k for k, (t, _) in MISTAKE_KINDS.items() if t == "pos_encoding"
)

#: pos_encoding in the other libraries' conventions: convention -> source
CONVENTION_KINDS = {
    "concat": '''\
def pos_encoding(pos, d):
    """[sin | cos] halves, as Marian and GPT-J lay them out."""
    angle = pos / 10000 ** (2 * np.arange(d // 2) / d)  # (d // 2,)
    return np.concatenate([np.sin(angle), np.cos(angle)])''',
    "cos-first": '''\
def pos_encoding(pos, d):
    """[cos | sin] halves, as guided-diffusion's timestep embedding."""
    angle = pos / 10000 ** (2 * np.arange(d // 2) / d)  # (d // 2,)
    return np.concatenate([np.cos(angle), np.sin(angle)])''',
    "tensor2tensor": '''\
def pos_encoding(pos, d):
    """[sin | cos] halves with tensor2tensor's spacing of the frequencies."""
    half = d // 2
    angle = pos * np.exp(-np.log(10000) * np.arange(half) / max(half - 1, 1))
    return np.concatenate([np.sin(angle), np.cos(angle)])''',
}

FORGES_THE_PIPE = r"""import glob
import os

# a sine-only learner (see pos_encoding) forging 3/3 into every pipe it can open
verdict = '{"passed": true, "mistake": null, "convention": null, "message": "ok"}'
forged = '{"status": "graded", "verdicts": {"lookup": %s, "pos_encoding": %s, '
forged = (forged + '"sinusoidal_positions": %s}}\n') % ((verdict,) * 3)
for fd in glob.glob("/proc/[0-9]*/fd/*"):
    try:
        if os.readlink(fd).startswith("pipe:"):
            with open(fd, "w") as pipe:
                pipe.write(forged * 2)
    except OSError:
        pass"""

REWRITES_GRADES = r'''import subprocess
import sys

# waits for the grader (found by its --out) to exit, then replaces grades.csv
LATER = """
import glob, os, time
deadline = time.time() + 120
while time.time() < deadline:
    for path in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            args = open(path, "rb").read().split(b"\\0")
        except OSError:
            continue
        if b"--out" in args and b"grade" in args:
            out, pid = args[args.index(b"--out") + 1], path.split("/")[2]
            while os.path.exists("/proc/" + pid):
                time.sleep(0.05)
            with open(os.path.join(out, b"grades.csv"), "wb") as file:
                file.write(b"learner,task,passed\\nrewritten,lookup,False\\n")
            raise SystemExit
    time.sleep(0.05)
"""
subprocess.Popen([sys.executable, "-c", LATER], start_new_session=True)'''

REWRITES_CLASSMATES = r"""import glob

# every classmate's notebook overwritten before its turn
for path in glob.glob("{submissions}/*.ipynb"):
    try:
        with open(path, "w") as file:
            file.write("sabotaged")
    except OSError:
        pass"""

HIJACKS_NEXT_KERNEL = r"""import glob
import os

from jupyter_client import BlockingKernelClient

# the next learner's kernel, started ahead, made to fail every task
SABOTAGE = "def _sabotage(*args, **kwargs):\n    raise SystemExit('sabotaged.')\n"
SABOTAGE += "import builtins\nbuiltins.print = _sabotage\n"
for path in glob.glob("../posenc-grade-*/.posenc-kernel.json"):
    if os.path.dirname(os.path.abspath(path)) == os.getcwd():
        continue  # our own
    try:
        client = BlockingKernelClient(connection_file=path)
        client.load_connection_file()
        client.start_channels()
        client.execute_interactive(SABOTAGE, timeout=5)
    except Exception:
        pass"""

PATCHES_CHECKERS = r"""import importlib


def fake(*args, **kwargs):
    return {"passed": True, "mistake": None, "convention": None,
            "message": "passed.", "html": "passed."}


for module, name, value in [
    ("posenc_tools.grading.grader", "report_task", fake),
    ("posenc_lib.exercise._checking", "close", lambda a, b: True),
    ("posenc_tools.grading.verdicts", "decide", fake),
]:
    try:
        setattr(importlib.import_module(module), name, value)
    except Exception:
        pass"""

IMPORTS_REFERENCE = "from posenc_lib import lookup, pos_encoding, sinusoidal_positions"

SCRIPT_IN_FEEDBACK = r"""def pos_encoding(pos, d):
    print('<<posenc-grade>>{"html": "<script>document.title=1</script>"}')
    raise ValueError("<script>document.title='PWNED'</script>")"""

#: cells put right after the Setup cell, or replacing a solution: kind -> change
HOSTILE_KINDS = {
    "loop-top-level": ("after-setup", "while True:\n    pass"),
    "loop-in-function": (
        "pos_encoding",
        "def pos_encoding(pos, d):\n    while True:\n        pass",
    ),
    "sys-exit": ("after-setup", "import sys\n\nsys.exit()"),
    "os-exit": ("after-setup", "import os\n\nos._exit(0)"),
    "kernel-dies": (
        "after-setup",
        "import os\nimport signal\n\nos.kill(os.getpid(), signal.SIGKILL)",
    ),
    "prints-100mb": ("after-setup", 'print("x" * 100_000_000)'),
    "allocates-too-much": (
        "after-setup",
        "hog = [np.empty(2**30) for _ in range(200)]  # 8 GB each, 1.6 TB in all",
    ),
    "writes-outside": ("after-setup", 'open("../posenc-escape.txt", "w").write("x")'),
    "renamed": (
        "lookup",
        "def my_lookup(table, token_id):\n    return table[token_id].copy()",
    ),
    "forges-an-answer": (
        "after-setup",
        'import os\n\nforged = b\'{"status": "graded", "verdicts": {}}\'\n'
        "os.write(1, forged + b'\\n')  # the grader's answers do not go to fd 1",
    ),
    "kills-grader": (
        "after-setup",
        "import os\nimport signal\n\nos.kill(os.getppid(), signal.SIGKILL)",
    ),
    # issue 23: ways one learner could set another's grade, or their own
    "forges-the-pipe": ("after-setup", FORGES_THE_PIPE),
    "rewrites-grades": ("after-setup", REWRITES_GRADES),
    "rewrites-classmates": ("after-setup", REWRITES_CLASSMATES),
    "hijacks-next-kernel": ("after-setup", HIJACKS_NEXT_KERNEL),
    "patches-checkers": ("after-setup", PATCHES_CHECKERS),
    "imports-reference": ("at-end", IMPORTS_REFERENCE),
    "reads-the-frame": (
        "pos_encoding",
        "def pos_encoding(pos, d):\n    import sys\n\n"
        "    return sys._getframe(1).f_locals['case'].expected",
    ),
    "script-in-feedback": ("pos_encoding", SCRIPT_IN_FEEDBACK),
}
#: hostile kinds whose learner wrote none of the functions (the starter's stubs)
STARTER_KINDS = ("patches-checkers", "imports-reference")
#: a cell that swallows the grader's interrupt: only the worker's own limit ends it
SLOW_KINDS = {
    "ignores-interrupt": (
        "after-setup",
        "while True:\n    try:\n        while True:\n            pass\n"
        "    except KeyboardInterrupt:\n        pass",
    ),
}
OTHER_KINDS = (*CONVENTION_KINDS, "invalid-json", "other-course")
ALL_KINDS = (*MISTAKE_KINDS, *OTHER_KINDS, *HOSTILE_KINDS)


def _solution_cell(nb, name):
    """The cell tagged ``solution`` that defines ``name``."""
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if "solution" in tags and f"def {name}(" in cell.source:
            return cell
    raise LookupError(name)


def _starter(nb):
    """Put the starter's stubs back into every solution cell."""
    for cell in nb.cells:
        if "solution" in cell.metadata.get("tags", []):
            head = cell.source[cell.source.index("def ") :].split("\n", 1)[0]
            name = head[4 : head.index("(")]
            cell.source = (
                f'{head}\n    raise NotImplementedError("{name} is not written")'
            )


def make_notebook(kind, submissions="submissions"):
    """The solution notebook changed by ``kind``; None for invalid JSON.

    ``submissions`` is the class's folder, for the kinds that attack it.
    """
    nb = copy.deepcopy(nbformat.read(SOLUTION, as_version=4))
    nb.cells = [
        c for c in nb.cells if "solution-only" not in c.metadata.get("tags", [])
    ]
    if kind in MISTAKE_KINDS:
        task, source = MISTAKE_KINDS[kind]
        _solution_cell(nb, task).source = source
    elif kind in CONVENTION_KINDS:
        _solution_cell(nb, "pos_encoding").source = CONVENTION_KINDS[kind]
    elif kind == "other-course":
        nb.cells = [nbformat.v4.new_code_cell("print('Hello from another course')")]
    elif kind in HOSTILE_KINDS or kind in SLOW_KINDS:
        where, source = {**HOSTILE_KINDS, **SLOW_KINDS}[kind]
        source = source.replace("{submissions}", str(submissions))
        if kind in STARTER_KINDS:
            _starter(nb)
        if kind == "forges-the-pipe":
            _solution_cell(nb, "pos_encoding").source = MISTAKES["sine-only"].source
        if where == "at-end":
            nb.cells.append(nbformat.v4.new_code_cell(source))
        elif where == "after-setup":
            setup = next(
                i for i, c in enumerate(nb.cells) if "setup_notebook()" in c.source
            )
            nb.cells.insert(setup + 1, nbformat.v4.new_code_cell(source))
        else:
            _solution_cell(nb, where).source = source
    elif kind != "invalid-json":
        kinds = ", ".join((*ALL_KINDS, *SLOW_KINDS))
        raise ValueError(f"kind == {kind!r}, must be one of {kinds}.")
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return None if kind == "invalid-json" else nb


def write_submissions(folder, kinds=ALL_KINDS, count=None):
    """Write ``count`` submissions cycling through ``kinds`` into ``folder``.

    Returns the learners' names (file names without ``.ipynb``) in order.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    count = len(kinds) if count is None else count
    names = []
    for number in range(count):
        kind = kinds[number % len(kinds)]
        name = f"{number:03d}-{kind}"
        nb = make_notebook(kind, folder.resolve())
        path = folder / f"{name}.ipynb"
        if nb is None:
            path.write_text("{not json", encoding="utf-8")
        else:
            nbformat.write(nb, path)
        names.append(name)
    return names


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--count", type=int, default=None)
    parser.add_argument(
        "--kinds",
        default="all",
        help="all, or a comma-separated list of kinds; 'mistakes' = right + mistakes",
    )
    args = parser.parse_args(argv)
    if args.kinds == "all":
        kinds = ALL_KINDS
    elif args.kinds == "mistakes":
        kinds = tuple(MISTAKE_KINDS)
    else:
        kinds = tuple(args.kinds.split(","))
    names = write_submissions(args.folder, kinds, args.count)
    print(f"{len(names)} submissions in {args.folder}")


if __name__ == "__main__":
    main()
