"""Generate the notebooks with blanks from their sources: the one blanking mechanism.

    python -m posenc_tools.make_exercise          # rewrite each stale notebook
    python -m posenc_tools.make_exercise --check  # exit 1 if one is stale

Two notebooks are generated, each from a single source (edit only the source):

========================================  =====================================
source                                    generated
========================================  =====================================
``notebooks/solutions/03_exercise.ipynb`` ``notebooks/03_exercise.ipynb`` (the
                                          learner's exercise)
``notebooks/lecture.ipynb``               ``notebooks/lecture_live.ipynb`` (the
                                          lecture, to type live)
========================================  =====================================

A generated notebook is its source with these changes, by cell tag:

- ``solution``: every function keeps its ``def`` line and docstring, and its
  body becomes ``raise NotImplementedError(...)``;
- ``live``: the cell becomes one comment line, its prompt. The cell's first line
  must be ``# live: <prompt>``, and the blank is that line alone: nothing else
  on the projector. (Its lack of output needs no ``# no output:`` marker: the
  ``live`` tag, kept in the cell's metadata, says why, and
  ``tests/test_notebooks_stored.py`` accepts it.) Later cells must not need what
  a live cell defines (they recompute it, ``tests/test_lecture.py`` checks), so
  the blank notebook still runs top to bottom;
- ``solution-only``: the cell is left out;
- relative links ``](../name)`` become ``](name)`` when the generated notebook
  sits one folder above its source.

Only sources are generated (cell types, tags, ids and slide metadata are kept;
outputs are empty). When the generated sources already match, the file is left
untouched, so its stored outputs survive; after a rewrite, store fresh outputs
with ``python -m posenc_tools.run_notebooks <generated notebook>``. The time
lines ``python -m posenc_tools.chapter_times --write`` puts under the learner's
headings (``*Core path · 7 min*``) are the generated file's own, not a change.
"""

import argparse
import ast
import copy
import sys

import nbformat

from posenc_tools import ROOT
from posenc_tools.chapter_times import TIME_LABEL

SOLUTION = ROOT / "notebooks" / "solutions" / "03_exercise.ipynb"
LEARNER = ROOT / "notebooks" / "03_exercise.ipynb"
LECTURE = ROOT / "notebooks" / "lecture.ipynb"
LECTURE_LIVE = ROOT / "notebooks" / "lecture_live.ipynb"
#: (source, generated) pairs; ``make solutions`` regenerates each.
GENERATED = [(SOLUTION, LEARNER), (LECTURE, LECTURE_LIVE)]
LIVE_PROMPT = "# live: "
STUB = (
    "    # Your code here: replace the next line.\n"
    '    raise NotImplementedError("{name} is not written yet")'
)
#: the time line ``posenc_tools.chapter_times --write`` puts under a generated
#: chapter's headings (its source has none): not a difference between the two


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


def blank_source(source):
    r"""A ``live`` cell reduced to its prompt: one comment line, nothing to run.

    Examples
    --------
    >>> blank_source("# live: PE[3] by hand\nk = np.arange(4)\nk // 2")
    '# live: PE[3] by hand'
    """
    first = source.split("\n", 1)[0]
    if not first.startswith(LIVE_PROMPT) or not first[len(LIVE_PROMPT) :].strip():
        raise ValueError(
            f"a 'live' cell must start with the line '{LIVE_PROMPT}<prompt>', "
            f"got {first!r}:\n{source}"
        )
    return LIVE_PROMPT + first[len(LIVE_PROMPT) :].strip()


def generated_cell(cell, *, relink=False):
    """The generated version of one cell, or None to leave it out."""
    tags = cell.metadata.get("tags", [])
    if "solution-only" in tags:
        return None
    cell = copy.deepcopy(cell)
    if cell.cell_type == "markdown" and relink:
        cell.source = cell.source.replace("](../", "](")
    elif cell.cell_type == "code":
        if "solution" in tags:
            cell.source = stub_source(cell.source)
        if "live" in tags:
            cell.source = blank_source(cell.source)
        cell.outputs, cell.execution_count = [], None
    return cell


def generated_notebook(source, *, relink=False):
    """The notebook with blanks generated from ``source`` (module docstring)."""
    generated = copy.deepcopy(source)
    cells = (generated_cell(cell, relink=relink) for cell in source.cells)
    generated.cells = [cell for cell in cells if cell is not None]
    return generated


def expected_notebook(source_path, generated_path):
    """What ``generated_path`` must hold, generated from ``source_path``."""
    relink = generated_path.parent == source_path.parent.parent
    return generated_notebook(nbformat.read(source_path, as_version=4), relink=relink)


def sources(nb):
    """What must agree between two versions: type, tags, slide type, the numbers
    the prose is given (``posenc.given``), id and source of each cell, without the
    time labels of :data:`TIME_LABEL`."""
    return [
        (
            cell.cell_type,
            cell.metadata.get("tags", []),
            cell.metadata.get("slideshow", {}).get("slide_type"),
            cell.metadata.get("posenc", {}).get("given"),
            cell.get("id"),
            TIME_LABEL.sub("", cell.source)
            if cell.cell_type == "markdown"
            else cell.source,
        )
        for cell in nb.cells
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if the learner's notebook is stale"
    )
    args = parser.parse_args(argv)
    stale = [
        generated
        for source, generated in GENERATED
        if not update(source, generated, check=args.check)
    ]
    return 1 if args.check and stale else 0


def update(source, generated, *, check=False):
    """Bring ``generated`` up to date with ``source``; False if it was stale."""
    expected = expected_notebook(source, generated)
    name = generated.relative_to(ROOT)
    if generated.exists():
        if sources(nbformat.read(generated, as_version=4)) == sources(expected):
            print(f"{name} is up to date with {source.relative_to(ROOT)}.")
            return True
    if check:
        print(f"{name} is stale: run make solutions", file=sys.stderr)
        return False
    nbformat.validate(expected)
    nbformat.write(expected, generated)
    print(f"wrote {name}; now run python -m posenc_tools.run_notebooks {name}")
    return False


if __name__ == "__main__":
    sys.exit(main())
