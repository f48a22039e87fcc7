"""Text alternatives for the course's figures: what each picture shows, in words.

Every stored figure carries an ``alt`` text in its output's metadata (stored by
:func:`install_alt_text`), which the site's and the slides' ``<img>`` tags carry.
"""

from matplotlib.figure import Figure

from ..validation import check_instance

__all__ = ["check_figure", "describe_figure", "figure_description", "install_alt_text"]

_ALT = "posenc_description"  # the figure attribute describe_figure sets


def check_figure(figure):
    """Return ``figure`` if it is a matplotlib Figure, or raise a TypeError."""
    return check_instance(figure, "figure", Figure, what="a matplotlib Figure")


def describe_figure(figure, text):
    """Say what ``figure`` shows, in one or two sentences; returns ``figure``.

    Each call adds its sentence (once), so each panel's helper can describe it.

    Examples
    --------
    >>> figure = describe_figure(Figure(), "An empty figure.")
    >>> figure = describe_figure(figure, "An empty figure.")  # said once
    >>> figure_description(describe_figure(figure, "Nothing is drawn."))
    'An empty figure. Nothing is drawn.'
    >>> describe_figure(Figure(), " ")
    Traceback (most recent call last):
    ...
    ValueError: text == ' ', must be a non-empty description of the figure.
    """
    check_figure(figure)
    check_instance(text, "text", str, what="a str describing the figure")
    if not text.strip():
        raise ValueError(
            f"text == {text!r}, must be a non-empty description of the figure."
        )
    sentences = getattr(figure, _ALT, [])
    setattr(figure, _ALT, list(dict.fromkeys([*sentences, text.strip()])))
    return figure


def _legend_words(legends):
    """``["legend: a, b"]`` for the legends' non-empty entries, or ``[]``."""
    entries = [t.get_text() for lg in legends if lg for t in lg.get_texts()]
    return ["legend: " + ", ".join(e for e in entries if e)] if any(entries) else []


def _axes_words(ax):
    """What one panel names: title; x and y labels; legend entries."""
    words = [ax.get_title()] if ax.get_title() else []
    labels = {"x": ax.get_xlabel(), "y": ax.get_ylabel()}
    words += [f"{axis}: {label}" for axis, label in labels.items() if label]
    return "; ".join(words + _legend_words([ax.get_legend()]))


def figure_description(figure):
    """The text alternative of ``figure``: its description, then its titles, axis
    labels and legend entries (``"A figure without labels."`` if none).

    Examples
    --------
    >>> figure = Figure()
    >>> ax = figure.add_subplot()
    >>> ax.set(title="PE[3]", xlabel="column k", ylabel="value")
    [Text(0.5, 1.0, 'PE[3]'), Text(0.5, 0, 'column k'), Text(0, 0.5, 'value')]
    >>> figure_description(figure)
    'Panel: PE[3]; x: column k; y: value.'
    >>> figure_description(describe_figure(figure, "One position's bars."))
    "One position's bars. Panel: PE[3]; x: column k; y: value."
    """
    parts = list(getattr(check_figure(figure), _ALT, []))
    suptitle = getattr(figure, "_suptitle", None)  # get_suptitle: matplotlib >= 3.8
    if suptitle is not None and suptitle.get_text():
        parts.append(f"Title: {suptitle.get_text()}.")
    panels = [words for words in map(_axes_words, figure.axes) if words]
    panels += _legend_words(figure.legends)
    if panels:
        name = "Panel" if len(panels) == 1 else f"{len(panels)} panels"
        parts.append(f"{name}: " + " | ".join(panels) + ".")
    return " ".join(parts) or "A figure without labels."


def install_alt_text(shell):
    """Make IPython ``shell``'s PNG formatter attach :func:`figure_description`
    as ``alt`` (after the inline backend is set up; wraps only once)."""
    if not hasattr(shell, "display_formatter"):
        raise TypeError(
            f"shell == {shell!r}, must be an IPython shell (get_ipython())."
        )
    formatter = shell.display_formatter.formatters["image/png"]
    try:
        draw = formatter.lookup_by_type(Figure)
    except KeyError:  # no inline backend: nothing to describe
        return
    draw = getattr(draw, "__wrapped__", draw)

    def png_with_alt(figure):
        png = draw(figure)
        return None if png is None else (png, {"alt": figure_description(figure)})

    png_with_alt.__wrapped__ = draw
    formatter.for_type(Figure, png_with_alt)
