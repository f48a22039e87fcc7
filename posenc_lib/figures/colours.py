"""One colour map and one scale per quantity a figure colours, set once.

Every chapter, the lecture and the slides colour a quantity the same way:

==========  ==================  ====================================================
quantity    colour map          scale
==========  ==================  ====================================================
encoding    ``PE_CMAP``         centred: ``-vmax`` blue, 0 white, ``+vmax`` red
            (RdBu_r)            (``vmax = 1`` for ``PE`` itself)
score       ``SCORE_CMAP``      centred on 0, ``vmax`` the largest ``|score|``
            (RdBu_r)            drawn
weight      ``WEIGHTS_CMAP``    0 (white) to 1 (dark green)
            (Greens)
==========  ==================  ====================================================

:func:`apply_style` gives an image its quantity's style and records the
quantity as the image's label (``tests/test_figure_styles.py`` reads it).
:data:`PEAK_MARKER` is how a heatmap marks the largest entry of each row.
"""

from matplotlib.patheffects import withStroke

__all__ = [
    "PEAK_MARKER",
    "PE_CMAP",
    "SCORE_CMAP",
    "STYLES",
    "WEIGHTS_CMAP",
    "apply_style",
]

#: Diverging colour map for encodings ``PE[pos, k]`` (and differences of two):
#: -1 blue, 0 white, +1 red.
PE_CMAP = "RdBu_r"

#: Diverging colour map for scores, dot products such as ``query_p · key_q`` or
#: ``PE[p] · PE[q]``, centred on 0: negative blue, 0 white, positive red.
SCORE_CMAP = "RdBu_r"

#: Sequential colour map for attention weights, 0 (white) to 1 (dark green).
WEIGHTS_CMAP = "Greens"

#: Each quantity a figure colours, with its colour map and scale: "centred" runs
#: from -vmax through 0 (white) to +vmax, "unit" from 0 to 1. Set once here and
#: given by :func:`apply_style`, so a quantity looks the same in every figure.
STYLES = {
    "encoding": (PE_CMAP, "centred"),
    "score": (SCORE_CMAP, "centred"),
    "weight": (WEIGHTS_CMAP, "unit"),
}

#: How a heatmap marks the largest entry of a row: a white ring edged in black,
#: seen on every colour and apart from the black dashed line it often sits on.
PEAK_MARKER = {
    "marker": "o", "linestyle": "none", "markersize": 6, "markerfacecolor": "none",
    "markeredgecolor": "white", "markeredgewidth": 1.6,
    "path_effects": [withStroke(linewidth=3.2, foreground="black")],
}  # fmt: skip


def apply_style(image, quantity, vmax=1.0):
    """Colour ``image`` as every figure colours ``quantity`` (:data:`STYLES`).

    Parameters
    ----------
    image : matplotlib.image.AxesImage
    quantity : {"encoding", "score", "weight"}
        Also stored as the image's label, so a test can read what it shows.
    vmax : float, default 1.0
        The top of a centred scale (ignored by "weight", which runs 0 to 1).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> image = Figure().add_subplot().imshow([[0, 1], [1, 0]])
    >>> [float(v) for v in apply_style(image, "score", vmax=3).get_clim()]
    [-3.0, 3.0]
    """
    if quantity not in STYLES:
        raise ValueError(f"quantity == {quantity!r}, must be one of {sorted(STYLES)}.")
    cmap, scale = STYLES[quantity]
    clim = (-vmax, vmax) if scale == "centred" else (0.0, 1.0)
    image.set(cmap=cmap, clim=clim, label=quantity)
    return image
