"""The chapters' figures and sliders. Importing this imports matplotlib.

Every figure draws the data the cell computed. :mod:`.style` has
``setup_notebook`` and the one ``heatmap``, :mod:`.describe` every figure's text
alternative; then one module per subject (``encoding``, ``embeddings``,
``properties``, ``lookback``, ``circles``, ``conventions``); :mod:`.explorer`
has the sliders, drawn in the browser (anywidget).
"""

from .circles import clock_faces, pair_circle
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
    "similarity_figure",
]
