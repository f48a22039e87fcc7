r"""The lecture explorer: one screen to project while talking about the encoding.

Four sliders: ``pos`` (the position), ``d_model`` (the width, in steps of 2),
``Δ`` (an offset) and ``pair`` (which (sin, cos) pair to follow on the circle).
They drive

* the encoding ``PE[pos]`` as bars, and beside it a table of each pair's
  frequency, angle, sine and cosine;
* the heatmap of ``PE`` (positions x columns k) with rows ``pos`` and
  ``pos + Δ`` marked;
* one pair's point ``(sin a, cos a)`` on the unit circle and where the offset
  ``Δ`` rotates it: by the angle ``Δ·ω_i``, whatever ``pos`` is;
* the dot product ``PE[pos] · PE[pos + Δ] = Σ_i cos(Δ·ω_i)``, which depends
  on ``Δ`` only.

The figure (:class:`posenc_lib.figures.explorer_panels.ExplorerFigure`) is drawn with
matplotlib's Agg canvas straight to PNG bytes shown in an ``ipywidgets.Image`` (no
pyplot, no output widget), updating the existing artists on each step; the numbers
are an ``ipywidgets.HTML`` updated before the figure, so they follow the slider at
once. Fonts are large enough for a projector.

The page fits any screen from 1024 x 768 up: sliders and panels wrap (flexbox),
the image scales down (``max-width: 100%; height: auto``, and never taller than
the window), and below about 1000 px the table moves under the figure. At
1920 x 1080 the figure and the table fill most of the width.

CSS classes, for styling and for the browser tests: ``posenc-lecture`` (the
whole app), ``posenc-lecture-numbers`` (the table and the dot product),
``posenc-lecture-dot`` (the dot product line), ``posenc-lecture-figure``
(the image), ``posenc-lecture-pos``, ``-d``, ``-offset``, ``-pair`` (the
sliders).

Serve it without code with ``make explorer`` (Voila, on 127.0.0.1).
"""

import base64
import html

import ipywidgets as widgets

from ..formatting import format_number
from ..positional import frequencies, pos_encoding
from ..properties import offset_similarity
from ..validation import check_d_model, check_index, check_integer
from .explorer_panels import ExplorerFigure, circle_title

__all__ = [
    "Explorer",
    "ExplorerFigure",
    "circle_title",
    "dot_line",
    "explorer",
    "pair_table",
]

_MAX_TABLE_PAIRS = 8  # wider encodings show the first and last pairs only
_CSS = """<style>
.posenc-lecture { font-size: 20px; max-width: 100%; box-sizing: border-box; }
.posenc-lecture .widget-label, .posenc-lecture .widget-readout,
.posenc-lecture .widget-label-basic { font-size: 20px; }
.posenc-lecture .widget-readout { min-width: 3.2em; }
.posenc-lecture .widget-slider { max-width: 100%; }
.posenc-lecture-body { align-items: flex-start; gap: 8px 20px; }
.posenc-lecture-figure { flex: 1 1 560px; min-width: 0; max-width: 100%;
  width: auto; height: auto; max-height: calc(100vh - 150px);
  object-fit: contain; object-position: left top; }
.posenc-lecture-numbers { flex: 0 1 auto; min-width: 0; max-width: 100%; }
.posenc-lecture-numbers table { border-collapse: collapse; font-size: 19px;
  font-variant-numeric: tabular-nums; }
.posenc-lecture-numbers th, .posenc-lecture-numbers td {
  padding: 2px 10px; text-align: right; }
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
    """HTML table of ``PE[pos]`` pair by pair: frequency, angle, sine and cosine.

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
        ``d_model > 16``, so at most 9 rows), angles to 4 significant digits,
        sines and cosines to 4 decimals.

    Examples
    --------
    >>> print(pair_table(1, 2))
    <table><tr><th>pair</th><th>ω</th><th>pos·ω</th><th>sin</th><th>cos</th></tr>
    <tr><td>0</td><td>1</td><td>1</td><td>0.8415</td><td>0.5403</td></tr></table>
    """
    pos = check_integer(pos, "pos", min_value=0)
    encoding = pos_encoding(pos, d_model)  # (d_model,)
    omega = frequencies(d_model)  # (d_model // 2,)
    head = ("pair", "ω", "pos·ω", "sin", "cos")
    rows = ["<tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    for i in _table_pairs(d_model // 2):
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


def _numbers_html(pos, d_model, offset, pair):
    """The right-hand panel: the pair table and the dot product."""
    closed_form = offset_similarity([offset], d_model)[0]
    sum_of_cos = "&Sigma;<sub>i</sub> cos(&Delta;&middot;&omega;<sub>i</sub>)"
    return (
        f"<h3>PE[{pos}], d_model = {d_model}</h3>"
        f"{pair_table(pos, d_model, pair=pair)}"
        f'<div class="posenc-lecture-dot">{html.escape(dot_line(pos, d_model, offset))}'
        f"<br>= {sum_of_cos} = {format_number(closed_form)}<br>"
        f"<small>the same for every pos; d_model/2 = {d_model // 2} at &Delta; = 0"
        "</small></div>"
    )


def _slider(description, value, low, high, step=1):
    return widgets.IntSlider(
        value=value,
        min=low,
        max=high,
        step=step,
        description=description,
        continuous_update=True,
        style={"description_width": "5.2em"},
        layout=widgets.Layout(width="440px", max_width="100%"),
    )


class Explorer:
    """The explorer app: sliders, the figure and the numbers, wired together.

    Parameters
    ----------
    pos, d_model, offset, pair : int
        Starting values of the sliders ``pos``, ``d_model``, ``Δ`` and ``pair``.
    max_pos, max_d_model, max_offset : int
        Largest values the sliders reach.

    Attributes
    ----------
    sliders : dict of str to ipywidgets.IntSlider
        Keys ``"pos"``, ``"d"``, ``"offset"``, ``"pair"``.
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
        if d_model > max_d_model:
            raise ValueError(
                f"d_model == {d_model}, must be an even integer in [2, {max_d_model}] "
                f"(max_d_model == {max_d_model})."
            )
        pair = check_index(pair, "pair", d_model // 2, what="d_model // 2")
        self.figure = ExplorerFigure(n_positions=max_pos + max_offset + 1)
        self.sliders = {
            "pos": _slider("pos", pos, 0, max_pos),
            "d": _slider("d_model", d_model, 2, max_d_model, step=2),
            "offset": _slider("Δ", offset, 0, max_offset),
            "pair": _slider("pair", pair, 0, d_model // 2 - 1),
        }
        for name, slider in self.sliders.items():
            slider.add_class(f"posenc-lecture-{name}")
        self._pair_range = d_model // 2 - 1  # the pair slider's max when made
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
        wrap = widgets.Layout(flex_flow="row wrap", max_width="100%")
        self._right = widgets.VBox(
            [s["offset"], s["pair"]], layout={"max_width": "100%"}
        )
        controls = widgets.HBox(
            [
                widgets.VBox([s["pos"], s["d"]], layout={"max_width": "100%"}),
                self._right,
            ],
            layout=wrap,
        )
        body = widgets.HBox([self.image, self.numbers], layout=wrap)
        body.add_class("posenc-lecture-body")
        app = widgets.VBox([widgets.HTML(_CSS), controls, body])
        app.layout = widgets.Layout(width="100%")
        app.add_class("posenc-lecture")
        return app

    def values(self):
        """The current ``(pos, d_model, offset, pair)``."""
        s = self.sliders
        return s["pos"].value, s["d"].value, s["offset"].value, s["pair"].value

    def _on_change(self, change):
        pair = self.sliders["pair"]
        top = self.sliders["d"].value // 2 - 1
        if top > self._pair_range:
            self._new_pair_slider(top)
        elif pair.max != top:
            pair.max = top  # clamps pair.value, which calls back here once more
        self._refresh()

    def _new_pair_slider(self, top):
        """Replace the pair slider by one reaching ``top``, at the same value.

        In the browser (noUiSlider 15), the End key goes to the largest value the
        slider had when it was first drawn, whatever ``max`` says now: so a
        wider ``d_model`` needs a new slider. (A narrower one only lowers
        ``max``: End then overshoots and the value is clamped to the new max.)
        """
        old = self.sliders["pair"]
        new = _slider("pair", old.value, 0, top)
        new.add_class("posenc-lecture-pair")
        new.observe(self._on_change, names="value")
        self.sliders["pair"], self._pair_range = new, top
        self._right.children = (self.sliders["offset"], new)
        old.unobserve(self._on_change, names="value")
        old.close()

    def _refresh(self):
        pos, d_model, offset, pair = self.values()
        pair = min(pair, d_model // 2 - 1)
        self.numbers.value = _numbers_html(pos, d_model, offset, pair)
        self.image.value = self.figure.update(pos, d_model, offset, pair).png()

    def _repr_mimebundle_(self, **kwargs):
        """The widget, and a still PNG of it for pages without widgets (slides)."""
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["image/png"] = base64.b64encode(self.image.value).decode("ascii")
        return bundle


def explorer(pos=1, d_model=8, offset=2, **limits):
    """The lecture explorer, ready to display (the last line of a notebook cell).

    Parameters
    ----------
    pos, d_model, offset : int
        Starting values of the sliders ``pos``, ``d_model`` and ``Δ``.
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
