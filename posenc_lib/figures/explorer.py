r"""The course's explorers: anywidget widgets whose state is the sliders.

``static/explorer.js`` draws them in every host (JupyterLab, Voila, the slides, the
static site through :func:`static_html` and :func:`page_assets`) by the lines of
:func:`~posenc_lib.positional.sinusoidal_positions`, with no kernel; in a kernel the
page reports the row it drew (``drawn``) and the widget checks it (``problem``).
"""

import html
import json
from functools import partial
from pathlib import Path

import anywidget
import matplotlib as mpl
import numpy as np
import traitlets

from ..formatting import format_number
from ..positional import frequencies, pos_encoding, sinusoidal_positions
from ..validation import (
    check_array_size,
    check_d_model,
    check_index,
    check_instance,
    check_integer,
    check_positions,
)
from .style import PE_CMAP

__all__ = [
    "DRAWN_TOLERANCE",
    "STATIC",
    "BrowserWidget",
    "Explorer",
    "PairCircleExplorer",
    "PositionExplorer",
    "colour_map",
    "describe_position",
    "dot_line",
    "explorer",
    "page_assets",
    "pair_table",
    "position_explorer",
    "static_html",
]

STATIC = Path(__file__).with_name("static")  # explorer.js, explorer.css, embed.js
_STATE_TYPE = "application/vnd.posenc-widget+json"
#: How far the browser's ``PE`` may be from ``sinusoidal_positions``: the accuracy
#: it promises (the browser's own error is a few ulps of 70 rad, about 1e-14).
DRAWN_TOLERANCE = 1e-12
_PAGE = "a table in the page"


def colour_map(n_colours=64):
    """The heatmaps' colour map (``PE_CMAP``) from -1 to 1, as ``#rrggbb``.

    Examples
    --------
    >>> colour_map(3)
    ['#053061', '#f7f7f7', '#67001f']
    """
    n_colours = check_integer(n_colours, "n_colours", min_value=2, max_value=256)
    cmap = mpl.colormaps[PE_CMAP].resampled(n_colours)
    return [mpl.colors.to_hex(cmap(i)) for i in range(n_colours)]


def describe_position(pos, d_model):
    """``PE[pos]`` pair by pair, as the exercise card's "tap a position" view:
    ``"pair i (frequency f): sin a = s, cos a = c"`` per pair, ``a = pos * f``.

    Examples
    --------
    >>> print(describe_position(1, 4))
    pair 0 (frequency 1): sin 1 = 0.8415, cos 1 = 0.5403;
    pair 1 (frequency 0.01): sin 0.01 = 0.0100, cos 0.01 = 0.9999
    """
    return ";\n".join(
        f"pair {i} (frequency {w}): sin {a} = {sin}, cos {a} = {cos}"
        for i, w, a, sin, cos in _pair_cells(pos, d_model)
    )


def _pair_cells(pos, d_model):
    """Per pair of ``PE[pos]``: index, frequency and angle (4 significant digits),
    sine and cosine (4 decimals), as strings."""
    pos = check_integer(pos, "pos", min_value=0)
    vector = pos_encoding(pos, d_model)  # (d_model,)
    return [
        (str(i), f"{w:.4g}", f"{pos * w:.4g}", *map(format_number, vector[2 * i :][:2]))
        for i, w in enumerate(frequencies(d_model))
    ]


def pair_table(pos, d_model, *, pair=None):
    """HTML table of ``PE[pos]`` pair by pair (the first and last few when
    ``d_model > 16``), as the explorers draw it; row ``pair`` is bold.

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
    cells = _pair_cells(pos, d_model)
    head = ("pair", "ω", "pos·ω", "sin", "cos")
    rows = ["<tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    n = d_model // 2  # all pairs, or the first and last few (None: the gap)
    for i in range(n) if n <= 8 else [*range(6), None, n - 2, n - 1]:
        if i is None:
            rows.append('<tr><td>&#8942;</td><td colspan="4"></td></tr>')
            continue
        style = ' style="font-weight: bold"' if i == pair else ""
        tds = "".join(f"<td>{c}</td>" for c in cells[i])
        rows.append(f"<tr{style}>{tds}</tr>")
    return "<table>" + "\n".join(rows) + "</table>"


def dot_line(pos, d_model, offset):
    """The dot product ``PE[pos] . PE[pos + offset]`` as one line, to 4 decimals.

    Examples
    --------
    >>> dot_line(0, 2, 1)
    'PE[0] · PE[1] = 0.5403'
    """
    pos = check_integer(pos, "pos", min_value=0)
    offset = check_integer(offset, "offset", min_value=0)
    value = pos_encoding(pos, d_model) @ pos_encoding(pos + offset, d_model)
    return f"PE[{pos}] · PE[{pos + offset}] = {format_number(value)}"


def _check_sliders(pos, d_model, max_pos, max_d_model, max_offset=0):
    """The sliders' values and reach, checked, as widget state."""
    max_pos = check_integer(max_pos, "max_pos", min_value=1)
    max_d_model = check_d_model(max_d_model, "max_d_model")
    # the page computes PE for every row its sliders reach
    check_array_size((max_pos + max_offset + 1, max_d_model), "max_pos", what=_PAGE)
    pos = check_index(pos, "pos", max_pos + 1, what="max_pos + 1")
    d_model = check_d_model(d_model)
    if d_model > max_d_model:
        raise ValueError(
            f"d_model == {d_model}, must be an even integer in [2, {max_d_model}] "
            f"(max_d_model == {max_d_model})."
        )
    return dict(pos=pos, d_model=d_model, max_pos=max_pos, max_d_model=max_d_model)


class BrowserWidget(anywidget.AnyWidget):
    """What the explorers share: the module, the sliders, the check of what is drawn.

    ``drawn`` is the page's report (``pos``, ``d_model``, ``row``: the ``PE[pos]``
    it drew); ``problem`` says how far that row is from ``sinusoidal_positions``
    when more than :data:`DRAWN_TOLERANCE` (the page shows it), else is empty.
    """

    _esm = STATIC / "explorer.js"
    _css = STATIC / "explorer.css"
    _shown = ("pos", "d_model")  # what the repr shows
    kind = traitlets.Unicode("").tag(sync=True)
    pos = traitlets.Int(1).tag(sync=True)
    d_model = traitlets.Int(8).tag(sync=True)
    max_pos = traitlets.Int(50).tag(sync=True)
    max_d_model = traitlets.Int(64).tag(sync=True)
    cmap = traitlets.List().tag(sync=True)
    drawn = traitlets.Dict().tag(sync=True)  # written by the page
    problem = traitlets.Unicode("").tag(sync=True)  # written here

    def __init__(self, **state):
        super().__init__(cmap=colour_map(), **state)
        self.observe(self._check_drawn, names="drawn")

    def __repr__(self):
        shown = ", ".join(f"{name}={getattr(self, name)}" for name in self._shown)
        return f"{type(self).__name__}({shown})"

    def _check_drawn(self, change):
        pos, d_model, row = (change["new"].get(k) for k in ("pos", "d_model", "row"))
        if row is not None:
            expected = sinusoidal_positions([pos], d_model)[0]  # (d_model,)
            error = np.max(np.abs(np.asarray(row, dtype=float) - expected))
            off = f"PE[{pos}] drawn for d_model = {d_model} is {error:.1e} off"
            limit = f"sinusoidal_positions (more than {DRAWN_TOLERANCE})."
            self.problem = "" if error <= DRAWN_TOLERANCE else f"{off} {limit}"

    def drawn_row(self):
        """``PE[pos]`` as the page shows it, to 4 decimals: the page's report once
        it has drawn the sliders' values, before that the formula's."""
        drawn = self.drawn
        if (drawn.get("pos"), drawn.get("d_model")) == (self.pos, self.d_model):
            return np.round(np.asarray(drawn["row"], dtype=float), 4)
        return np.round(sinusoidal_positions([self.pos], self.d_model)[0], 4)

    def static_state(self):
        """The state a page without a kernel draws from (no private or report keys)."""
        state, skip = self.get_state(), {"drawn", "problem"}
        return {k: v for k, v in state.items() if k[0] != "_" and k not in skip}


def static_html(widget):
    """The widget as an HTML fragment for a page without a kernel: its
    :meth:`BrowserWidget.static_state` as JSON, drawn by :func:`page_assets`."""
    what = "a course explorer: PositionExplorer, PairCircleExplorer or Explorer"
    check_instance(widget, "widget", BrowserWidget, what=what)
    state = json.dumps(widget.static_state(), separators=(",", ":"))
    state = state.replace("</", "<\\/")  # never ends the script element early
    return (
        f'<div class="posenc-static" data-kind="{html.escape(widget.kind)}">'
        f'<script type="{_STATE_TYPE}">{state}</script></div>'
    )


def page_assets():
    """Inline ``<style>`` and classic ``<script>`` (``file://`` and offline: the
    ES module is imported from a ``blob:`` URL) drawing a page's :func:`static_html`."""
    css = (STATIC / "explorer.css").read_text(encoding="utf-8")
    module = json.dumps((STATIC / "explorer.js").read_text(encoding="utf-8"))
    shim = (STATIC / "embed.js").read_text(encoding="utf-8")
    script = f"window.POSENC_WIDGET_MODULE = {module};\n{shim}".replace("</", "<\\/")
    return f"<style>{css}</style>\n<script>{script}</script>\n"


class PositionExplorer(BrowserWidget):
    """Sliders for ``pos`` (0 to ``max_pos``) and ``d_model`` (2 to ``max_d_model``,
    in steps of 2); chapter 02 calls it ``position_explorer``.

    Examples
    --------
    >>> explorer = position_explorer(pos=3, d_model=4)
    >>> explorer.pos = 0  # what moving the slider does
    >>> explorer.drawn_row()  # PE[0] as the page shows it, to 4 decimals
    array([0., 1., 0., 1.])
    """

    def __init__(self, pos=1, d_model=8, *, max_pos=50, max_d_model=64):
        sliders = _check_sliders(pos, d_model, max_pos, max_d_model)
        super().__init__(kind="position", **sliders)


position_explorer = PositionExplorer  # chapter 02's name for it


class PairCircleExplorer(BrowserWidget):
    """:func:`~posenc_lib.figures.circles.pair_circle` with a slider for the
    offset (``0 .. max_offset``): a step moves only the arrows and the title.

    Examples
    --------
    >>> circle = PairCircleExplorer(offset=3, d_model=16, pair=1)
    >>> circle.offset = 4  # what moving the slider does
    >>> circle.arrow_points()[1, 1]  # pair 1 of PE[5 + 4], as the page draws it
    array([ 0.2913, -0.9566])
    """

    _shown = ("offset", "d_model")
    offset = traitlets.Int(3).tag(sync=True)
    max_offset = traitlets.Int(15).tag(sync=True)
    pair = traitlets.Int(1).tag(sync=True)
    n_positions = traitlets.Int(16).tag(sync=True)
    starts = traitlets.List().tag(sync=True)

    def __init__(
        self, offset=3, *, d_model=16, pair=1, n_positions=16, starts=(0, 5),
        max_offset=15,
    ):  # fmt: skip
        max_offset = check_integer(max_offset, "max_offset", min_value=0)
        offset = check_index(offset, "offset", max_offset + 1, what="max_offset + 1")
        d_model = check_d_model(d_model)
        pair = check_index(pair, "pair", d_model // 2, what="d_model // 2")
        n_positions = check_integer(n_positions, "n_positions", min_value=1)
        starts = [int(s) for s in check_positions(starts, name="starts")]
        max_pos = max(n_positions - 1, max(starts) + max_offset)
        check_array_size((max_pos + 1, d_model), "starts", what=_PAGE)
        limits = {"max_offset": max_offset, "max_pos": max_pos, "max_d_model": d_model}
        circle = {"pair": pair, "n_positions": n_positions, "starts": starts}
        super().__init__(
            kind="pair-circle", offset=offset, d_model=d_model, **circle, **limits
        )

    def arrow_points(self):
        """Arrows drawn now, ``(n_starts, 2, 2)``: ``[i, 0]`` start, ``[i, 1]`` end
        (pair ``self.pair`` of ``PE``, to 4 decimals)."""
        rows = [[s, s + self.offset] for s in self.starts]  # (n_starts, 2)
        table = sinusoidal_positions(np.ravel(rows), self.d_model)  # (2 n_starts, d)
        ends = table[:, 2 * self.pair : 2 * self.pair + 2].reshape(-1, 2, 2)
        return np.round(ends, 4)  # (n_starts, 2, 2)


class _Value:
    """An object whose ``.value`` is ``get()`` (and, set, calls ``put``)."""

    def __init__(self, get, put=None):
        self._get, self._put = get, put

    value = property(lambda self: self._get(), lambda self, v: self._put(v))


class Explorer(BrowserWidget):
    """The lecture's explorer: sliders ``pos``, ``d_model``, ``Δ`` (``offset``)
    and ``pair``; ``sliders[name].value`` (``"pos"``, ``"d"``, ``"offset"``,
    ``"pair"``) sets one, ``numbers.value`` is the dot product lines shown.

    Examples
    --------
    >>> app = explorer(pos=3, d_model=4, offset=2)  # the notebooks' name for it
    >>> app.sliders["pos"].value = 5
    >>> print(app.numbers.value)
    PE[5] · PE[7] = 0.5837
    = Σᵢ cos(Δ·ωᵢ) = 0.5837
    """

    _shown = ("pos", "d_model", "offset", "pair")
    offset = traitlets.Int(2).tag(sync=True)
    pair = traitlets.Int(0).tag(sync=True)
    max_offset = traitlets.Int(20).tag(sync=True)

    def __init__(
        self, pos=1, d_model=8, offset=2, pair=0, *, max_pos=50, max_d_model=64,
        max_offset=20,
    ):  # fmt: skip
        max_offset = check_integer(max_offset, "max_offset", min_value=1)
        offset = check_index(offset, "offset", max_offset + 1, what="max_offset + 1")
        sliders = _check_sliders(pos, d_model, max_pos, max_d_model, max_offset)
        pair = check_index(pair, "pair", sliders["d_model"] // 2, what="d_model // 2")
        super().__init__(
            kind="lecture", offset=offset, pair=pair, max_offset=max_offset, **sliders
        )
        names = {"pos": "pos", "d": "d_model", "offset": "offset", "pair": "pair"}
        self.sliders = {
            key: _Value(partial(getattr, self, n), partial(setattr, self, n))
            for key, n in names.items()
        }
        self.numbers = _Value(self._dot_text)
        self.observe(self._clamp_pair, names="d_model")

    def _clamp_pair(self, change):
        self.pair = min(self.pair, self.d_model // 2 - 1)

    def _dot_text(self):
        line = dot_line(self.pos, self.d_model, self.offset)
        return f"{line}\n= Σᵢ cos(Δ·ωᵢ) = {line.rsplit(' = ', 1)[1]}"


explorer = Explorer  # the notebooks' name for it
