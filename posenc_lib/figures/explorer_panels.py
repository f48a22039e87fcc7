"""The lecture explorer's figure: bars of PE[pos], the heatmap, one pair's circle.

Drawn on matplotlib's Agg canvas (no pyplot) with a fixed layout and blitting, so
that a slider step redraws only the artists that move;
:mod:`posenc_lib.figures.explorer` wires it to the sliders. The PNG is large
(``SIZE`` inches at ``DPI``, 1110 x 765 px) and the page scales it down to the
screen, so it stays sharp on a 1920 x 1080 projector.
"""

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import blended_transform_factory

from ..positional import frequencies, pos_encoding, sinusoidal_positions
from ..validation import check_integer
from .circles import unit_circle
from .encoding import plot_encoding_bars
from .style import Blitter, heatmap, set_rows

__all__ = ["DPI", "SIZE", "ExplorerFigure", "circle_title"]

SIZE = (7.4, 5.1)  # inches
DPI = 150  # 1110 x 765 px; a 15 pt label is 31 px before the page scales it

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
            self.figure = Figure(figsize=SIZE, dpi=DPI)
            FigureCanvasAgg(self.figure)
            add = self.figure.add_axes  # a fixed layout: (left, bottom, width, height)
            self.bars_ax = add((0.09, 0.67, 0.89, 0.26))
            self.heat_ax = add((0.09, 0.11, 0.36, 0.33))
            self._colorbar_ax = add((0.465, 0.11, 0.015, 0.33))
            self.circle_ax = add((0.6, 0.15, 0.38, 0.25))
            self._setup_static()
        self._d_model = None
        self._blitter = Blitter(self.figure, self._moving, rc=_rc)

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
        return self._blitter.png()

    def _moving(self):
        """The artists redrawn at every step."""
        titles = [self._bars_title, self._circle_title]
        marks = [self._row, self._shifted_row, self._arc, self._start, self._end]
        return [*self._bars, *marks, *titles]

    def _setup_width(self, d_model):
        """Artists that depend on ``d_model``: the bars and the heatmap's table."""
        self._d_model = d_model
        self._blitter.invalidate()
        self.bars_ax.clear()
        plot_encoding_bars(np.zeros(d_model), ax=self.bars_ax)
        self._bars = list(self.bars_ax.patches)
        self._bars_title = _title(self.bars_ax, 0, "left")
        for bar in self._bars:
            bar.set(animated=True, linewidth=2.5)
        self.bars_ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        table = sinusoidal_positions(range(self.n_positions), d_model)  # (n, d_model)
        self._heatmap.set_data(table)
        set_rows(self._heatmap)

    def _setup_static(self):
        """Axes, labels and artists that exist whatever the values."""
        ax = self.heat_ax
        table = np.zeros((self.n_positions, 2))  # (n_positions, d_model), for now
        self._heatmap = heatmap(ax, table)
        ax.set(xlabel="column k", ylabel="position")
        ax.xaxis.set_major_locator(MaxNLocator(5, integer=True))  # d_model = 2: 0, 1
        ax.set_title("PE: rows pos and pos + Δ", fontsize=15)
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
        self._bars_title.set_text(f"PE[{pos}], d_model = {self._d_model}")
        self._row.set_y(pos - 0.5)
        self._shifted_row.set_y(pos + offset - 0.5)
        self._shifted_row.set_visible(pos + offset < self.n_positions)

    def _setup_circle(self):
        ax = self.circle_ax
        unit_circle(ax)
        ax.axhline(0, color="0.85", linewidth=0.8)
        ax.axvline(0, color="0.85", linewidth=0.8)
        (self._arc,) = ax.plot([], [], color="0.2", linewidth=2.5, animated=True)
        (self._start,) = ax.plot([], [], "o", color="tab:blue", ms=13, animated=True)
        (self._end,) = ax.plot(
            [], [], "o", color="k", ms=13, mfc="none", mew=2.5, animated=True
        )
        ax.set(xlabel="sin", ylabel="cos")
        self._circle_title = _title(ax, 0.5, "center")
        self.figure.legend(  # below the circle, smaller than the points it names
            [self._start, self._end],
            ["at pos", "at pos + Δ"],
            loc="lower center",
            bbox_to_anchor=(0.79, 0.0),
            ncols=2,
            frameon=True,
            fontsize=13,
            markerscale=0.6,
            handletextpad=0.3,
            columnspacing=1.2,
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
        self._circle_title.set_text(circle_title(pair, offset, omega))


def circle_title(pair, offset, omega):
    """The circle's title: the angle ``Δ·ω`` and what is left of it after whole turns.

    Examples
    --------
    >>> print(circle_title(0, 20, 1.0))
    pair 0: Δ·ω = 20 rad
    = 3 turns + 1.15 rad
    >>> print(circle_title(1, 2, 0.1))
    pair 1: Δ·ω = 0.2 rad
    """
    angle = offset * omega
    turns = int(angle // (2 * np.pi))
    head = f"pair {pair}: Δ·ω = {angle:.3g} rad"
    if turns == 0:
        return head
    rest = angle - 2 * np.pi * turns
    unit = "turn" if turns == 1 else "turns"
    return f"{head}\n= {turns} {unit} + {rest:.3g} rad"


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
