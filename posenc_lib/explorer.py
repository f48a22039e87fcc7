r"""The lecture explorer: one screen to project while talking about the encoding.

Four sliders: ``pos`` (the position), ``d`` (the width ``d_model``, in steps of 2),
``k`` (an offset) and ``pair`` (which (sin, cos) pair to follow on the circle).
They drive

* the encoding ``PE[pos]`` as bars, and beside it a table of each pair's
  frequency, sine and cosine;
* the heatmap of ``PE`` (positions x columns) with rows ``pos`` and ``pos + k``
  marked;
* one pair's point ``(sin a, cos a)`` on the unit circle and where the offset
  ``k`` rotates it: by the angle ``k * frequency``, whatever ``pos`` is;
* the dot product ``PE[pos] . PE[pos + k] = sum_i cos(k * w_i)``, which depends
  on ``k`` only.

The figure is drawn with matplotlib's Agg canvas straight to PNG bytes shown in an
``ipywidgets.Image`` (no pyplot, no output widget), updating the existing artists
on each step; the numbers are an ``ipywidgets.HTML`` updated before the figure,
so they follow the slider at once. Fonts are large enough for a projector.

CSS classes, for styling and for the browser tests: ``posenc-lecture`` (the
whole app), ``posenc-lecture-numbers`` (the table and the dot product),
``posenc-lecture-dot`` (the dot product line), ``posenc-lecture-figure``
(the image), ``posenc-lecture-pos``, ``-d``, ``-k``, ``-pair`` (the sliders).

Serve it without code with ``make explorer`` (Voila, on 127.0.0.1).
"""

import html
import io

import ipywidgets as widgets
import matplotlib
import numpy as np
import PIL.Image
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.transforms import blended_transform_factory

from ._validation import check_d_model, check_index, check_integer
from .diagrams import _unit_circle
from .plotting import PE_CMAP, plot_encoding_bars
from .positional import frequencies, pos_encoding, sinusoidal_positions
from .properties import offset_similarity

__all__ = ["Explorer", "ExplorerFigure", "explorer", "pair_table", "dot_line"]

_MAX_TABLE_PAIRS = 8  # wider encodings show the first and last pairs only
_CSS = """<style>
.posenc-lecture { font-size: 20px; }
.posenc-lecture .widget-label, .posenc-lecture .widget-readout,
.posenc-lecture .widget-label-basic { font-size: 20px; }
.posenc-lecture .widget-readout { min-width: 3.2em; }
.posenc-lecture-numbers table { border-collapse: collapse; font-size: 19px;
  font-variant-numeric: tabular-nums; }
.posenc-lecture-numbers th, .posenc-lecture-numbers td {
  padding: 2px 12px; text-align: right; }
.posenc-lecture-numbers th { border-bottom: 2px solid #444; }
.posenc-lecture-numbers h3 { font-size: 22px; margin: 4px 0 8px 0; }
.posenc-lecture-dot { font-size: 22px; margin-top: 14px; line-height: 1.5; }
</style>"""


def _table_pairs(n_pairs):
    """Pairs listed in the table: all, or the first and last few of a wide model."""
    if n_pairs <= _MAX_TABLE_PAIRS:
        return list(range(n_pairs))
    head = list(range(_MAX_TABLE_PAIRS - 2))
    return head + [None, n_pairs - 2, n_pairs - 1]  # None marks the gap


def pair_table(pos, d_model, *, pair=None):
    """HTML table of ``PE[pos]`` pair by pair: frequency, sine and cosine.

    Parameters
    ----------
    pos : int
        A non-negative position.
    d_model : int
        Width of the encoding, an even integer >= 2.
    pair : int, optional
        A pair to highlight (bold), as the one followed on the unit circle.

    Returns
    -------
    str
        A ``<table>`` with one row per pair (the first and last pairs only when
        ``d_model > 16``), numbers to 4 decimals.

    Examples
    --------
    >>> print(pair_table(1, 2))
    <table><tr><th>pair</th><th>frequency</th><th>sin</th><th>cos</th></tr>
    <tr><td>0</td><td>1</td><td>0.8415</td><td>0.5403</td></tr></table>
    """
    encoding = pos_encoding(pos, d_model)  # (d_model,)
    omega = frequencies(d_model)  # (d_model // 2,)
    rows = ["<tr><th>pair</th><th>frequency</th><th>sin</th><th>cos</th></tr>"]
    for i in _table_pairs(d_model // 2):
        if i is None:
            rows.append('<tr><td>&#8942;</td><td colspan="3"></td></tr>')
            continue
        sin, cos = encoding[2 * i], encoding[2 * i + 1]
        style = ' style="font-weight: bold"' if i == pair else ""
        cells = (str(i), f"{omega[i]:.4g}", f"{sin:.4f}", f"{cos:.4f}")
        rows.append(f"<tr{style}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return "<table>" + "\n".join(rows) + "</table>"


def dot_line(pos, d_model, offset):
    """The dot product ``PE[pos] . PE[pos + offset]`` as one line of text.

    Parameters
    ----------
    pos, offset : int
        Non-negative position and offset.
    d_model : int
        Width of the encoding, an even integer >= 2.

    Returns
    -------
    str
        Computed from the two encodings, to 4 decimals.

    Examples
    --------
    >>> dot_line(3, 4, 0)
    'PE[3] · PE[3] = 2.0000'
    >>> dot_line(0, 2, 1)
    'PE[0] · PE[1] = 0.5403'
    """
    pos = check_integer(pos, "pos", min_value=0)
    offset = check_integer(offset, "k", min_value=0)
    value = pos_encoding(pos, d_model) @ pos_encoding(pos + offset, d_model)
    return f"PE[{pos}] · PE[{pos + offset}] = {value:.4f}"


def _numbers_html(pos, d_model, offset, pair):
    """The right-hand panel: the pair table and the dot product."""
    closed_form = offset_similarity([offset], d_model)[0]
    sum_of_cos = "&Sigma;<sub>i</sub> cos(k&middot;&omega;<sub>i</sub>)"
    return (
        f"<h3>PE[{pos}], d = {d_model}</h3>{pair_table(pos, d_model, pair=pair)}"
        f'<div class="posenc-lecture-dot">{html.escape(dot_line(pos, d_model, offset))}'
        f"<br>= {sum_of_cos} = {closed_form:.4f}<br>"
        f"<small>the same for every pos; d/2 = {d_model // 2} at k = 0</small></div>"
    )


_FONT = {"font.size": 15, "axes.titlesize": 16, "axes.labelsize": 15}
_ROW = {"fill": False, "edgecolor": "k", "linewidth": 2.5, "animated": True}


class ExplorerFigure:
    """The explorer's figure: bars of ``PE[pos]``, the heatmap and one pair's circle.

    A fixed layout (no layout engine), and blitting: the static part (axes, ticks,
    heatmap) is drawn once per width ``d_model``, and each update redraws only the
    artists that move, then encodes the canvas as PNG.

    Parameters
    ----------
    n_positions : int, default 71
        Rows of the heatmap (positions ``0 .. n_positions - 1``).

    Examples
    --------
    >>> fig = ExplorerFigure(n_positions=10)
    >>> fig.update(pos=3, d_model=4, offset=2, pair=1).png()[:4]
    b'\\x89PNG'
    """

    def __init__(self, n_positions=71):
        self.n_positions = check_integer(n_positions, "n_positions", min_value=1)
        with _rc():
            self.figure = Figure(figsize=(7.4, 5.1), dpi=100)
            FigureCanvasAgg(self.figure)
            add = self.figure.add_axes  # a fixed layout: (left, bottom, width, height)
            self.bars_ax = add((0.09, 0.64, 0.89, 0.29))
            self.heat_ax = add((0.09, 0.11, 0.36, 0.33))
            self._colorbar_ax = add((0.465, 0.11, 0.015, 0.33))
            self.circle_ax = add((0.6, 0.11, 0.38, 0.33))
            self._setup_static()
        self._d_model, self._background = None, None

    def update(self, pos, d_model, offset, pair=0):
        """Redraw for new values; returns ``self`` (so ``.update(...).png()``)."""
        if d_model != self._d_model:
            with _rc():  # artists keep the fonts they are made with
                self._setup_width(d_model)
        self._show_position(pos, offset, pair)
        self._show_pair(pos, offset, pair)
        return self

    def png(self):
        """The figure as PNG bytes; equal values give identical bytes."""
        canvas = self.figure.canvas
        if self._background is None:
            with _rc():
                canvas.draw()  # everything but the animated artists
            self._background = canvas.copy_from_bbox(self.figure.bbox)
        canvas.restore_region(self._background)
        for artist in self._moving():
            self.figure.draw_artist(artist)
        rgba = PIL.Image.frombuffer(
            "RGBA", canvas.get_width_height(), canvas.buffer_rgba()
        )
        buffer = io.BytesIO()
        rgba.convert("RGB").save(buffer, format="png", compress_level=1)
        return buffer.getvalue()

    def _moving(self):
        """The artists redrawn at every step."""
        titles = [self._bars_title, self._circle_title]
        marks = [self._row, self._shifted_row, self._arc, self._start, self._end]
        return [*self._bars, *marks, *titles]

    def _setup_width(self, d_model):
        """Artists that depend on ``d_model``: the bars and the heatmap's table."""
        self._d_model, self._background = d_model, None
        self.bars_ax.clear()
        plot_encoding_bars(np.zeros(d_model), ax=self.bars_ax)
        self._bars = list(self.bars_ax.patches)
        self._bars_title = _title(self.bars_ax, 0, "left")
        for bar in self._bars:
            bar.set(animated=True, linewidth=2.5)
        table = sinusoidal_positions(range(self.n_positions), d_model)  # (n, d_model)
        self._heatmap.set_data(table)
        self._heatmap.set_extent((-0.5, d_model - 0.5, self.n_positions - 0.5, -0.5))

    def _setup_static(self):
        """Axes, labels and artists that exist whatever the values."""
        ax = self.heat_ax
        table = np.zeros((self.n_positions, 2))  # (n_positions, d_model), for now
        self._heatmap = ax.imshow(
            table, aspect="auto", cmap=PE_CMAP, vmin=-1, vmax=1, interpolation="nearest"
        )
        ax.set(xlabel="column", ylabel="position")
        ax.set_title("PE: rows pos and pos + k", fontsize=15)
        self.figure.colorbar(self._heatmap, cax=self._colorbar_ax, ticks=[-1, 0, 1])
        rows = blended_transform_factory(ax.transAxes, ax.transData)
        self._row = ax.add_patch(Rectangle((0, 0), 1, 1, transform=rows, **_ROW))
        self._shifted_row = ax.add_patch(
            Rectangle((0, 0), 1, 1, transform=rows, linestyle="--", **_ROW)
        )
        self._setup_circle()

    def _show_position(self, pos, offset, pair):
        """Bar heights, the highlighted pair and the marked heatmap rows."""
        encoding = pos_encoding(pos, self._d_model)  # (d_model,)
        for column, (bar, value) in enumerate(zip(self._bars, encoding, strict=True)):
            bar.set_height(value)
            bar.set_edgecolor("k" if column // 2 == pair else "none")
        self._bars_title.set_text(f"PE[{pos}], d = {self._d_model}")
        self._row.set_y(pos - 0.5)
        self._shifted_row.set_y(pos + offset - 0.5)
        self._shifted_row.set_visible(pos + offset < self.n_positions)

    def _setup_circle(self):
        ax = self.circle_ax
        _unit_circle(ax)
        ax.axhline(0, color="0.85", linewidth=0.8)
        ax.axvline(0, color="0.85", linewidth=0.8)
        (self._arc,) = ax.plot([], [], color="0.2", linewidth=2.5, animated=True)
        (self._start,) = ax.plot([], [], "o", color="tab:blue", ms=13, animated=True)
        (self._end,) = ax.plot(
            [], [], "o", color="k", ms=13, mfc="none", mew=2.5, animated=True
        )
        ax.set(xlabel="sin", ylabel="cos")
        self._circle_title = _title(ax, 0.5, "center")
        ax.legend(
            [self._start, self._end],
            ["pos", "pos + k"],
            loc="center",
            frameon=False,
            fontsize=13,
            handletextpad=0.2,
        )

    def _show_pair(self, pos, offset, pair):
        """One pair's point at ``pos`` (filled) and ``pos + offset`` (ring)."""
        omega = frequencies(self._d_model)[pair]
        turn = (offset * omega) % (2 * np.pi)  # the rotation, modulo a full turn
        arc = pos * omega + np.linspace(0, turn, 60)  # (60,)
        self._arc.set_data(np.sin(arc), np.cos(arc))
        self._start.set_data([np.sin(pos * omega)], [np.cos(pos * omega)])
        end = (pos + offset) * omega
        self._end.set_data([np.sin(end)], [np.cos(end)])
        self._circle_title.set_text(f"pair {pair}: k·ω = {offset * omega:.3g} rad")


def _title(ax, x, align):
    """A title redrawn at every step (an animated text above the axes)."""
    return ax.text(
        x,
        1.03,
        "",
        transform=ax.transAxes,
        ha=align,
        va="bottom",
        fontsize=16,
        animated=True,
    )


def _rc():
    """Matplotlib's defaults with large fonts, whatever the notebook has set."""
    defaults = dict(matplotlib.rcParamsDefault)
    del defaults["backend"]  # never switch backends (the figure draws with Agg)
    return matplotlib.rc_context({**defaults, **_FONT})


def _slider(description, value, low, high, step=1):
    return widgets.IntSlider(
        value=value,
        min=low,
        max=high,
        step=step,
        description=description,
        continuous_update=True,
        style={"description_width": "3em"},
        layout=widgets.Layout(width="420px"),
    )


class Explorer:
    """The explorer app: sliders, the figure and the numbers, wired together.

    Parameters
    ----------
    pos, d_model, offset, pair : int
        Starting values of the sliders ``pos``, ``d``, ``k`` and ``pair``.
    max_pos, max_d_model, max_offset : int
        Largest values the sliders reach.

    Attributes
    ----------
    sliders : dict of str to ipywidgets.IntSlider
        Keys ``"pos"``, ``"d"``, ``"k"``, ``"pair"``.
    numbers : ipywidgets.HTML
        The pair table and the dot product.
    image : ipywidgets.Image
        The figure as PNG bytes (``ExplorerFigure.png`` of the current values).
    widget : ipywidgets.VBox
        The whole app; displaying an ``Explorer`` displays it.

    Examples
    --------
    >>> app = Explorer(pos=3, d_model=4, offset=2)
    >>> app.sliders["pos"].value = 5
    >>> "PE[5] · PE[7]" in app.numbers.value
    True
    """

    def __init__(
        self,
        pos=1,
        d_model=8,
        offset=2,
        pair=0,
        *,
        max_pos=50,
        max_d_model=64,
        max_offset=20,
    ):
        max_pos = check_integer(max_pos, "max_pos", min_value=1)
        max_offset = check_integer(max_offset, "max_offset", min_value=1)
        max_d_model = check_d_model(max_d_model, "max_d_model")
        pos = check_index(pos, "pos", max_pos + 1, what="max_pos + 1")
        offset = check_index(offset, "offset", max_offset + 1, what="max_offset + 1")
        d_model = check_d_model(d_model)
        check_index(d_model, "d_model", max_d_model + 1, what="max_d_model + 1")
        pair = check_index(pair, "pair", d_model // 2, what="d_model // 2")
        self.figure = ExplorerFigure(n_positions=max_pos + max_offset + 1)
        self.sliders = {
            "pos": _slider("pos", pos, 0, max_pos),
            "d": _slider("d", d_model, 2, max_d_model, step=2),
            "k": _slider("k", offset, 0, max_offset),
            "pair": _slider("pair", pair, 0, d_model // 2 - 1),
        }
        for name, slider in self.sliders.items():
            slider.add_class(f"posenc-lecture-{name}")
        self.numbers = widgets.HTML()
        self.numbers.add_class("posenc-lecture-numbers")
        self.image = widgets.Image(format="png")
        self.image.add_class("posenc-lecture-figure")
        self.widget = self._layout()
        self._refresh()
        for slider in self.sliders.values():
            slider.observe(self._on_change, names="value")

    def _layout(self):
        s = self.sliders
        controls = widgets.HBox(
            [widgets.VBox([s["pos"], s["d"]]), widgets.VBox([s["k"], s["pair"]])]
        )
        body = widgets.HBox([self.image, self.numbers])
        self.numbers.layout = widgets.Layout(margin="0 0 0 16px")
        app = widgets.VBox([widgets.HTML(_CSS), controls, body])
        app.add_class("posenc-lecture")
        return app

    def values(self):
        """The current ``(pos, d_model, offset, pair)``."""
        s = self.sliders
        return s["pos"].value, s["d"].value, s["k"].value, s["pair"].value

    def _on_change(self, change):
        pair = self.sliders["pair"]
        n_pairs = self.sliders["d"].value // 2
        if pair.max != n_pairs - 1:
            pair.max = n_pairs - 1  # may clamp pair.value, which calls back here
        self._refresh()

    def _refresh(self):
        pos, d_model, offset, pair = self.values()
        pair = min(pair, d_model // 2 - 1)
        self.numbers.value = _numbers_html(pos, d_model, offset, pair)
        self.image.value = self.figure.update(pos, d_model, offset, pair).png()

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def explorer(pos=1, d_model=8, offset=2, **limits):
    """The lecture explorer, ready to display (the last line of a notebook cell).

    Parameters
    ----------
    pos, d_model, offset : int
        Starting values of the sliders ``pos``, ``d`` and ``k``.
    **limits
        ``max_pos``, ``max_d_model``, ``max_offset``: see :class:`Explorer`.

    Returns
    -------
    Explorer

    Raises
    ------
    TypeError, ValueError
        If a value is not an integer in its slider's range, or ``d_model`` is odd.

    Examples
    --------
    >>> app = explorer(pos=3, d_model=4, offset=0)
    >>> app.values()
    (3, 4, 0, 0)
    >>> explorer(d_model=7)
    Traceback (most recent call last):
    ...
    ValueError: d_model == 7, must be an even integer >= 2.
    """
    return Explorer(pos, d_model, offset, **limits)
