r"""The lecture explorer: one screen to project while talking about the encoding.

Four sliders: ``pos`` (the position), ``d_model`` (the width, in steps of 2),
``Δ`` (an offset) and ``pair`` (which (sin, cos) pair to follow on the circle).
They drive

* the encoding ``PE[pos]`` as bars, and beside it a table of each pair's
  frequency ``ω``, angle ``pos·ω``, sine and cosine;
* the heatmap of ``PE`` (positions x columns k) with rows ``pos`` and
  ``pos + Δ`` marked;
* one pair's point ``(sin a, cos a)`` on the unit circle and where the offset
  ``Δ`` rotates it: by the angle ``Δ·ω_i``, whatever ``pos`` is;
* the dot product ``PE[pos] · PE[pos + Δ] = Σ_i cos(Δ·ω_i)``, which depends
  on ``Δ`` only.

:class:`Explorer` is drawn in the browser from numbers posenc_lib computed
(:mod:`posenc_lib.figures.browser`): in JupyterLab, in Voila (``make explorer``),
on the static site and in the slides.

The page fits any screen from 1024 x 768 up: the pictures are SVG that scale
with the space left beside the numbers (never taller than the window).

CSS classes, for styling and for the browser tests: ``posenc-lecture`` (the
whole app), ``posenc-numbers`` (the table and the dot product), ``posenc-dot``
(the dot product line), ``posenc-bars``, ``posenc-heatmap``, ``posenc-circle``
(the pictures, each ``role="img"`` with a text alternative), and
``posenc-slider-pos``, ``-d_model``, ``-offset``, ``-pair`` (the sliders).
"""

import traitlets

from ..formatting import format_number
from ..positional import frequencies, pos_encoding
from ..validation import check_d_model, check_index, check_integer
from .browser import BrowserWidget, check_width, table_pairs, width_view

__all__ = ["Explorer", "dot_line", "explorer", "pair_table"]


def pair_table(pos, d_model, *, pair=None):
    """HTML table of ``PE[pos]`` pair by pair: frequency, angle, sine and cosine.

    The explorers show this table (drawn in the browser from their state); this
    is the same table computed straight from the library, to check them against.

    Parameters
    ----------
    pos : int
        A non-negative position.
    d_model : int
        Width of the encoding, an even integer >= 2.
    pair : int, optional
        A pair to highlight (bold), as the one followed on the unit circle; in
        ``[0, d_model // 2)``.

    Returns
    -------
    str
        A ``<table>`` with one row per pair (the first and last pairs only when
        ``d_model > 16``, so at most 9 rows), angles to 4 significant digits,
        sines and cosines to 4 decimals.

    Examples
    --------
    >>> print(pair_table(1, 2))
    <table><tr><th>pair</th><th>ω</th><th>pos·ω</th><th>sin</th><th>cos</th></tr>
    <tr><td>0</td><td>1</td><td>1</td><td>0.8415</td><td>0.5403</td></tr></table>
    """
    pos = check_integer(pos, "pos", min_value=0)
    d_model = check_d_model(d_model)
    if pair is not None:
        pair = check_index(pair, "pair", d_model // 2, what="d_model // 2")
    encoding = pos_encoding(pos, d_model)  # (d_model,)
    omega = frequencies(d_model)  # (d_model // 2,)
    head = ("pair", "ω", "pos·ω", "sin", "cos")
    rows = ["<tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    for i in table_pairs(d_model // 2):
        if i is None:
            rows.append('<tr><td>&#8942;</td><td colspan="4"></td></tr>')
            continue
        sin, cos = encoding[2 * i], encoding[2 * i + 1]
        style = ' style="font-weight: bold"' if i == pair else ""
        angle, sin_cos = f"{pos * omega[i]:.4g}", map(format_number, (sin, cos))
        cells = (str(i), f"{omega[i]:.4g}", angle, *sin_cos)
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
    offset = check_integer(offset, "offset", min_value=0)
    value = pos_encoding(pos, d_model) @ pos_encoding(pos + offset, d_model)
    return f"PE[{pos}] · PE[{pos + offset}] = {format_number(value)}"


class _Value:
    """``.value`` of one of a widget's traits (what ``sliders["pos"]`` was)."""

    def __init__(self, widget, name):
        self._widget, self._name = widget, name

    @property
    def value(self):
        return getattr(self._widget, self._name)

    @value.setter
    def value(self, value):
        setattr(self._widget, self._name, value)


class _Numbers:
    """The numbers panel's text, as the browser writes it from the state."""

    def __init__(self, widget):
        self._widget = widget

    @property
    def value(self):
        return self._widget.dot_text()


class Explorer(BrowserWidget):
    """The explorer app: sliders, the pictures and the numbers, drawn in the browser.

    Parameters
    ----------
    pos, d_model, offset, pair : int
        Starting values of the sliders ``pos``, ``d_model``, ``Δ`` and ``pair``.
    max_pos, max_d_model, max_offset : int
        Largest values the sliders reach.

    Attributes
    ----------
    pos, d_model, offset, pair : int
        The sliders' values (synced with the browser).
    view : dict
        The numbers drawn for the current ``d_model``
        (:func:`~posenc_lib.figures.browser.width_view`).
    sliders : dict
        ``sliders[name].value`` for ``"pos"``, ``"d"``, ``"offset"``, ``"pair"``.
    numbers : object
        ``numbers.value``: the dot product lines the page shows now.

    Raises
    ------
    TypeError, ValueError
        If a value is not an integer in its slider's range, or ``d_model`` is odd.

    Examples
    --------
    >>> app = explorer(pos=3, d_model=4, offset=2)  # the notebooks' name for it
    >>> app.values()
    (3, 4, 2, 0)
    >>> app.sliders["pos"].value = 5
    >>> "PE[5] · PE[7]" in app.numbers.value
    True
    >>> app.d_model = 2  # what the d_model slider does: a new table, pair clamped
    >>> app.view["d_model"], app.pair
    (2, 0)
    """

    offset = traitlets.Int(2).tag(sync=True)
    pair = traitlets.Int(0).tag(sync=True)
    max_offset = traitlets.Int(20).tag(sync=True)

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
        d_model = check_width(d_model, max_d_model)
        pair = check_index(pair, "pair", d_model // 2, what="d_model // 2")
        super().__init__(
            kind="lecture", pos=pos, d_model=d_model, offset=offset, pair=pair,
            max_pos=max_pos, max_d_model=max_d_model, max_offset=max_offset,
        )  # fmt: skip
        names = {"pos": "pos", "d": "d_model", "offset": "offset", "pair": "pair"}
        self.sliders = {key: _Value(self, name) for key, name in names.items()}
        self.numbers = _Numbers(self)

    def __repr__(self):
        pos, d_model, offset, pair = self.values()
        return f"Explorer(pos={pos}, d_model={d_model}, offset={offset}, pair={pair})"

    def _view(self, d_model):
        n_positions = self.max_pos + self.max_offset + 1  # every pos + Δ
        return width_view(d_model, n_positions, self.max_offset)

    def _width_changed(self, change=None):
        self.pair = min(self.pair, self.d_model // 2 - 1)
        super()._width_changed(change)

    def values(self):
        """The current ``(pos, d_model, offset, pair)``."""
        return self.pos, self.d_model, self.offset, self.pair

    def dot_text(self):
        """The dot product lines under the table, from the state the page draws."""
        pos, offset = self.pos, self.offset
        sim = self.view["sim"][offset]
        return f"PE[{pos}] · PE[{pos + offset}] = {sim}\n= Σᵢ cos(Δ·ωᵢ) = {sim}"


explorer = Explorer  # the notebooks' name for it
