"""The sliders of chapters 02 and 03, redrawn fast.

:func:`position_explorer` returns a :class:`PositionExplorer` (chapter 02), an
``ipywidgets.VBox`` that shows ``PE[pos]`` for a model of width ``d``:

- a picture: the vector as bars, and the heatmap of ``PE`` with the row of
  ``pos`` marked by a black line;
- beside it (under it on a narrow screen), its numbers pair by pair in a table
  of fixed height (:func:`~posenc_lib.figures.explorer.pair_table`: at most 9
  rows, the first and last pairs of a wide model), so the figure never moves
  while a slider is dragged. :func:`describe_position` gives the same numbers as
  one line of text, the exercise card's "tap a position" view.

:class:`PairCircleExplorer` (chapter 03) is the picture of
:func:`posenc_lib.figures.properties.pair_circle` with a slider for the offset ``Δ``.

Moving a slider updates the artists of one matplotlib figure and sends the
rendered PNG to an ``ipywidgets.Image``. The redraw uses blitting, as in
matplotlib's "Faster rendering by using blitting" guide: the static parts (axes,
heatmap, colour bar; circle and dots) are drawn once and kept as a pixel
background; a step restores that background and draws only the moving artists
(bars, their title and the marker line; the arrows and the title). This needs
no ipympl and works the same in JupyterLab and Voila.

Structure, for browser tests and styling (stable; change it only with its tests):

======================  =================================================
CSS class               element
======================  =================================================
``posenc-explorer``     the whole position explorer (a ``VBox``)
``posenc-pos``          ``IntSlider`` with ``description='pos'``
``posenc-d``            ``IntSlider`` with ``description='d_model'``, step 2
``posenc-table``        ``HTML``: ``pair_table(pos, d_model)`` in a box of
                        fixed height
``posenc-image``        ``Image`` (an ``<img>``, PNG) of either widget
``posenc-pair-circle``  the whole pair circle explorer (a ``VBox``)
``posenc-offset``       its ``IntSlider``, ``description='offset Δ'``
======================  =================================================

``PositionExplorer.text`` (an ``HTML`` widget, not displayed) keeps
``describe_position(pos, d_model)`` for notebooks that check it. The numbers are
set before the image, so once the image has changed the table is already
current. Images never grow past their column (``max-width: 100%``).
"""

import ipywidgets as widgets
import numpy as np
from matplotlib import patheffects
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ..formatting import format_number
from ..positional import frequencies, pos_encoding, sinusoidal_positions
from ..validation import check_d_model, check_index, check_integer, check_positions
from .circles import PAIR_CIRCLE_SIZE, draw_pair_stage, show_pair_shift
from .encoding import plot_encoding_bars
from .explorer import pair_table
from .style import Blitter, heatmap, set_rows

__all__ = [
    "PairCircleExplorer",
    "PositionExplorer",
    "describe_position",
    "position_explorer",
]


def describe_position(pos, d_model):
    """``PE[pos]`` pair by pair, as the exercise card's "tap a position" view.

    Parameters
    ----------
    pos : int
        A non-negative position.
    d_model : int
        Width of the encoding, an even integer >= 2.

    Returns
    -------
    str
        ``"pair i (frequency f): sin a = s, cos a = c"`` for every pair, joined
        by ``"; "``; ``a = pos * f``, and ``s``, ``c`` to 4 decimals.

    Examples
    --------
    >>> describe_position(1, 4)
    'pair 0 (frequency 1): sin 1 = 0.8415, cos 1 = 0.5403; pair 1 (frequency 0.01): sin 0.01 = 0.0100, cos 0.01 = 0.9999'
    """  # noqa: E501
    pos = check_integer(pos, "pos", min_value=0)
    vector = pos_encoding(pos, d_model)  # (d_model,)
    parts = []
    for pair, frequency in enumerate(frequencies(d_model)):
        angle = f"{pos * frequency:.4g}"
        sin, cos = format_number(vector[2 * pair]), format_number(vector[2 * pair + 1])
        parts.append(
            f"pair {pair} (frequency {frequency:.4g}): "
            f"sin {angle} = {sin}, cos {angle} = {cos}"
        )
    return "; ".join(parts)


_CSS = """<style>
.posenc-explorer, .posenc-pair-circle { max-width: 100%; }
.posenc-explorer .posenc-image, .posenc-pair-circle .posenc-image {
  max-width: 100%; height: auto; min-width: 0; }
.posenc-explorer .widget-slider { max-width: 100%; }
.posenc-numbers { align-items: flex-start; gap: 4px 16px; }
.posenc-table { height: 16.5em; overflow: hidden; flex: 0 0 auto; }
.posenc-table table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
.posenc-table th, .posenc-table td { padding: 1px 8px; text-align: right; }
.posenc-table th { border-bottom: 1px solid #444; }
</style>"""


def _style():
    """The widgets' CSS (an ``HTML`` widget), shown once inside each of them."""
    return widgets.HTML(_CSS, layout=widgets.Layout(display="none"))


class PositionExplorer(widgets.VBox):
    """Sliders for ``pos`` and ``d_model`` with the numbers and picture of ``PE[pos]``.

    Build it with :func:`position_explorer`. Attributes: ``pos_slider``,
    ``d_slider``, ``table`` (HTML, the numbers shown), ``text`` (HTML, not shown:
    ``describe_position(pos, d_model)``), ``image`` (Image), ``figure`` (the one
    matplotlib figure), ``bars_ax``, ``heatmap_ax``, ``marker`` (the line on the
    heatmap). :meth:`redraw` is what a slider step runs.
    """

    def __init__(self, pos=1, d_model=8, *, max_pos=50, max_d_model=64):
        max_pos = check_integer(max_pos, "max_pos", min_value=1)
        max_d_model = check_d_model(max_d_model, name="max_d_model")
        self.pos_slider = widgets.IntSlider(
            value=check_integer(pos, "pos", min_value=0), min=0, max=max_pos,
            description="pos",
        )  # fmt: skip
        self.d_slider = widgets.IntSlider(
            value=check_d_model(d_model), min=2, max=max_d_model, step=2,
            description="d_model",
        )  # fmt: skip
        self.text = widgets.HTML()
        self.table = widgets.HTML()
        self.image = widgets.Image(format="png")
        for widget, name in [
            (self.pos_slider, "pos"), (self.d_slider, "d"),
            (self.table, "table"), (self.image, "image"),
        ]:  # fmt: skip
            widget.add_class(f"posenc-{name}")
        self._build_figure(max_pos)
        width = self.figure.canvas.get_width_height()[0]
        self.image.layout = widgets.Layout(width=f"{width}px")  # not stretched
        wrap = widgets.Layout(flex_flow="row wrap", max_width="100%")
        controls = widgets.HBox([self.pos_slider, self.d_slider], layout=wrap)
        numbers = widgets.HBox([self.image, self.table], layout=wrap)
        numbers.add_class("posenc-numbers")
        super().__init__([_style(), controls, numbers])
        self.add_class("posenc-explorer")
        self.pos_slider.observe(self.redraw, names="value")
        self.d_slider.observe(self.redraw, names="value")
        self.redraw()

    def __repr__(self):
        return f"PositionExplorer(pos={self.pos}, d_model={self.d_model})"

    @property
    def pos(self):
        return self.pos_slider.value

    @property
    def d_model(self):
        return self.d_slider.value

    def _build_figure(self, max_pos):
        """The figure and its static parts; a step redraws only the moving artists."""
        self.figure = Figure(figsize=(9.5, 3.2), dpi=80)
        FigureCanvasAgg(self.figure)
        self.bars_ax, self.heatmap_ax = self.figure.subplots(
            1, 2, gridspec_kw={"width_ratios": [1.1, 1]}
        )
        self.figure.subplots_adjust(left=0.07, right=0.97, bottom=0.16, wspace=0.25)
        self._heatmap = heatmap(self.heatmap_ax, np.zeros((max_pos + 1, 2)))
        self.figure.colorbar(self._heatmap, ax=self.heatmap_ax, label="PE[pos, k]")
        self.heatmap_ax.set(xlabel="column k", ylabel="position pos")
        self.heatmap_ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        self.marker = self.heatmap_ax.axhline(
            0, color="black", linewidth=2, animated=True,
            path_effects=[patheffects.withStroke(linewidth=4, foreground="white")],
        )  # fmt: skip
        self._drawn_d = None
        self._blitter = Blitter(self.figure, self._moving_artists)

    def _draw_width(self, d_model):
        """Redraw the static parts for a new width ``d_model``, and keep them."""
        n_positions = self._heatmap.get_array().shape[0]
        table = sinusoidal_positions(range(n_positions), d_model)  # (n_pos, d)
        self._heatmap.set_data(table)
        set_rows(self._heatmap)
        self.heatmap_ax.set_title(f"PE, positions 0-{n_positions - 1}")
        self.bars_ax.clear()
        plot_encoding_bars(np.zeros(d_model), ax=self.bars_ax)
        self._blitter.invalidate()
        self._drawn_d = d_model

    def _moving_artists(self):
        return [*self.bars_ax.patches, self.bars_ax.title, self.marker]

    def _render_png(self):
        """The static background plus the moving artists, as PNG bytes (blitting)."""
        return self._blitter.png()

    def redraw(self, change=None):
        """Show the sliders' current ``pos`` and ``d``: text first, then image."""
        pos, d_model = self.pos, self.d_model
        vector = pos_encoding(pos, d_model)  # (d_model,)
        if d_model != self._drawn_d:
            self._draw_width(d_model)
        for bar, height in zip(self.bars_ax.patches, vector, strict=True):
            bar.set_height(height)
        self.bars_ax.set_title(f"PE[{pos}] with d_model = {d_model}")
        self.marker.set_ydata([pos, pos])
        self.text.value = describe_position(pos, d_model)
        self.table.value = pair_table(pos, d_model)
        self.image.value = self._render_png()

    def bar_heights(self):
        """Heights of the bars now drawn, shape ``(d,)``."""
        return np.array([bar.get_height() for bar in self.bars_ax.patches])


def position_explorer(pos=1, d_model=8, *, max_pos=50, max_d_model=64):
    """Sliders for ``pos`` (0 to ``max_pos``) and ``d`` (2 to ``max_d_model``, step 2).

    Parameters
    ----------
    pos : int, default 1
        Starting position.
    d_model : int, default 8
        Starting width, even.
    max_pos : int, default 50
        Largest position; the heatmap shows positions ``0 .. max_pos``.
    max_d_model : int, default 64
        Largest width, even.

    Returns
    -------
    PositionExplorer
        The widget; display it as a cell's last value. Its structure and CSS
        classes are listed in the module docstring.

    Examples
    --------
    >>> explorer = position_explorer(pos=3, d_model=4)
    >>> explorer.text.value == describe_position(3, 4)
    True
    >>> from posenc_lib.figures.explorer import pair_table
    >>> explorer.table.value == pair_table(3, 4)
    True
    >>> explorer.pos_slider.value = 0  # what moving the slider does
    >>> explorer.bar_heights()
    array([0., 1., 0., 1.])
    """
    return PositionExplorer(pos, d_model, max_pos=max_pos, max_d_model=max_d_model)


class PairCircleExplorer(widgets.VBox):
    """:func:`~posenc_lib.figures.circles.pair_circle` with a slider for the offset.

    A step moves only the arrows and the title (blitting); circle, dots and
    labels stay as drawn once. Attributes: ``offset_slider``, ``image``,
    ``figure``, ``ax``, ``arrows``; :meth:`redraw` is what a step runs.

    Parameters
    ----------
    offset : int, default 3
        Starting offset ``Δ``, in ``0 .. max_offset``.
    d_model, pair, n_positions, starts
        As in :func:`~posenc_lib.figures.properties.pair_circle`.
    max_offset : int, default 15

    Examples
    --------
    >>> circle = PairCircleExplorer(offset=3, d_model=16, pair=1)
    >>> circle.offset_slider.value = 4  # what moving the slider does
    >>> circle.arrow_points().shape  # (start, end) of the arrows from 0 and 5
    (2, 2, 2)
    >>> bool(np.allclose(circle.arrow_points()[1, 1], pos_encoding(5 + 4, 16)[2:4]))
    True
    """

    def __init__(
        self, offset=3, *, d_model=16, pair=1, n_positions=16, starts=(0, 5),
        max_offset=15,
    ):  # fmt: skip
        max_offset = check_integer(max_offset, "max_offset", min_value=0)
        offset = check_index(offset, "offset", max_offset + 1, what="max_offset + 1")
        self.d_model = check_d_model(d_model)
        self.pair = check_index(pair, "pair", self.d_model // 2, what="d_model // 2")
        n_positions = check_integer(n_positions, "n_positions", min_value=1)
        self.starts = check_positions(starts, name="starts")  # (n_starts,)
        self.offset_slider = widgets.IntSlider(
            value=offset, min=0, max=max_offset, description="offset Δ"
        )
        self.image = widgets.Image(format="png")
        self.offset_slider.add_class("posenc-offset")
        self.image.add_class("posenc-image")
        self._build_figure(n_positions)
        width = self.figure.canvas.get_width_height()[0]
        self.image.layout = widgets.Layout(width=f"{width}px")  # not stretched
        super().__init__([_style(), self.offset_slider, self.image])
        self.add_class("posenc-pair-circle")
        self.offset_slider.observe(self.redraw, names="value")
        self.redraw()

    def __repr__(self):
        return f"PairCircleExplorer(offset={self.offset}, d_model={self.d_model})"

    @property
    def offset(self):
        return self.offset_slider.value

    def _build_figure(self, n_positions):
        """Draw the static parts once and keep them as the background."""
        self.figure = Figure(figsize=PAIR_CIRCLE_SIZE)
        FigureCanvasAgg(self.figure)
        self.ax = self.figure.add_subplot()
        self.arrows = draw_pair_stage(
            self.ax, self.d_model, self.pair, n_positions, len(self.starts),
            animated=True,
        )  # fmt: skip
        self._blitter = Blitter(self.figure, lambda: [*self.arrows, self.ax.title])

    def redraw(self, change=None):
        """Point the arrows for the slider's ``offset`` and show the new PNG."""
        show_pair_shift(
            self.ax, self.arrows, self.offset,
            d_model=self.d_model, pair=self.pair, starts=self.starts,
        )  # fmt: skip
        self.image.value = self._blitter.png()

    def arrow_points(self):
        """Arrows now drawn, ``(n_starts, 2, 2)``: ``[i, 0]`` start, ``[i, 1]`` end."""
        return np.array([[arrow.xyann, arrow.xy] for arrow in self.arrows])
