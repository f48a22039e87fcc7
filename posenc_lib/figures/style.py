"""The course's figure style: :func:`setup_notebook` (every chapter's Setup cell),
one colour map and scale per quantity (:data:`STYLES`), the :func:`heatmap` every
table is drawn with (row 0 at the top), the check of every ``ax``
(:func:`check_axes`). Importing this imports matplotlib.
"""

import importlib
import os

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.image import AxesImage
from matplotlib.patheffects import withStroke

from ..validation import (
    check_instance,
    check_positive,
    check_sequence,
    check_table,
    describe,
)
from .describe import install_alt_text

__all__ = [
    "INLINE_FIGURE_KWARGS",
    "PEAK_MARKER",
    "PE_CMAP",
    "PRESENTATION_SCALE",
    "COLOUR_WORDS",
    "STYLES",
    "apply_style",
    "check_axes",
    "colour_words",
    "heatmap",
    "new_axes",
    "figure_scale",
    "setup_notebook",
]

#: Diverging colour map for encodings ``PE[pos, k]`` (and differences of two).
PE_CMAP = "RdBu_r"

#: Each quantity a figure colours: its colour map and scale, "centred" from -vmax
#: through 0 (white) to +vmax, "unit" from 0 to 1.
STYLES = {
    "encoding": (PE_CMAP, "centred"),
    "score": ("RdBu_r", "centred"),
    "weight": ("Greens", "unit"),
}

#: The colours a reader sees at each colour map's low end, middle and high end:
#: the words figure descriptions use, and which the chapters' prose is held to
#: (``tests/test_notebooks_stored.py``). A new map in STYLES needs its words here.
COLOUR_WORDS = {
    "RdBu_r": ("blue", "white", "red"),
    "Greens": ("white", "light green", "dark green"),
}

#: How a heatmap marks the largest entry of a row: a white ring edged in black.
PEAK_MARKER = {
    "marker": "o", "linestyle": "none", "markersize": 6, "markerfacecolor": "none",
    "markeredgecolor": "white", "markeredgewidth": 1.6,
    "path_effects": [withStroke(linewidth=3.2, foreground="black")],
}  # fmt: skip

#: What the inline backend passes to ``savefig``: no version stamp in the PNG.
INLINE_FIGURE_KWARGS = {"bbox_inches": "tight", "metadata": {"Software": None}}

_RC = {
    "figure.figsize": (6.0, 3.0),
    "figure.dpi": 80,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.grid": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "image.cmap": PE_CMAP,
    "legend.fontsize": 9,
    "legend.frameon": False,
}

#: The scale for a projector: the smallest axis text (legends, 9 pt) becomes
#: 9 * 80 * 2 / 72 = 20 px in the PNG (at least 18 px on a 1920 x 1080 screen).
PRESENTATION_SCALE = 2.0

#: The environment variable :func:`setup_notebook` reads when no scale is given.
SCALE_VARIABLE = "POSENC_SCALE"


def figure_scale(scale=None):
    """The figure scale to use: ``scale``, else ``$POSENC_SCALE``, else 1.

    Parameters
    ----------
    scale : float or "presentation", optional
        A number > 0 multiplies every figure's dpi (its text grows with it);
        ``"presentation"`` means :data:`PRESENTATION_SCALE`.

    Returns
    -------
    float

    Examples
    --------
    >>> figure_scale(), figure_scale("presentation")
    (1.0, 2.0)
    """
    name = "scale"
    if scale is None:
        name, scale = SCALE_VARIABLE, os.environ.get(SCALE_VARIABLE, "").strip() or 1
    if isinstance(scale, str):
        if scale == "presentation":
            return PRESENTATION_SCALE
        try:
            scale = float(scale)
        except ValueError:
            raise ValueError(
                f"{name} == {scale!r}, must be a number > 0 or 'presentation'."
            ) from None
    return check_positive(scale, name)


def setup_notebook(scale=None):
    """Set the course's plot defaults; in IPython also stamp-free inline PNGs.

    It changes only matplotlib's figure defaults, the inline PNG options and alt
    text, and numpy's scalar printing (``legacy="1.25"``: ``0.5``, not
    ``np.float64(0.5)``, as stored outputs show it; ``legacy=False`` undoes it).

    Parameters
    ----------
    scale : float or "presentation", optional
        Enlarge every figure by this factor (:func:`figure_scale`); without it
        ``$POSENC_SCALE`` (``POSENC_SCALE=presentation make lab``), else 1.

    Examples
    --------
    >>> setup_notebook(scale="presentation")
    >>> plt.rcParams["figure.figsize"], plt.rcParams["figure.dpi"]
    ([6.0, 3.0], 160.0)
    >>> setup_notebook()
    """
    dpi = _RC["figure.dpi"] * figure_scale(scale)
    mpl.rcParams.update({**_RC, "figure.dpi": dpi, "savefig.dpi": "figure"})
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        np.set_printoptions(legacy="1.25")  # scalars print as under numpy 1
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return
    shell = get_ipython()
    if shell is not None and "inline" in mpl.get_backend():
        # loading the backend registers its PNG formatter, which alt text wraps
        importlib.import_module("matplotlib_inline.backend_inline")
        shell.run_line_magic(
            "config", f"InlineBackend.print_figure_kwargs = {INLINE_FIGURE_KWARGS!r}"
        )
        install_alt_text(shell)  # every PNG output's metadata: {"alt": ...}


def check_axes(ax):
    """Return ``ax`` if it is a matplotlib Axes, or raise a TypeError naming it.

    Examples
    --------
    >>> check_axes(3)
    Traceback (most recent call last):
    ...
    TypeError: ax == 3 (int), must be a matplotlib Axes, e.g. from plt.subplots().
    """
    return check_instance(
        ax, "ax", Axes, what="a matplotlib Axes, e.g. from plt.subplots()"
    )


def new_axes(ax=None, figsize=None):
    """``ax`` itself, or the Axes of a new pyplot figure of ``figsize`` (inches).

    Examples
    --------
    >>> new_axes(figsize=(2, 1)).figure.get_size_inches().tolist()
    [2.0, 1.0]
    """
    figsize = _check_figsize(figsize)
    if ax is not None:
        return check_axes(ax)
    return plt.subplots(figsize=figsize)[1]


def _check_figsize(figsize):
    """``figsize`` as ``(width, height)``, two numbers > 0, or None."""
    if figsize is None:
        return None
    expected = "must be (width, height) in inches, or None"
    check_sequence(figsize, "figsize", what=expected.removeprefix("must be "))
    if len(figsize) != 2:
        raise ValueError(f"figsize == {describe(figsize)}, {expected}.")
    return tuple(check_positive(x, f"figsize[{i}]") for i, x in enumerate(figsize))


def heatmap(ax, table, *, vmax=1.0, quantity="encoding"):
    """Draw a 2-D ``table`` on ``ax``: row 0 at the top, one cell per entry.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    table : array_like of shape (n_rows, n_columns)
    vmax : float, default 1.0
        The top of a centred scale, ``-vmax`` to ``+vmax``.
    quantity : {"encoding", "score", "weight"}, default "encoding"
        What the table holds: its colours and scale (:data:`STYLES`).

    Returns
    -------
    matplotlib.image.AxesImage
        ``image.get_array()`` is ``table``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> image = heatmap(Figure().add_subplot(), np.zeros((3, 2)))
    >>> [float(edge) for edge in image.get_extent()]
    [-0.5, 1.5, 2.5, -0.5]
    """
    ax = check_axes(ax)
    what = "(n_rows, n_columns)"
    table = check_table(table, what=what).astype(float)  # (n_rows, n_col)
    vmax = check_positive(vmax, "vmax")
    image = ax.imshow(table, aspect="auto", interpolation="nearest")
    apply_style(image, quantity, vmax)
    return image


def _style(quantity):
    if quantity not in STYLES:
        raise ValueError(f"quantity == {quantity!r}, must be one of {sorted(STYLES)}.")
    return STYLES[quantity]


def colour_words(quantity):
    """The colours of ``quantity``'s low end, middle and high end, in words
    (:data:`STYLES`, :data:`COLOUR_WORDS`): what figure descriptions say.

    Examples
    --------
    >>> colour_words("encoding")
    ('blue', 'white', 'red')
    """
    cmap = _style(quantity)[0]
    if cmap not in COLOUR_WORDS:
        raise ValueError(
            f"STYLES[{quantity!r}] uses the colour map {cmap!r}, which COLOUR_WORDS "
            "(posenc_lib/figures/style.py) does not name: add its low, middle and "
            "high colours there; the figure descriptions follow, and "
            "tests/test_notebooks_stored.py then names the prose to change."
        )
    return COLOUR_WORDS[cmap]


def apply_style(image, quantity, vmax=1.0):
    """Colour ``image`` as every figure colours ``quantity`` (:data:`STYLES`),
    ``vmax`` topping a centred scale; its label records ``quantity``.

    Examples
    --------
    >>> image = apply_style(plt.subplots()[1].imshow([[0.2, 0.8]]), "weight")
    >>> image.get_label(), image.get_clim()
    ('weight', (0.0, 1.0))
    """
    image = check_instance(image, "image", AxesImage, what="an image from imshow")
    cmap, scale = _style(quantity)
    vmax = check_positive(vmax, "vmax")
    clim = (-vmax, vmax) if scale == "centred" else (0.0, 1.0)
    image.set(cmap=cmap, clim=clim, label=quantity)
    return image
