"""The chapters' figures and sliders. Importing this imports matplotlib.

Every figure draws the data you pass: compute the table (or vector, or matrix)
in the notebook cell, then hand it over, so the cell shows what the picture is
of. :mod:`~posenc_lib.figures.style` has ``setup_notebook`` (every chapter's
Setup cell) and the one ``heatmap``; :mod:`~posenc_lib.figures.describe` every
figure's text alternative. Then one module per subject: ``encoding`` (chapter
02), ``embeddings`` (01), ``properties`` (03, 04, 06: similarity, attention
that looks back, a mistake beside the right table, RoPE), ``lookback`` (04),
``circles`` (one pair on the unit circle), ``conventions`` (07); ``sliders``
(02, 04) and ``explorer`` (the lecture) are drawn in the browser by
:mod:`~posenc_lib.figures.browser` (anywidget, one ES module in ``static/``) in
JupyterLab, Voila, the static site and the slides.
"""

from .circles import clock_faces, draw_pair_stage, pair_circle, show_pair_shift
from .conventions import conventions_figure
from .describe import describe_figure
from .embeddings import plot_word_vectors
from .encoding import plot_encoding_heatmap, plot_wavelengths, plot_waves
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
    "plot_encoding_heatmap",
    "plot_wavelengths",
    "plot_waves",
    "plot_word_vectors",
    "score_heatmaps",
    "setup_notebook",
    "show_pair_shift",
    "similarity_figure",
]
