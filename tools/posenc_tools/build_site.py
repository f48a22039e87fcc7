"""Build the offline HTML edition of the course: ``make site`` writes ``site/``.

Every notebook under ``notebooks/`` becomes one page, from its stored outputs (no
notebook is executed): nbconvert's lab template without anything from a CDN
(``tools/posenc_tools/site/posenc_site``), MathJax 2 from the npm registry copied
into ``site/mathjax/``, a navigation bar (previous / index / next, in course order),
and links between notebooks rewritten from ``.ipynb`` to ``.html``. A link from a
notebook to a source file of the repository (``../posenc_lib/properties.py``) is
kept working: the file is copied into ``site/source/`` and the link points there.

The slider widgets of the chapters have no kernel here, and need none: they are
drawn in the browser (``posenc_lib/figures/explorer.py``) by the same ES module as
in JupyterLab. Each widget output is replaced by the widget's state, made now by
posenc_lib with the cell's arguments (the module computes every number it
shows: :func:`embed_widgets`); the first one on a page carries the
module and its style sheet, inline, so a page works from ``file://``.

A widget this script does not know is shown as a note (open the notebook in
JupyterLab), never as its text repr. Widget cells are found from the notebook
JSON (the widget-view output, its text repr, the call in the cell's code), so
moving the widget classes between modules changes nothing here.

Usage: ``python -m posenc_tools.build_site [--out DIR]``; MathJax's npm tarball is
kept in ``.site-cache/`` (``npm pack``, checked against its registry integrity).
"""

import argparse
import ast
import base64
import hashlib
import html
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from nbconvert.preprocessors.sanitize import SanitizeHTML

from posenc_lib.figures.explorer import (
    Explorer,
    PairCircleExplorer,
    PositionExplorer,
    page_assets,
    static_html,
)
from posenc_tools import ROOT

NOTEBOOKS = ROOT / "notebooks"
SITE_FILES = Path(__file__).with_name("site")
CACHE = ROOT / ".site-cache"

#: The site's CSS (tools/posenc_tools/site/static): its chrome, and contrast and
#: links that pass axe-core (the slides link readable.css too).
STYLESHEETS = ("site.css", "readable.css", "print.css")
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
SOURCE_LINK = re.compile(r'href="(?![a-z][a-z0-9+.-]*:)([^"#]+\.py)"')
IPYNB_LINK = re.compile(r'href="(?![a-z][a-z0-9+.-]*:)([^"#]*?)\.ipynb(#[^"]*)?"')

# The slider widgets: the calls that make them, the text repr of their output,
# their arguments in order, their defaults (tests/test_build_site.py checks these
# against the widget classes' signatures) and the class that makes them.
WIDGETS = {
    "position": {
        "class": PositionExplorer,
        "calls": ("position_explorer", "PositionExplorer"),
        "repr": "PositionExplorer(",
        "params": ("pos", "d_model"),
        "defaults": {"pos": 1, "d_model": 8, "max_pos": 50, "max_d_model": 64},
    },
    "pair-circle": {
        "class": PairCircleExplorer,
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
        "class": Explorer,
        "calls": ("explorer", "Explorer"),
        "repr": "Explorer(",
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
        """The page's path inside the site, e.g. ``solutions/03_exercise.html``."""
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
    """The chapter that names ``sub`` (e.g. ``solutions/03_exercise.ipynb``), else
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
        spec = {k: (widget["defaults"][k] if v is None else v) for k, v in spec.items()}
        return {**spec, "kind": kind}
    return {"kind": None}


def make_widget(spec):
    """The widget a spec describes, made by posenc_lib now."""
    widget = WIDGETS[spec["kind"]]
    args = {k: v for k, v in spec.items() if k in widget["defaults"]}
    return widget["class"](**args)


def check_stored_repr(widget, text_repr, source):
    """Refuse a widget output whose stored repr is not what its cell's code makes.

    The static widget starts from the values in the cell's code; a stored
    ``text/plain`` that is this widget's repr (written when the notebook ran)
    must say the same, or the stored output was edited by hand or is stale (run
    ``make notebooks``).

    >>> check_stored_repr(Explorer(pos=3), "Explorer(pos=37, d_model=8)", "explorer(pos=3)")
    Traceback (most recent call last):
    ...
    ValueError: a widget's stored output says 'Explorer(pos=37, d_model=8)', but its cell's code 'explorer(pos=3)' makes 'Explorer(pos=3, d_model=8, offset=2, pair=0)': run make notebooks, never edit stored outputs.
    """  # noqa: E501
    text = ("".join(text_repr) if isinstance(text_repr, list) else text_repr).strip()
    made = repr(widget)
    claims = text.startswith(type(widget).__name__ + "(")  # a repr of this widget
    if claims and text != made:
        raise ValueError(
            f"a widget's stored output says {text.strip()[:80]!r}, but its cell's "
            f"code {source.strip()[:80]!r} makes {made!r}: run make notebooks, "
            "never edit stored outputs."
        )


def sanitize_outputs(notebook):
    """Clean every stored output: nothing runs in a page that the course did not write.

    nbconvert's own :class:`~nbconvert.preprocessors.sanitize.SanitizeHTML`
    (bleach) with an allow-list of what the course's outputs use (the checkers'
    and ``compare_outputs``' boxes and tables, with their inline styles): a
    ``<script>``, an ``onerror`` or a ``javascript:`` link in a stored output is
    removed; output kinds other than text, PNG and the widget views (which
    :func:`embed_widgets` then replaces with the course's own) are dropped.
    Markdown cells are the course's prose and are left as written. In place.

    >>> nb = nbformat.v4.new_notebook()
    >>> nb.cells = [nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output(
    ...     "display_data", {"text/html": "<b>hi</b><img src=x onerror=alert(1)>"
    ...                      "<script>alert(2)</script>"})])]
    >>> sanitize_outputs(nb)
    >>> nb.cells[0].outputs[0].data["text/html"]
    '<b>hi</b>alert(2)'
    """
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = _SANITIZER.sanitize_code_outputs(cell.outputs)


def _sanitizer():
    cleaner = SanitizeHTML(strip=True)
    cleaner.safe_output_keys = cleaner.safe_output_keys | {WIDGET_MIME}
    boxes = ("div", "pre", "span", "table", "tr", "td", "th", "p", "br", "code")
    cleaner.tags = [*cleaner.tags, *boxes]
    cleaner.attributes = {**cleaner.attributes, **dict.fromkeys(boxes, ["style"])}
    cleaner.styles = [*cleaner.styles, "background", "border-left", "padding", "margin"]
    return cleaner


_SANITIZER = _sanitizer()


def embed_widgets(notebook):
    """Replace the outputs of the widgets in :data:`WIDGETS` by their static page.

    Each becomes ``text/html``: the widget's state for every setting its sliders
    reach (:func:`posenc_lib.figures.explorer.static_html`); the first also
    carries the module that draws them (``page_assets``), so the page needs no
    other file. Works in place; returns the widgets' specs, in page order. Other
    widget outputs are left as they are. Used by this build and by
    ``posenc_tools.build_slides``.
    """
    specs = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            data = output.get("data", {})
            if WIDGET_MIME not in data:
                continue
            spec = widget_spec(cell.source, data.get("text/plain", ""))
            if spec["kind"] is None:
                continue
            widget = make_widget(spec)
            check_stored_repr(widget, data.get("text/plain", ""), cell.source)
            page = static_html(widget)
            output["data"] = {"text/html": (page_assets() if not specs else "") + page}
            specs.append(spec)
    return specs


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
    """Hide test markers, sanitise stored outputs and replace widget outputs;
    returns the widget specs."""
    sanitize_outputs(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.source = NBVAL_MARKER.sub("", cell.source)
    specs = embed_widgets(notebook)
    for cell in notebook.cells:  # what is left: widgets this build cannot draw
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            data = output.get("data", {})
            if WIDGET_MIME in data:
                output["data"] = {"text/html": _stored_figure(data) + NEEDS_KERNEL}
    return specs


# ---------------------------------------------------------------- MathJax


def _integrity(path):
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode()


def npm_tarball(spec, integrity, cache=CACHE, why="make site"):
    """The npm package ``spec`` (``name@version``), fetched once with ``npm pack``
    into ``cache`` and checked against the registry's ``integrity``."""
    name, version = spec.rsplit("@", 1)
    tarball = cache / f"{name}-{version}.tgz"
    if not tarball.exists():
        if shutil.which("npm") is None:
            sys.exit(
                f"{why} needs npm (Node.js) once, to fetch {name} from the "
                "npm registry: install it, e.g. `apt-get install npm`."
            )
        cache.mkdir(parents=True, exist_ok=True)
        # packed in a folder of its own, then renamed: a build beside this one (a
        # test worker) finds the whole tarball or none
        with tempfile.TemporaryDirectory(dir=cache) as folder:
            subprocess.run(
                ["npm", "pack", spec, "--silent"],
                cwd=folder,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            os.replace(Path(folder) / tarball.name, tarball)
    if _integrity(tarball) != integrity:
        tarball.unlink()
        sys.exit(f"{tarball.name} does not match the registry's integrity; removed it.")
    return tarball


def mathjax_tarball(cache=CACHE):
    """MathJax's npm package, fetched once with ``npm pack`` and checked."""
    return npm_tarball(MATHJAX, MATHJAX_INTEGRITY, cache)


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


def copy_linked_sources(text, page, out, notebooks=NOTEBOOKS):
    """Copy each ``.py`` file of the repository that ``text`` links to into
    ``out/source/`` and point the link there; a link to no such file stops the build.
    """
    repository = notebooks.resolve().parent

    def copy(match):
        target = ((notebooks / page.source).parent / match.group(1)).resolve()
        if not target.is_relative_to(repository) or not target.is_file():
            sys.exit(f"{page.source} links to {match.group(1)}: no such file here.")
        inside = Path("source") / target.relative_to(repository)
        (out / inside).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(target, out / inside)
        return f'href="{html.escape(page.prefix + inside.as_posix())}"'

    return SOURCE_LINK.sub(copy, text)


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


def finish_page(text, page, chapters):
    """Links, navigation bars and the site's CSS."""
    text = rewrite_links(text)
    css = "".join(
        f'<link rel="stylesheet" href="{page.prefix}static/{name}">'
        for name in STYLESHEETS
    )
    text = text.replace("</head>", css + "\n</head>", 1)
    text = text.replace("<main>", "<main>\n" + nav_bar(page, chapters), 1)
    bottom = nav_bar(page, chapters, "bottom")
    return text.replace("</main>", f"{bottom}\n</main>", 1)


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
    for page in pages:
        body, _ = render(page, notebooks)
        target = out / page.href
        target.parent.mkdir(parents=True, exist_ok=True)
        text = finish_page(body, page, chapters)
        target.write_text(copy_linked_sources(text, page, out, notebooks), "utf-8")
    shutil.copy(out / chapters[0].href, out / "index.html")
    for name in STYLESHEETS:
        shutil.copy(SITE_FILES / "static" / name, out / "static" / name)
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
