"""The chapters' figures and sliders. Importing this imports matplotlib.

Every figure draws the data you pass: compute the table (or vector, or matrix)
in the notebook cell, then hand it over, so the cell shows what the picture is
of. What is where:

- :mod:`~posenc_lib.figures.style`: ``setup_notebook`` (every chapter's Setup
  cell) and the one ``heatmap`` helper.
- :mod:`~posenc_lib.figures.describe`: every figure's text alternative (the
  ``alt`` of its stored PNG); ``describe_figure`` for a figure drawn in a cell.
- :mod:`~posenc_lib.figures.encoding`: the table, its columns, its wavelengths,
  one position's bars (chapter 02).
- :mod:`~posenc_lib.figures.embeddings`: word vectors in the plane (chapter 01).
- :mod:`~posenc_lib.figures.properties`: similarity, attention scores that look
  back, a mistake beside the right table, scores with RoPE (chapters 03, 04, 06).
- :mod:`~posenc_lib.figures.lookback`: the look-back layer's maps and losses (04).
- :mod:`~posenc_lib.figures.circles`: one (sin, cos) pair on the unit circle.
- :mod:`~posenc_lib.figures.conventions`: other libraries' layouts side by side,
  and a column permutation drawn (chapter 07).
- :mod:`~posenc_lib.figures.sliders`: the sliders of chapters 02 and 03.
- :mod:`~posenc_lib.figures.explorer`: the one-screen lecture explorer.
- :mod:`~posenc_lib.figures.browser`: what the explorers share: they are drawn in
  the browser (anywidget, one ES module in ``static/``) from numbers computed
  here, in JupyterLab, Voila, the static site and the slides.
"""

from .circles import clock_faces, draw_pair_stage, pair_circle, show_pair_shift
from .conventions import conventions_figure, permutation_figure
from .describe import describe_figure
from .embeddings import plot_word_vectors
from .encoding import (
    plot_encoding_bars,
    plot_encoding_heatmap,
    plot_wavelengths,
    plot_waves,
)
from .lookback import attention_maps, loss_curves
from .properties import (
    compare_tables,
    look_back_heatmaps,
    score_heatmaps,
    similarity_figure,
)
from .style import PE_CMAP, heatmap, setup_notebook

__all__ = [
    "PE_CMAP",
    "attention_maps",
    "clock_faces",
    "compare_tables",
    "conventions_figure",
    "describe_figure",
    "draw_pair_stage",
    "heatmap",
    "look_back_heatmaps",
    "loss_curves",
    "pair_circle",
    "permutation_figure",
    "plot_encoding_bars",
    "plot_encoding_heatmap",
    "plot_wavelengths",
    "plot_waves",
    "plot_word_vectors",
    "score_heatmaps",
    "setup_notebook",
    "show_pair_shift",
    "similarity_figure",
]
