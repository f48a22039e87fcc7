"""The sliders of chapters 02 and 04, drawn in the browser.

:func:`position_explorer` (chapter 02): sliders ``pos`` and ``d_model``, the
bars of ``PE[pos]``, the heatmap of ``PE`` with the row of ``pos`` marked, and
its numbers pair by pair in a table of fixed height (the same as
:func:`~posenc_lib.figures.explorer.pair_table`), so nothing moves while a
slider is dragged; :func:`describe_position` gives them as text.
:class:`PairCircleExplorer` (chapter 04) is
:func:`~posenc_lib.figures.circles.pair_circle` with a slider for the offset.
Both are anywidget widgets (:mod:`posenc_lib.figures.browser`).
"""

import numpy as np
import traitlets

from ..formatting import format_number
from ..positional import frequencies, pos_encoding
from ..validation import check_d_model, check_index, check_integer, check_positions
from .browser import BrowserWidget, check_width

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
        ``"pair i (frequency f): sin a = s, cos a = c"`` for every pair, one
        line each, joined by ``";\n"`` (a long line would wrap mid-word on a
        screen); ``a = pos * f``, and ``s``, ``c`` to 4 decimals.

    Examples
    --------
    >>> print(describe_position(1, 4))
    pair 0 (frequency 1): sin 1 = 0.8415, cos 1 = 0.5403;
    pair 1 (frequency 0.01): sin 0.01 = 0.0100, cos 0.01 = 0.9999
    """
    pos = check_integer(pos, "pos", min_value=0)
    vector = pos_encoding(pos, d_model)  # (d_model,)
    parts = []
    for pair, frequency in enumerate(frequencies(d_model)):
        angle = f"{pos * frequency:.4g}"
        sin, cos = map(format_number, vector[2 * pair : 2 * pair + 2])
        sines = f"sin {angle} = {sin}, cos {angle} = {cos}"
        parts.append(f"pair {pair} (frequency {frequency:.4g}): {sines}")
    return ";\n".join(parts)


class PositionExplorer(BrowserWidget):
    """Sliders for ``pos`` (0 to ``max_pos``) and ``d_model`` (2 to ``max_d_model``).

    The browser draws from the state ``view`` (the table of the current
    ``d_model``), so a ``pos`` step needs no kernel. ``pos`` and ``d_model`` are
    the sliders' values; the chapter calls it ``position_explorer``.

    Parameters
    ----------
    pos : int, default 1
        Starting position.
    d_model : int, default 8
        Starting width, even.
    max_pos : int, default 50
        Largest position; the heatmap shows positions ``0 .. max_pos``.
    max_d_model : int, default 64
        Largest width, even; the slider steps by 2.

    Examples
    --------
    >>> explorer = position_explorer(pos=3, d_model=4)
    >>> explorer.drawn_row()  # PE[3] as the page draws it, to 4 decimals
    array([ 0.1411, -0.99  ,  0.03  ,  0.9996])
    >>> explorer.pos = 0  # what moving the slider does
    >>> explorer.drawn_row()
    array([0., 1., 0., 1.])
    >>> explorer.d_model = 2  # a d_model step: Python sends the new table
    >>> explorer.view["freq"], explorer.view["pe"][0]
    (['1'], [0, 10000])
    """

    def __init__(self, pos=1, d_model=8, *, max_pos=50, max_d_model=64):
        max_pos = check_integer(max_pos, "max_pos", min_value=1)
        max_d_model = check_d_model(max_d_model, name="max_d_model")
        pos = check_index(pos, "pos", max_pos + 1, what="max_pos + 1")
        d_model = check_width(d_model, max_d_model)
        limits = {"max_pos": max_pos, "max_d_model": max_d_model}
        super().__init__(kind="position", pos=pos, d_model=d_model, **limits)

    def __repr__(self):
        return f"PositionExplorer(pos={self.pos}, d_model={self.d_model})"


position_explorer = PositionExplorer  # chapter 02's name for it


class PairCircleExplorer(BrowserWidget):
    """:func:`~posenc_lib.figures.circles.pair_circle` with a slider for the offset.

    The dots of one pair for positions ``0 .. n_positions - 1`` on the unit
    circle and an arrow from each start to ``start + Δ``; a step of the slider
    (``offset``) moves only the arrows and the title, with no kernel round trip.

    Parameters
    ----------
    offset : int, default 3
        Starting offset ``Δ``, in ``0 .. max_offset``.
    d_model, pair, n_positions, starts
        As in :func:`~posenc_lib.figures.circles.pair_circle`.
    max_offset : int, default 15

    Examples
    --------
    >>> circle = PairCircleExplorer(offset=3, d_model=16, pair=1)
    >>> circle.offset = 4  # what moving the slider does
    >>> circle.arrow_points().shape  # (start, end) of the arrows from 0 and 5
    (2, 2, 2)
    >>> circle.arrow_points()[1, 1]  # pair 1 of PE[5 + 4], as the page draws it
    array([ 0.2913, -0.9566])
    >>> circle.view["shift"][4]
    ['pair 1 of d_model = 16: Δ = 4', 'turns by Δ·ω = 4 × 0.316 = 1.265 rad']
    """

    offset = traitlets.Int(3).tag(sync=True)
    max_offset = traitlets.Int(15).tag(sync=True)
    pair = traitlets.Int(1).tag(sync=True)
    n_positions = traitlets.Int(16).tag(sync=True)
    starts = traitlets.List().tag(sync=True)

    def __init__(
        self,
        offset=3,
        *,
        d_model=16,
        pair=1,
        n_positions=16,
        starts=(0, 5),
        max_offset=15,
    ):
        max_offset = check_integer(max_offset, "max_offset", min_value=0)
        offset = check_index(offset, "offset", max_offset + 1, what="max_offset + 1")
        d_model = check_d_model(d_model)
        pair = check_index(pair, "pair", d_model // 2, what="d_model // 2")
        n_positions = check_integer(n_positions, "n_positions", min_value=1)
        starts = [int(s) for s in check_positions(starts, name="starts")]
        max_pos = max(n_positions - 1, max(starts) + max_offset)
        limits = {"max_offset": max_offset, "max_pos": max_pos, "max_d_model": d_model}
        circle = {"pair": pair, "n_positions": n_positions, "starts": starts}
        super().__init__(
            kind="pair-circle", offset=offset, d_model=d_model, **circle, **limits
        )

    def __repr__(self):
        return f"PairCircleExplorer(offset={self.offset}, d_model={self.d_model})"

    def _view(self, d_model):
        view = super()._view(d_model)
        omega = frequencies(d_model)[self.pair]
        view["shift"] = [
            [
                f"pair {self.pair} of d_model = {d_model}: Δ = {offset}",
                f"turns by Δ·ω = {offset} × {omega:.3f} = {offset * omega:.3f} rad",
            ]
            for offset in range(self.max_offset + 1)
        ]
        return view

    def _widths(self):
        return []  # d_model is fixed: the view of the state is the only one

    def arrow_points(self):
        """Arrows now drawn, ``(n_starts, 2, 2)``: ``[i, 0]`` start, ``[i, 1]`` end.

        From the state the page draws (4 decimals).
        """
        pe, columns = self.view["pe"], slice(2 * self.pair, 2 * self.pair + 2)
        ends = [[pe[s][columns], pe[s + self.offset][columns]] for s in self.starts]
        return np.array(ends) / 10_000  # (n_starts, 2, 2)
