"""Widgets drawn in the browser: the numbers they show, and their static pages.

The explorers (:class:`~posenc_lib.figures.explorer.Explorer`,
:class:`~posenc_lib.figures.sliders.PositionExplorer`) are anywidget widgets:
one ES module, ``static/explorer.js``, draws the sliders, the bars, the
heatmap, the circle and the tables as SVG and HTML, in JupyterLab, in Voila, on
the static site and in the slides. It computes nothing: every number it shows is
in the widget's state, computed here by posenc_lib and printed as the course
prints numbers (:func:`~posenc_lib.formatting.format_number`, ``.4g`` for
frequencies and angles). :func:`width_view` is that state for one ``d_model``:

============  ==============================================================
key           value
============  ==============================================================
``d_model``   the width the view is for
``pe``        ``pe[pos][k]``: ``PE[pos, k]`` to 4 decimals, as an integer count
              of 1e-4 (``-9900`` is ``-0.9900``): every row drawn
``freq``      ``freq[i]``: ``ω_i`` to 4 significant digits
``omega``     ``omega[i]``: ``ω_i`` as a float (the circle's arc, a drawing)
``angle``     ``angle[pos][j]``: ``pos·ω_i`` to 4 significant digits, for the
              pairs ``i`` the table lists (``table_pairs``), in that order
``sim``       ``sim[Δ]``: ``PE[p] · PE[p + Δ]`` to 4 decimals (any ``p``)
``circle``    ``circle[i][Δ]``: ``Δ·ω_i`` in radians and what is left after
              whole turns (:func:`circle_title`)
============  ==============================================================

A ``d_model`` step in a live kernel asks Python for a new view (the widget
observes ``d_model``); a static page carries the view of every width the
slider reaches in ``views``. :func:`static_html` writes a widget as such a
fragment and :func:`page_assets` the one script and style sheet a page needs to
draw it without a kernel and without a network (``static/embed.js`` gives the
same module a model made of the stored state).
"""

import html
import json
from pathlib import Path

import anywidget
import matplotlib as mpl
import numpy as np
import traitlets

from ..formatting import format_number
from ..positional import frequencies, sinusoidal_positions
from ..properties import offset_similarity
from ..validation import check_d_model, check_instance, check_integer, check_positive
from .style import PE_CMAP

__all__ = [
    "STATIC",
    "BrowserWidget",
    "circle_title",
    "check_width",
    "colour_map",
    "table_pairs",
    "page_assets",
    "static_html",
    "width_view",
]

STATIC = Path(__file__).with_name("static")  # explorer.js, explorer.css, embed.js
_STATE_TYPE = "application/vnd.posenc-widget+json"


def circle_title(offset, omega):
    """The numbers of the circle's title: ``Δ·ω``, and whole turns plus the rest.

    The page writes them as ``pair 0: Δ·ω = 20 rad`` and ``= 3 turns + 1.15 rad``
    (the second line only past a whole turn).

    Parameters
    ----------
    offset : int
        The shift ``Δ >= 0``.
    omega : float
        The pair's frequency, > 0.

    Returns
    -------
    list of str
        ``[angle, turns]``, ``turns`` empty below one whole turn.

    Examples
    --------
    >>> circle_title(20, 1.0)
    ['20', '3 turns + 1.15']
    >>> circle_title(2, 0.1)
    ['0.2', '']
    """
    offset = check_integer(offset, "offset", min_value=0)
    omega = check_positive(omega, "omega")
    angle = offset * omega
    turns = int(angle // (2 * np.pi))
    if turns == 0:
        return [f"{angle:.3g}", ""]
    rest = angle - 2 * np.pi * turns
    unit = "turn" if turns == 1 else "turns"
    return [f"{angle:.3g}", f"{turns} {unit} + {rest:.3g}"]


def check_width(d_model, max_d_model):
    """``d_model`` checked, and within the slider's reach ``max_d_model``: the
    check of every explorer's width slider.

    Examples
    --------
    >>> check_width(8, 64)
    8
    """
    d_model = check_d_model(d_model)
    if d_model > max_d_model:
        raise ValueError(
            f"d_model == {d_model}, must be an even integer in [2, {max_d_model}] "
            f"(max_d_model == {max_d_model})."
        )
    return d_model


def table_pairs(n_pairs, most=8):
    """Pairs a table lists: all, or the first and last few (``None``: the gap).

    Examples
    --------
    >>> table_pairs(3)
    [0, 1, 2]
    >>> table_pairs(32)
    [0, 1, 2, 3, 4, 5, None, 30, 31]
    """
    n_pairs = check_integer(n_pairs, "n_pairs", min_value=1)
    most = check_integer(most, "most", min_value=3)
    if n_pairs <= most:
        return list(range(n_pairs))
    return list(range(most - 2)) + [None, n_pairs - 2, n_pairs - 1]


def width_view(d_model, n_positions, max_offset=None):
    """The numbers an explorer shows for one width (the table above).

    Parameters
    ----------
    d_model : int
        Width of the encoding, an even integer >= 2.
    n_positions : int
        Rows of the table: positions ``0 .. n_positions - 1``.
    max_offset : int, optional
        With it, also ``sim`` and ``circle`` for ``Δ = 0 .. max_offset`` (the
        lecture explorer).

    Examples
    --------
    >>> view = width_view(4, 4, max_offset=1)
    >>> view["pe"][3], view["angle"][3], view["freq"]
    ([1411, -9900, 300, 9996], ['3', '0.03'], ['1', '0.01'])
    >>> view["sim"], view["circle"][0][1]
    (['2.0000', '1.5403'], ['1', ''])
    """
    n_positions = check_integer(n_positions, "n_positions", min_value=1)
    if max_offset is not None:
        max_offset = check_integer(max_offset, "max_offset", min_value=0)
    table = sinusoidal_positions(range(n_positions), d_model)  # (n_positions, d_model)
    omega = frequencies(d_model)  # (d_model // 2,)
    listed = [i for i in table_pairs(d_model // 2) if i is not None]
    angles = np.arange(n_positions)[:, None] * omega[listed]  # (n_positions, <= 8)
    # each PE[pos, k] to 4 decimals, as an integer count of 1e-4: -0.9900 -> -9900
    pe = [[int(format_number(x).replace(".", "")) for x in row] for row in table]
    view = {
        "d_model": int(d_model),
        "pe": pe,
        "freq": [f"{w:.4g}" for w in omega],
        "omega": [float(w) for w in omega],
        "angle": [[f"{a:.4g}" for a in row] for row in angles.tolist()],
    }
    if max_offset is not None:
        offsets = list(range(max_offset + 1))
        view["sim"] = [format_number(s) for s in offset_similarity(offsets, d_model)]
        view["circle"] = [
            [circle_title(offset, w) for offset in offsets] for w in omega.tolist()
        ]
    return view


def colour_map(n_colours=64):
    """The heatmaps' colour map (``PE_CMAP``) from -1 to 1, as ``#rrggbb``.

    Examples
    --------
    >>> colour_map(3)
    ['#053061', '#f7f7f7', '#67001f']
    """
    n_colours = check_integer(n_colours, "n_colours", min_value=2)
    cmap = mpl.colormaps[PE_CMAP].resampled(n_colours)
    return [mpl.colors.to_hex(cmap(i)) for i in range(n_colours)]


class BrowserWidget(anywidget.AnyWidget):
    """What the explorers share: the module, the state, and a view per width.

    Subclasses set ``kind`` and the limits; ``_view(d_model)`` is one width's view.
    """

    _esm = STATIC / "explorer.js"
    _css = STATIC / "explorer.css"
    kind = traitlets.Unicode("").tag(sync=True)
    pos = traitlets.Int(1).tag(sync=True)
    d_model = traitlets.Int(8).tag(sync=True)
    max_pos = traitlets.Int(50).tag(sync=True)
    max_d_model = traitlets.Int(64).tag(sync=True)
    view = traitlets.Dict().tag(sync=True)  # width_view(d_model, ...)
    views = traitlets.Dict().tag(sync=True)  # static pages: every width, by str(d)
    cmap = traitlets.List().tag(sync=True)

    def __init__(self, **state):
        super().__init__(cmap=colour_map(), **state)
        self._width_changed()
        self.observe(self._width_changed, names="d_model")

    def _view(self, d_model):
        return width_view(d_model, self.max_pos + 1)

    def _width_changed(self, change=None):
        self.view = self._view(self.d_model)

    def drawn_row(self):
        """``PE[pos]`` as the widget draws it now (its state), ``(d_model,)``."""
        return np.array(self.view["pe"][self.pos]) / 10_000

    def static_state(self):
        """The widget's state with a view for every width the slider reaches."""
        state = self.get_state()
        state = {k: v for k, v in state.items() if not k.startswith("_")}
        state["views"] = {str(d): self._view(d) for d in self._widths()}
        return state

    def _widths(self):
        """Every ``d_model`` the slider reaches."""
        return range(2, self.max_d_model + 1, 2)


def static_html(widget):
    """The widget as an HTML fragment for a page without a kernel.

    The fragment holds :meth:`BrowserWidget.static_state` as JSON; the script of
    :func:`page_assets` draws it with the same module as JupyterLab.
    """
    what = "a course explorer: PositionExplorer, PairCircleExplorer or Explorer"
    check_instance(widget, "widget", BrowserWidget, what=what)
    state = json.dumps(widget.static_state(), separators=(",", ":"))
    state = state.replace("</", "<\\/")  # never ends the script element early
    return (
        f'<div class="posenc-static" data-kind="{html.escape(widget.kind)}">'
        f'<script type="{_STATE_TYPE}">{state}</script></div>'
    )


def page_assets():
    """``<style>`` and ``<script>`` that draw every :func:`static_html` of a page.

    Inline (no file beside the page), classic (no module import, so ``file://``
    works) and offline: the ES module's text is imported from a ``blob:`` URL.
    """
    css = (STATIC / "explorer.css").read_text(encoding="utf-8")
    module = json.dumps((STATIC / "explorer.js").read_text(encoding="utf-8"))
    shim = (STATIC / "embed.js").read_text(encoding="utf-8")
    script = f"window.POSENC_WIDGET_MODULE = {module};\n{shim}".replace("</", "<\\/")
    return f"<style>{css}</style>\n<script>{script}</script>\n"
