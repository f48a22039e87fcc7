"""Execute the course notebooks in fresh kernels and store normalised outputs.

    python -m posenc_tools.run_notebooks              # every notebooks/**/*.ipynb
    python -m posenc_tools.run_notebooks notebooks/02_*.ipynb
    python -m posenc_tools.run_notebooks --check   # fail if a re-run changes a file
    python -m posenc_tools.run_notebooks --jobs 1  # one at a time (default: the cores)

Each notebook runs top to bottom in a new kernel of *this* Python (the venv's),
with the notebook's folder as working directory. Cells tagged
``raises-exception`` may raise; any other error fails the notebook, which is
then left untouched on disk and the script exits non-zero.

The stored result is normalised so that running the script twice in a row
changes no byte (the stamp-free PNGs come from
``posenc_lib.figures.style.setup_notebook``, which every notebook calls):

- no ``metadata.widgets`` (the widget state blob) and no per-cell
  ``metadata.execution`` timestamps (and execution runs with
  ``record_timing=False``);
- widget ``model_id``\\ s derived from the cell id and output index;
- memory addresses (``0x7f...``) and timings (``12.3 ms``, ``1,000 loops``)
  replaced by placeholders;
- the folder of this checkout (``/home/me/course/posenc_lib/...`` in a
  traceback) replaced by ``[repo]``, so a clone at another path stores the same
  bytes;
- neighbouring stream outputs joined (the kernel splits them by timing);
- execution counts 1, 2, 3, ... over the executed code cells;
- every cell has an id (a missing one is derived from the cell's index);
- ``metadata.posenc.matplotlib`` names the matplotlib that drew the figures (the
  tests compare stored PNGs byte for byte only under that version).
"""

import argparse
import hashlib
import multiprocessing
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import matplotlib
import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError

from posenc_tools import ROOT
from posenc_tools.kernel import CurrentEnvKernelManager

NOTEBOOKS = ROOT / "notebooks"
TIMEOUT = 300  # seconds per cell
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
KERNELSPEC = {
    "name": "python3",
    "display_name": "Python 3 (ipykernel)",
    "language": "python",
}

ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
ADDRESS_PLACEHOLDER = "0x..."
TIMING = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*\s?(?:ns|µs|μs|us|ms|s|sec|seconds)\b")
TIMING_PLACEHOLDER = "[time]"
LOOPS = re.compile(r"\d+(?:,\d{3})*(?= loops? each)")
# this checkout's folder, as resolved and as named (a symlinked clone differs)
CHECKOUT = sorted({str(ROOT), os.path.abspath(Path(__file__).parents[2])}, key=len)
CHECKOUT_PLACEHOLDER = "[repo]"


def find_notebooks(paths):
    """The notebooks named in ``paths`` (files or folders), or all of them."""
    if not paths:
        paths = [NOTEBOOKS]
    found = []
    for path in map(Path, paths):
        if path.is_dir():
            found += sorted(path.rglob("*.ipynb"))
        elif path.suffix == ".ipynb" and path.exists():
            found.append(path)
        else:
            raise SystemExit(f"run_notebooks: {path} is not a notebook or a folder.")
    return [p for p in found if ".ipynb_checkpoints" not in p.parts]


def execute(nb, folder):
    """Run ``nb`` in a fresh kernel of this Python, working directory ``folder``."""
    client = NotebookClient(
        nb,
        kernel_manager_class=CurrentEnvKernelManager,
        timeout=TIMEOUT,
        record_timing=False,
        resources={"metadata": {"path": str(folder)}},
    )
    client.execute()


def _stable_id(*parts):
    """32 hex digits derived from ``parts`` (the shape of a widget model id)."""
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:32]


def _scrub(text):
    """Text with memory addresses, timings and local folders as placeholders."""
    for folder in reversed(CHECKOUT):  # the longer first
        text = text.replace(folder, CHECKOUT_PLACEHOLDER)
    text = ADDRESS.sub(ADDRESS_PLACEHOLDER, text)
    text = LOOPS.sub("N", text)
    return TIMING.sub(TIMING_PLACEHOLDER, text)


def _scrub_output(output):
    """Scrub the text of one output in place."""
    if "text" in output:
        output["text"] = _scrub(output["text"])
    for mime, value in output.get("data", {}).items():
        if mime.startswith("text/") and isinstance(value, str):
            output["data"][mime] = _scrub(value)
    if "traceback" in output:
        output["traceback"] = [_scrub(line) for line in output["traceback"]]


def _merge_streams(outputs):
    """Join neighbouring stream outputs of the same name (stdout, stderr).

    How a kernel splits printed text into messages depends on timing; the
    joined text does not.
    """
    merged = []
    for output in outputs:
        last = merged[-1] if merged else None
        if (
            last is not None
            and output.output_type == last.output_type == "stream"
            and output.name == last.name
        ):
            last.text += output.text
        else:
            merged.append(output)
    return merged


def normalise(nb):
    """Make the executed notebook ``nb`` deterministic, in place (module notes)."""
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["posenc"] = {"matplotlib": matplotlib.__version__}
    seen, count = set(), 0
    for index, cell in enumerate(nb.cells):
        if not cell.get("id") or cell.id in seen:
            cell.id = f"cell-{index}"
        seen.add(cell.id)
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        if cell.source.strip():
            count += 1
            cell.execution_count = count
        else:
            cell.execution_count, cell.outputs = None, []
        cell.outputs = _merge_streams(cell.outputs)
        for number, output in enumerate(cell.outputs):
            if "execution_count" in output:
                output["execution_count"] = cell.execution_count
            if WIDGET_MIME in output.get("data", {}):
                output["data"][WIDGET_MIME]["model_id"] = _stable_id(cell.id, number)
            _scrub_output(output)
    return nb


def _run_one(path, check=False):
    """Execute, normalise and write (or compare) one notebook.

    Returns ``(ok, report)``: ``report`` is the line to print, or why it failed.
    """
    nb = nbformat.read(path, as_version=4)
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    start = time.perf_counter()
    try:
        execute(nb, path.parent)
    except (CellExecutionError, CellTimeoutError) as error:
        return False, f"FAILED {name}:\n{error}"
    except Exception as error:  # a kernel that died or would not start
        return False, f"FAILED {name}: {type(error).__name__}: {error}"
    seconds = time.perf_counter() - start
    nbformat.validate(normalise(nb))
    text = nbformat.writes(nb).rstrip("\n") + "\n"  # as nbformat.write stores it
    if check:
        same = path.read_text(encoding="utf-8") == text
        return (
            same,
            f"{seconds:6.1f} s  {name}  {'up to date' if same else 'WOULD CHANGE'}",
        )
    path.write_text(text, encoding="utf-8")
    return True, f"{seconds:6.1f} s  {name}"


def run(path, check=False):
    """Execute and normalise one notebook; write it (or, with ``check``, compare).

    Prints what happened; returns True on success (and, with ``check``, when the
    file is up to date).
    """
    ok, report = _run_one(path, check)
    print(report, file=sys.stdout if ok else sys.stderr, flush=True)
    return ok


def run_all(paths, check=False, jobs=1):
    """:func:`run` for every path, ``jobs`` notebooks at a time (each its own
    process and kernel); reports are printed in the order of ``paths``."""
    if jobs == 1 or len(paths) == 1:
        return [run(path, check) for path in paths]
    results = []
    spawn = multiprocessing.get_context("spawn")  # no forked zmq state
    with ProcessPoolExecutor(jobs, mp_context=spawn) as pool:
        for ok, report in pool.map(_run_one, paths, [check] * len(paths)):
            print(report, file=sys.stdout if ok else sys.stderr, flush=True)
            results.append(ok)
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="notebooks or folders (default: all)")
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if re-executing would change a stored notebook",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="notebooks run at once (default: the number of cores)",
    )
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs == {args.jobs}, must be an integer >= 1")
    notebooks = find_notebooks(args.paths)
    if not notebooks:
        raise SystemExit("run_notebooks: no notebooks found.")
    start = time.perf_counter()
    paths = [path.resolve() for path in notebooks]
    results = run_all(paths, check=args.check, jobs=args.jobs)
    total = time.perf_counter() - start
    print(f"{total:6.1f} s  total, {results.count(True)}/{len(results)} ok")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
