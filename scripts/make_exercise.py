"""Generate the learner's exercise notebook from the solution notebook.

    python scripts/make_exercise.py           # rewrite the learner notebook if stale
    python scripts/make_exercise.py --check   # exit 1 if it is stale; write nothing

The single source is ``notebooks/solutions/05_exercise.ipynb``; edit only that file.
The learner's version is the same notebook with three changes:

- in a code cell tagged ``solution``, every function keeps its ``def`` line and
  docstring, and its body becomes ``raise NotImplementedError(...)``;
- a cell tagged ``solution-only`` is left out;
- relative links ``](../name)`` become ``](name)``, since the learner's notebook
  sits one folder up.

Only sources are generated (cell types, tags and ids are kept; outputs are
empty). When the learner's sources already match, the file is left untouched, so
its stored outputs survive; after a rewrite, store fresh outputs with
``python scripts/run_notebooks.py notebooks/05_exercise.ipynb``.
"""

import argparse
import ast
import copy
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "notebooks" / "solutions" / "05_exercise.ipynb"
LEARNER = ROOT / "notebooks" / "05_exercise.ipynb"
STUB = (
    "    # Your code here: replace the next line.\n"
    '    raise NotImplementedError("{name} is not written yet")'
)


def stub_source(source):
    """``source`` with the body of every function replaced by a stub.

    The cell may hold only function definitions (a statement outside a
    function would hand the learner part of the answer); comment lines above
    the first one are kept.

    Examples
    --------
    >>> print(stub_source('def f(x):\\n    "Double x."\\n    return 2 * x'))
    def f(x):
        "Double x."
        # Your code here: replace the next line.
        raise NotImplementedError("f is not written yet")
    """
    lines = source.splitlines()
    body = ast.parse(source).body
    header = lines[: _first_line(body[0]) - 1] if body else []  # comments above
    stubs = []
    for node in body:
        if not isinstance(node, ast.FunctionDef):
            raise ValueError(
                f"line {node.lineno} of a 'solution' cell is not inside a function; "
                "such cells may hold only function definitions:\n" + source
            )
        keep = node.body[0].lineno - 1  # the def line(s), up to the body
        if ast.get_docstring(node) is not None:
            keep = node.body[0].end_lineno  # ... and the docstring
        stub = lines[_first_line(node) - 1 : keep] + [STUB.format(name=node.name)]
        stubs.append("\n".join(stub))
    return "\n".join(header + ["\n\n\n".join(stubs)])


def _first_line(node):
    """The first line of a statement, counting its decorators."""
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def learner_cell(cell):
    """The learner's version of one cell, or None to leave it out."""
    tags = cell.metadata.get("tags", [])
    if "solution-only" in tags:
        return None
    cell = copy.deepcopy(cell)
    if cell.cell_type == "markdown":
        cell.source = cell.source.replace("](../", "](")
    elif cell.cell_type == "code":
        if "solution" in tags:
            cell.source = stub_source(cell.source)
        cell.outputs, cell.execution_count = [], None
    return cell


def learner_notebook(solution):
    """The learner's notebook generated from the ``solution`` notebook."""
    learner = copy.deepcopy(solution)
    cells = (learner_cell(cell) for cell in solution.cells)
    learner.cells = [cell for cell in cells if cell is not None]
    return learner


def sources(nb):
    """What must agree between two versions: type, tags, id and source of each cell."""
    return [
        (cell.cell_type, cell.metadata.get("tags", []), cell.get("id"), cell.source)
        for cell in nb.cells
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if the learner's notebook is stale"
    )
    args = parser.parse_args(argv)
    expected = learner_notebook(nbformat.read(SOLUTION, as_version=4))
    name = LEARNER.relative_to(ROOT)
    if LEARNER.exists():
        if sources(nbformat.read(LEARNER, as_version=4)) == sources(expected):
            print(f"{name} is up to date with {SOLUTION.relative_to(ROOT)}.")
            return 0
    if args.check:
        print(f"{name} is stale: run python scripts/make_exercise.py", file=sys.stderr)
        return 1
    nbformat.validate(expected)
    nbformat.write(expected, LEARNER)
    print(f"wrote {name}; now run python scripts/run_notebooks.py {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
