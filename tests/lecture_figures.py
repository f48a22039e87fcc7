"""The figures of notebooks/lecture.ipynb, re-drawn here to measure their text.

Imported by ``tests/test_lecture.py`` and ``tests/browser/test_slides.py``
(by path). :func:`figure_text_sizes` runs the lecture's code cells in order,
as the kernel does, and measures the font size in PNG pixels of every text of
every figure the lecture shows, in the order of its PNG outputs: each
``plt.show()`` (the explorer is drawn in the browser, as SVG: no PNG).
"""

import ast
import contextlib
import io
from pathlib import Path

import matplotlib
import nbformat

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from posenc_lib.figures.style import text_sizes  # noqa: E402

LECTURE = Path(__file__).resolve().parent.parent / "notebooks" / "lecture.ipynb"


def _run_cell(source, namespace):
    """Run one cell; return the value of its last expression (as IPython shows)."""
    tree = ast.parse(source)
    last = (
        tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    )
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)


def figure_text_sizes(path=LECTURE):
    """``[(smallest_px, largest_px, n_texts), ...]``, one per PNG the lecture shows."""
    sizes = []

    def show():
        for number in plt.get_fignums():
            sizes.append(text_sizes(plt.figure(number)))
        plt.close("all")

    namespace = {}
    real_show = plt.show
    plt.show = show
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            _run_cells(path, namespace, sizes)
    finally:
        plt.show = real_show
        plt.close("all")
        matplotlib.rcdefaults()
    return [(found[0][0], found[-1][0], len(found)) for found in sizes]


def _run_cells(path, namespace, sizes):
    """Run the notebook's code cells in order."""
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code" and cell.source.strip():
            _run_cell(cell.source, namespace)
