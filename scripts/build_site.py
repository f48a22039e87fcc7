"""Build the offline HTML edition of the course: ``make site`` writes ``site/``.

Every notebook under ``notebooks/`` becomes one page, from its stored outputs (no
notebook is executed): nbconvert's lab template without anything from a CDN
(``scripts/site/posenc_site``), MathJax 2 from the npm registry copied into
``site/mathjax/``, a navigation bar (previous / index / next, in course order),
and links between notebooks rewritten from ``.ipynb`` to ``.html``.

The slider widgets of the chapters have no kernel here. Each widget output is
replaced by a static counterpart: native ``<input type="range">`` sliders drawn
by ``scripts/site/static/sliders.js`` from numbers posenc_lib computes now, at
build time, into ``site/static/posenc-data.js``:

- ``pe[d][pos]``: ``pos_encoding(pos, d)`` for every width and position a slider
  reaches, each number as ``format_number`` prints it (4 decimals, stored as an
  integer count of 1e-4, so the page shows exactly the notebook's digits);
- ``freq[d]``: ``frequencies(d)``, from which the page computes the angles
  ``pos * frequency`` and prints them as Python's ``.4g`` does;
- ``sim[d][k]``: ``PE[pos] . PE[pos + k]`` to 4 decimals; the build checks that it
  is the same for every ``pos`` a slider reaches (and equals ``offset_similarity``).

A widget this script does not know is shown as a note (open the notebook in
JupyterLab), never as its text repr. Widget cells are found from the notebook
JSON (the widget-view output, its text repr, the call in the cell's code), so
moving the widget classes between modules changes nothing here.

Usage: ``python scripts/build_site.py [--out DIR]``; MathJax's npm tarball is
kept in ``.site-cache/`` (``npm pack``, checked against its registry integrity).
"""

import argparse
import ast
import base64
import hashlib
import html
import json
import re
import shutil
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter

from posenc_lib import frequencies, offset_similarity, pos_encoding
from posenc_lib.formatting import format_number

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SITE_FILES = ROOT / "scripts" / "site"
CACHE = ROOT / ".site-cache"

MATHJAX = "mathjax@2.7.9"
MATHJAX_INTEGRITY = (
    "sha512-NOGEDTIM9+MrsqnjPEjVGNx4q0GQxqm61yQwSK+/5S59i26wId5IC5gNu9/bu8+CCVl5p9G2"
    "IHcAl/wJa+5+BQ=="
)
MATHJAX_CONFIG = "mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe"
# What the CommonHTML output needs (about 1.3 MB of the package's 73 MB); the
# a11y explorer (3.8 MB, opt-in from MathJax's menu) is left out.
MATHJAX_KEEP = re.compile(
    r"(LICENSE|MathJax\.js|config/(TeX-AMS_CHTML-full|Safe)\.js"
    r"|extensions/(?!a11y/).*\.js|jax/element/.*|jax/output/CommonHTML/.*"
    r"|fonts/HTML-CSS/TeX/woff/.*)"
)

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
NBVAL_MARKER = re.compile(r"^\s*# NBVAL_\w+\s*\n?", re.MULTILINE)
IPYNB_LINK = re.compile(r'href="(?![a-z][a-z0-9+.-]*:)([^"#]*?)\.ipynb(#[^"]*)?"')

# The slider widgets: the calls that make them, the text repr of their output,
# their arguments in order, and their defaults (tests/test_build_site.py checks
# these against the widget classes' signatures).
WIDGETS = {
    "position": {
        "calls": ("position_explorer", "PositionExplorer"),
        "repr": "PositionExplorer(",
        "params": ("pos", "d_model"),
        "defaults": {"pos": 1, "d_model": 8, "max_pos": 50, "max_d_model": 64},
    },
    "pair-circle": {
        "calls": ("PairCircleExplorer",),
        "repr": "PairCircleExplorer(",
        "params": ("offset",),
        "defaults": {
            "offset": 3,
            "d_model": 16,
            "pair": 1,
            "n_positions": 16,
            "starts": (0, 5),
            "max_offset": 15,
        },
    },
    "lecture": {
        "calls": ("explorer", "Explorer"),
        "repr": "posenc-lecture",
        "params": ("pos", "d_model", "offset", "pair"),
        "defaults": {
            "pos": 1,
            "d_model": 8,
            "offset": 2,
            "pair": 0,
            "max_pos": 50,
            "max_d_model": 64,
            "max_offset": 20,
        },
    },
}


@dataclass
class Page:
    """One notebook of the course and the HTML page made from it."""

    source: Path  # relative to notebooks/
    title: str
    parent: "Page | None" = None  # for pages in a sub-folder: the chapter above
    children: list = field(default_factory=list)

    @property
    def href(self):
        """The page's path inside the site, e.g. ``solutions/05_exercise.html``."""
        return self.source.with_suffix(".html").as_posix()

    @property
    def prefix(self):
        """From this page back to the site's root: ``""`` or ``"../"`` ..."""
        return "../" * (len(self.source.parts) - 1)


# ---------------------------------------------------------------- the pages


def notebook_title(notebook, fallback):
    """The text of the notebook's first ``#`` heading, without markdown marks."""
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        match = re.search(r"^#\s+(.+)$", cell.source, re.MULTILINE)
        if match:
            return re.sub(r"[*`$]", "", match.group(1)).strip()
    return fallback


def _course_key(path):
    """Index first, then by file name."""
    return ("index" not in path.stem.lower(), path.name)


def course_pages(notebooks=NOTEBOOKS):
    """Every notebook as a :class:`Page`: the chapters in course order, then the
    pages of sub-folders, each attached to the chapter that mentions it."""
    paths = sorted(notebooks.rglob("*.ipynb"))
    paths = [p for p in paths if ".ipynb_checkpoints" not in p.parts]
    texts = {p: p.read_text(encoding="utf-8") for p in paths}
    notebooks_by_path = {p: nbformat.reads(texts[p], as_version=4) for p in paths}

    def page(path):
        title = notebook_title(notebooks_by_path[path], path.stem)
        return Page(path.relative_to(notebooks), title)

    top = [
        page(p)
        for p in sorted((p for p in paths if p.parent == notebooks), key=_course_key)
    ]
    subs = [page(p) for p in paths if p.parent != notebooks]
    for sub in subs:  # "solutions: 05 · Exercise", not the chapter's own title
        sub.title = f"{sub.source.parent.as_posix()}: {sub.title}"
        sub.parent = _parent(sub, top, texts, notebooks)
        sub.parent.children.append(sub)
    return top + subs


def _parent(sub, top, texts, notebooks):
    """The chapter that names ``sub`` (e.g. ``solutions/05_exercise.ipynb``), else
    the chapter with the same file name or number, else the index."""
    name = sub.source.as_posix()
    for chapter in top:
        if name in texts[notebooks / chapter.source]:
            return chapter
    number = re.match(r"\d+", sub.source.name)
    for chapter in top:
        if chapter.source.name == sub.source.name:
            return chapter
    for chapter in top:
        if number and chapter.source.name.startswith(number.group()):
            return chapter
    return top[0]


# ---------------------------------------------------------------- widgets


def _literal(node):
    try:
        return ast.literal_eval(node)
    except ValueError:  # a variable: its value comes from the repr or the default
        return None


def widget_calls(source):
    """``{function name: {argument: literal value}}`` for the calls in ``source``."""
    try:
        tree = ast.parse(NBVAL_MARKER.sub("", source))
    except SyntaxError:
        return {}
    calls = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            args = {kw.arg: _literal(kw.value) for kw in node.keywords if kw.arg}
            args["*"] = [_literal(arg) for arg in node.args]
            calls[name] = args
    return calls


def widget_spec(source, text_repr):
    """What a widget output shows: ``{"kind": ..., argument: value}``.

    ``kind`` is ``None`` for a widget this build cannot make static.

    >>> widget_spec("w = position_explorer(pos=3)\\nw", "PositionExplorer(pos=3, d_model=8)")
    {'pos': 3, 'd_model': 8, 'max_pos': 50, 'max_d_model': 64, 'kind': 'position'}
    """  # noqa: E501
    calls = widget_calls(source)
    for kind, widget in WIDGETS.items():
        names = [name for name in widget["calls"] if name in calls]
        if not names and widget["repr"] not in text_repr:
            continue
        spec = dict(widget["defaults"])
        args = calls[names[0]] if names else {"*": []}
        spec.update(zip(widget["params"], args["*"], strict=False))
        spec.update({k: v for k, v in args.items() if k != "*"})
        if text_repr.startswith(widget["repr"]):  # the repr shows the real values
            spec.update({k: int(v) for k, v in re.findall(r"(\w+)=(-?\d+)", text_repr)})
        spec = {k: (widget["defaults"][k] if v is None else v) for k, v in spec.items()}
        return {**spec, "kind": kind}
    return {"kind": None}


def _range(name, label, low, high, value, step=1, ident=""):
    """A labelled native slider with its readout."""
    return (
        f'<label>{html.escape(label)} <input type="range" id="{ident}-{name}" '
        f'data-name="{name}" aria-label="{html.escape(label)}" min="{low}" '
        f'max="{high}" step="{step}" value="{value}"><output>{value}</output></label>'
    )


def _widget_div(kind, config, inner, extra_class=""):
    data = html.escape(json.dumps(config), quote=True)
    return (
        f'<div class="posenc-static posenc-static-{kind} {extra_class}" '
        f'data-kind="{kind}" data-config="{data}">{inner}'
        "<noscript>These sliders need JavaScript.</noscript>"
        '<p class="posenc-static-note">Static edition: the numbers were computed by '
        "posenc_lib when this page was built. In JupyterLab this cell is a live "
        "widget.</p></div>"
    )


def static_widget(spec, ident):
    """The HTML of a static widget (the sliders; sliders.js draws the rest)."""
    kind = spec["kind"]
    if kind == "position":
        controls = _range("pos", "pos", 0, spec["max_pos"], spec["pos"], ident=ident)
        controls += _range(
            "d", "d", 2, spec["max_d_model"], spec["d_model"], 2, ident=ident
        )
        config = {"maxPos": spec["max_pos"], "maxD": spec["max_d_model"]}
        inner = (
            f'<div class="posenc-controls">{controls}</div>'
            '<div class="posenc-text" aria-live="polite"></div>'
            '<div class="posenc-figure"></div>'
        )
        return _widget_div(kind, config, inner)
    if kind == "pair-circle":
        controls = _range(
            "offset", "offset k", 0, spec["max_offset"], spec["offset"], ident=ident
        )
        config = {
            "d": spec["d_model"],
            "pair": spec["pair"],
            "nPositions": spec["n_positions"],
            "starts": list(spec["starts"]),
            "titles": pair_circle_titles(spec),
        }
        inner = f'<div class="posenc-controls">{controls}</div>'
        return _widget_div(kind, config, inner + '<div class="posenc-figure"></div>')
    return _lecture_widget(spec, ident)


def _lecture_widget(spec, ident):
    controls = "".join(
        [
            _range("pos", "pos", 0, spec["max_pos"], spec["pos"], ident=ident),
            _range("d", "d", 2, spec["max_d_model"], spec["d_model"], 2, ident=ident),
            _range("k", "k", 0, spec["max_offset"], spec["offset"], ident=ident),
            _range(
                "pair", "pair", 0, spec["d_model"] // 2 - 1, spec["pair"], ident=ident
            ),
        ]
    )
    config = {"maxPos": spec["max_pos"], "maxOffset": spec["max_offset"]}
    inner = (
        f'<div class="posenc-controls">{controls}</div>'
        '<div class="posenc-lecture-body"><div class="posenc-figure"></div>'
        '<div class="posenc-lecture-numbers" aria-live="polite"></div></div>'
    )
    return _widget_div("lecture", config, inner, "posenc-lecture")


def pair_circle_titles(spec):
    """The circle's title for every offset, as ``show_pair_shift`` writes it."""
    from posenc_lib.figures.circles import pair_shift_title  # with matplotlib

    d_model, pair = spec["d_model"], spec["pair"]
    return [
        pair_shift_title(k, d_model=d_model, pair=pair)
        for k in range(spec["max_offset"] + 1)
    ]


NEEDS_KERNEL = (
    '<div class="posenc-needs-kernel">This cell shows an interactive widget, '
    "which needs a running Python kernel: open the notebook in JupyterLab "
    "(<code>make lab</code>) to use it.</div>"
)


def _stored_figure(data):
    """The PNG an output stored beside its widget view, if any, as an ``<img>``."""
    png = data.get("image/png")
    if not png:
        return ""
    png = "".join(png) if isinstance(png, list) else png
    return f'<img src="data:image/png;base64,{png.strip()}" alt="the stored figure">'


def prepare(notebook):
    """Hide test markers and replace widget outputs; returns the widget specs."""
    specs = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        cell.source = NBVAL_MARKER.sub("", cell.source)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_MIME not in data:
                continue
            spec = widget_spec(cell.source, data.get("text/plain", ""))
            static = _stored_figure(data) + NEEDS_KERNEL
            if spec["kind"] is not None:
                static = static_widget(spec, f"w{len(specs)}")
                specs.append(spec)
            output["data"] = {"text/html": static}
    return specs


# ---------------------------------------------------------------- the numbers


def encoded(value):
    """``format_number(value)`` as an integer count of 1e-4 (``"-0.9900"`` -> -9900)."""
    return int(format_number(value).replace(".", ""))


def data_needs(specs):
    """The widths, the positions and the offsets the sliders reach."""
    widths, rows, sim = set(), 1, {}
    for spec in specs:
        if spec["kind"] == "pair-circle":
            widths.add(spec["d_model"])
            last = max(
                spec["n_positions"] - 1, max(spec["starts"]) + spec["max_offset"]
            )
            rows = max(rows, last + 1)
            continue
        span = range(2, spec["max_d_model"] + 1, 2)
        widths.update(span)
        extra = spec["max_offset"] if spec["kind"] == "lecture" else 0
        rows = max(rows, spec["max_pos"] + extra + 1)
        if spec["kind"] == "lecture":
            for d_model in span:
                need = sim.get(d_model, (0, 0))
                sim[d_model] = (
                    max(need[0], spec["max_pos"]),
                    max(need[1], spec["max_offset"]),
                )
    return sorted(widths), rows, sim


def similarity_row(vectors, d_model, max_pos, max_offset):
    """``PE[pos] . PE[pos + k]`` for ``k = 0 .. max_offset``, as integers of 1e-4,
    checked to be the same for every ``pos <= max_pos`` and to equal the closed form
    ``offset_similarity``."""
    closed = offset_similarity(list(range(max_offset + 1)), d_model)
    row = []
    for k in range(max_offset + 1):
        shown = {encoded(vectors[p] @ vectors[p + k]) for p in range(max_pos + 1)}
        if shown != {encoded(closed[k])}:
            sys.exit(
                f"PE[pos] . PE[pos + {k}] with d = {d_model} prints differently "
                f"for different pos ({sorted(shown)}); store it per pos."
            )
        row.append(encoded(closed[k]))
    return row


def slider_data(specs):
    """Everything sliders.js needs, computed by posenc_lib (see the docstring above)."""
    widths, rows, sim_needs = data_needs(specs)
    data = {"pe": {}, "freq": {}, "sim": {}, "cmap": colour_map()}
    for d_model in widths:
        vectors = [pos_encoding(pos, d_model) for pos in range(rows)]  # (rows, d)
        data["pe"][d_model] = [[encoded(x) for x in v] for v in vectors]
        data["freq"][d_model] = [float(f) for f in frequencies(d_model)]
        if d_model in sim_needs:
            data["sim"][d_model] = similarity_row(vectors, d_model, *sim_needs[d_model])
    return data


def colour_map(n_colours=64):
    """The heatmaps' colour map sampled from -1 to 1, as ``#rrggbb``."""
    import matplotlib as mpl  # only here: the build needs no plotting otherwise

    from posenc_lib.figures.style import PE_CMAP  # -1 blue, 0 white, +1 red

    cmap = mpl.colormaps[PE_CMAP].resampled(n_colours)
    return [mpl.colors.to_hex(cmap(i)) for i in range(n_colours)]


# ---------------------------------------------------------------- MathJax


def _integrity(path):
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode()


def mathjax_tarball(cache=CACHE):
    """MathJax's npm package, fetched once with ``npm pack`` and checked."""
    name, version = MATHJAX.split("@")
    tarball = cache / f"{name}-{version}.tgz"
    if not tarball.exists():
        if shutil.which("npm") is None:
            sys.exit(
                "make site needs npm (Node.js) once, to fetch MathJax from the "
                "npm registry: install it, e.g. `apt-get install npm`."
            )
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "pack", MATHJAX, "--silent"],
            cwd=cache,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    if _integrity(tarball) != MATHJAX_INTEGRITY:
        tarball.unlink()
        sys.exit(f"{tarball.name} does not match the registry's integrity; removed it.")
    return tarball


def copy_mathjax(target, cache=CACHE):
    """The files MathJax's CommonHTML output needs, into ``target``."""
    with tarfile.open(mathjax_tarball(cache)) as tar:
        for member in tar.getmembers():
            path = member.name.removeprefix("package/")
            if member.isfile() and MATHJAX_KEEP.fullmatch(path):
                out = target / path
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(tar.extractfile(member).read())


# ---------------------------------------------------------------- HTML


def exporter(prefix):
    """nbconvert's HTML exporter with the offline template, for pages at ``prefix``."""
    return HTMLExporter(
        extra_template_basedirs=[str(SITE_FILES)],
        template_name="posenc_site",
        mathjax_url=prefix + MATHJAX_CONFIG,
    )


def rewrite_links(text):
    """``href="x.ipynb#a"`` -> ``href="x.html#a"`` for links inside the course."""
    return IPYNB_LINK.sub(lambda m: f'href="{m.group(1)}.html{m.group(2) or ""}"', text)


def _link(page, target, text, rel=None):
    href = html.escape(page.prefix + target.href)
    rel_attr = f' rel="{rel}"' if rel else ""
    return f'<a href="{href}"{rel_attr}>{html.escape(text)}</a>'


def nav_bar(page, chapters, where="top"):
    """Previous / index / next (chapters), or back-to-chapter (sub-folder pages)."""
    index = chapters[0]
    parts = [f'<span class="posenc-nav-here">{html.escape(page.title)}</span>']
    if page.parent is not None:
        parts.append(_link(page, page.parent, f"↑ back to {page.parent.title}", "up"))
    else:
        at = chapters.index(page)
        if at > 0:
            parts.append(
                _link(page, chapters[at - 1], f"← {chapters[at - 1].title}", "prev")
            )
        if at + 1 < len(chapters):
            parts.append(
                _link(page, chapters[at + 1], f"{chapters[at + 1].title} →", "next")
            )
    parts.append(_link(page, index, "index", "index"))
    parts += [_link(page, child, child.title) for child in page.children]
    return (
        f'<nav class="posenc-nav posenc-nav-{where}" aria-label="Course '
        f'navigation ({where})">' + "".join(parts) + "</nav>"
    )


def finish_page(text, page, chapters, has_widgets):
    """Links, navigation bars, the site's CSS and (with sliders) their scripts."""
    text = rewrite_links(text)
    css = f'<link rel="stylesheet" href="{page.prefix}static/site.css">'
    text = text.replace("</head>", css + "\n</head>", 1)
    text = text.replace("<main>", "<main>\n" + nav_bar(page, chapters), 1)
    scripts = ""
    if has_widgets:
        scripts = "".join(
            f'<script src="{page.prefix}static/{name}"></script>\n'
            for name in ("posenc-data.js", "sliders.js")
        )
    bottom = nav_bar(page, chapters, "bottom")
    return text.replace("</main>", f"{bottom}\n</main>\n{scripts}", 1)


def render(page, notebooks=NOTEBOOKS):
    """The page's HTML (without site chrome) and the specs of its widgets."""
    notebook = nbformat.read(notebooks / page.source, as_version=4)
    notebook.metadata["title"] = page.title
    notebook.metadata.pop("widgets", None)
    specs = prepare(notebook)
    body, _ = exporter(page.prefix).from_notebook_node(notebook)
    return body, specs


def build(out, notebooks=NOTEBOOKS, cache=CACHE):
    """Write the whole site into ``out``; returns the pages."""
    if out.exists():
        if any(out.iterdir()) and not (out / "index.html").exists():
            sys.exit(f"--out {out} is not empty and holds no site: not replacing it.")
        shutil.rmtree(out)
    (out / "static").mkdir(parents=True)
    pages = course_pages(notebooks)
    chapters = [page for page in pages if page.parent is None]
    all_specs = []
    for page in pages:
        body, specs = render(page, notebooks)
        all_specs += specs
        target = out / page.href
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(finish_page(body, page, chapters, bool(specs)), "utf-8")
    shutil.copy(out / chapters[0].href, out / "index.html")
    for name in ("site.css", "sliders.js"):
        shutil.copy(SITE_FILES / "static" / name, out / "static" / name)
    data = json.dumps(slider_data(all_specs), separators=(",", ":"))
    (out / "static" / "posenc-data.js").write_text(f"window.POSENC_DATA = {data};\n")
    copy_mathjax(out / "mathjax", cache)
    return pages


def site_size(out):
    """Bytes of every file under ``out``."""
    return sum(path.stat().st_size for path in out.rglob("*") if path.is_file())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    pages = build(args.out)
    seconds = time.perf_counter() - start
    size = site_size(args.out) / 1e6
    print(
        f"{args.out}: {len(pages)} pages (+ index.html), {size:.1f} MB, "
        f"{seconds:.1f} s; open {args.out / 'index.html'}"
    )


if __name__ == "__main__":
    main()
