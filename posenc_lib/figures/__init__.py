"""The chapters' figures (one module per subject; :mod:`.style` the shared style,
:mod:`.describe` their text alternatives) and sliders (:mod:`.explorer`).
Importing this imports matplotlib."""

from .circles import clock_faces, pair_circle
from .conventions import conventions_figure
from .describe import describe_figure
from .embeddings import plot_word_vectors
from .encoding import plot_encoding_heatmap, plot_wavelengths, plot_waves
from .properties import (
    attention_maps,
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
    "pair_circle",
    "plot_encoding_heatmap",
    "plot_wavelengths",
    "plot_waves",
    "plot_word_vectors",
    "score_heatmaps",
    "setup_notebook",
    "similarity_figure",
]
