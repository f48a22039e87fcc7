"""Every stored figure has alt text in its metadata (setup_notebook's formatter),
not nbconvert's placeholder."""

from pathlib import Path

import matplotlib.pyplot as plt
import nbformat
import pytest
from IPython.core.interactiveshell import InteractiveShell

from posenc_lib import sinusoidal_positions
from posenc_lib.figures import plot_encoding_heatmap
from posenc_lib.figures.describe import install_alt_text

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").rglob("*.ipynb"))
PLACEHOLDER = "No description has been provided for this image"


def _stored_figures(path):
    nb = nbformat.read(path, as_version=4)
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if "image/png" in output.get("data", {}):
                yield index, output.get("metadata", {}).get("image/png", {})


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_stored_png_has_alt_text(path):
    for index, metadata in _stored_figures(path):
        alt = str(metadata.get("alt", "")).strip()
        assert alt, f"{path.name} cell {index}: a figure without alt text"
        assert PLACEHOLDER not in alt
        assert len(alt) >= 20, f"{path.name} cell {index}: {alt!r} says too little"


def test_formatter_returns_png_and_alt():
    shell = InteractiveShell.instance()
    from IPython.core.pylabtools import select_figure_formats

    select_figure_formats(shell, {"png"})
    install_alt_text(shell)
    install_alt_text(shell)  # twice wraps once
    ax = plot_encoding_heatmap(sinusoidal_positions(range(5), 4))
    data, metadata = shell.display_formatter.format(ax.figure)
    plt.close(ax.figure)
    assert data["image/png"]
    alt = metadata["image/png"]["alt"]
    assert alt.startswith("Heatmap of the encoding table: 5 positions")
    assert "y: position pos" in alt  # the axis label, read from the figure
