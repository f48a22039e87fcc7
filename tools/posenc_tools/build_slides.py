"""Build the lecture's reveal.js slides, fully offline: ``make slides``.

    python -m posenc_tools.build_slides                     # slides/lecture.slides.html
    python -m posenc_tools.build_slides NOTEBOOK --out DIR  # another notebook, folder

nbconvert's slides exporter turns the stored ``notebooks/lecture.ipynb`` (its
outputs were made at presentation scale; its cells carry ``slideshow``
metadata) into one HTML page. Everything the page loads sits next to it, so the
slides work in a room without a network:

- reveal.js, MathJax 2, require.js and jQuery come from the npm registry
  (``npm pack``, pinned versions below) into the build cache
  ``build/slides-cache/`` (kept between builds), and are copied beside the page;
  MathJax is trimmed to what TeX -> CommonHTML needs (about 5 MB of 73);
- the template ``share/jupyter/nbconvert/templates/posenc_slides`` drops the
  mermaid import from a CDN, hides prompts, and picks the canvas for the room
  when the page opens: 1024 x 768 on a 4:3 projector, 1366 x 768 on a wide
  screen (from the window's shape, no option to remember), with text sized so
  that nothing is under 16 px on the screen; the figures, drawn for the 4:3
  canvas, show at their own size there;
- the white theme (its fonts are inside reveal.js; some other themes fetch web
  fonts);
- the explorer is live: ``build_site.embed_widgets`` puts its state and the
  module that draws it into the page (no kernel, no file, no network). Any other
  widget output becomes its still PNG; a widget without one stops the build;
- **predict, then run**: a code cell that opens a fragment (the answer to a
  "Predict" prompt) shows its code with the prompt, and its output, with the
  rest of the fragment, one key press later (:func:`code_first`);
- links to the course's notebooks (``[06](06_beyond.ipynb)``) point into the
  course's web edition, built beside the page in ``site/`` by
  ``posenc_tools.build_site`` (one HTML page per notebook, from the stored
  outputs), so every link of the slides opens offline: ``site/06_beyond.html``.
"""

import argparse
import copy
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import nbformat
from nbconvert import SlidesExporter
from traitlets.config import Config

from posenc_tools import ROOT
from posenc_tools.build_site import embed_widgets, sanitize_outputs

LECTURE = ROOT / "notebooks" / "lecture.ipynb"
OUT = ROOT / "slides"
CACHE = ROOT / "build" / "slides-cache"
TEMPLATES = ROOT / "share" / "jupyter" / "nbconvert" / "templates"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
IGNORE = "# NBVAL_IGNORE_OUTPUT"
MATHJAX_CONFIG = "TeX-AMS_CHTML-full,Safe"
SITE = "site"  # the course's web edition, beside the slides
#: ``href="06_beyond.ipynb#a"`` (no scheme): a link to a notebook of the course.
NOTEBOOK_LINK = re.compile(r'href="(?![a-z][a-z0-9+.-]*:)([^"#]*?)\.ipynb(#[^"]*)?"')

#: npm package -> (version, {path in the package: path beside the slides}).
#: A path ending in "/" copies a folder.
ASSETS = {
    "reveal.js": (
        "4.0.2",  # the reveal.js nbconvert's slides template is written for
        {"dist/": "reveal.js/dist/", "plugin/notes/": "reveal.js/plugin/notes/"},
    ),
    "mathjax": (
        "2.7.9",
        {
            "MathJax.js": "mathjax/MathJax.js",
            **{
                f"config/{name}.js": f"mathjax/config/{name}.js"
                for name in MATHJAX_CONFIG.split(",")  # every config= file it loads
            },
            "extensions/": "mathjax/extensions/",
            "jax/element/": "mathjax/jax/element/",
            "jax/input/TeX/": "mathjax/jax/input/TeX/",
            "jax/output/CommonHTML/": "mathjax/jax/output/CommonHTML/",
            "fonts/HTML-CSS/TeX/woff/": "mathjax/fonts/HTML-CSS/TeX/woff/",
        },
    ),
    "requirejs": ("2.3.7", {"require.js": "require.js"}),
    "jquery": ("3.7.1", {"dist/jquery.min.js": "jquery.min.js"}),
}


def fetch(package, version, cache=CACHE):
    """The npm tarball of ``package@version``, from the cache or the npm registry."""
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / f"{package.replace('/', '-')}-{version}.tgz"
    if not tarball.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit(
                "build_slides: npm is needed once to fetch reveal.js, MathJax, "
                "require.js and jQuery (e.g. `apt-get install npm`)."
            )
        with tempfile.TemporaryDirectory(dir=cache) as folder:  # renamed when whole
            subprocess.run(
                [npm, "pack", "--silent", f"{package}@{version}"],
                cwd=folder,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            os.replace(Path(folder) / tarball.name, tarball)
    return tarball


def unpack(tarball, mapping, out):
    """Copy the files ``mapping`` names from an npm ``tarball`` into ``out``."""
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            if not member.isfile():
                continue
            inner = member.name.split("/", 1)[1]  # drop "package/"
            for source, target in mapping.items():
                folder = source.endswith("/")
                if inner == source or (folder and inner.startswith(source)):
                    path = out / (target + inner[len(source) :] if folder else target)
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(archive.extractfile(member).read())


def install_assets(out):
    """reveal.js, MathJax, require.js and jQuery beside the slides, in ``out``."""
    for package, (version, mapping) in ASSETS.items():
        unpack(fetch(package, version), mapping, out)


def still_images(nb):
    """A copy of ``nb`` for slides: widget outputs become their still PNG.

    Also drops the ``# NBVAL_IGNORE_OUTPUT`` line, which is for the tests only.
    """
    nb = copy.deepcopy(nb)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        lines = [line for line in cell.source.splitlines() if line.strip() != IGNORE]
        cell.source = "\n".join(lines)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_MIME not in data:
                continue
            if "image/png" not in data:
                raise SystemExit(
                    f"build_slides: cell {index} shows a widget without a still "
                    "image (image/png) for the slides:\n" + cell.source
                )
            del data[WIDGET_MIME]
            data.pop("text/plain", None)
    return nb


def exporter():
    """nbconvert's slides exporter, configured to load nothing from the internet."""
    config = Config()
    slides = config.SlidesExporter
    slides.extra_template_basedirs = [str(TEMPLATES)]
    slides.template_name = "posenc_slides"
    slides.reveal_url_prefix = "reveal.js"
    slides.reveal_theme = "white"
    slides.reveal_number = "c/t"
    slides.require_js_url = "require.js"
    slides.jquery_url = "jquery.min.js"
    slides.mathjax_url = f"mathjax/MathJax.js?config={MATHJAX_CONFIG}"
    return SlidesExporter(config=config)


#: a fragment that starts with a code cell
CODE_FRAGMENT = re.compile(
    r'<div class="fragment"([^>]*)>(\s*<div class="jp-Cell jp-CodeCell)'
)


def code_first(body):
    """Mark each fragment that starts with a code cell ``posenc-code-first``: the
    template's style shows its code at once, its output on the next key press.

    Examples
    --------
    >>> code_first('<div class="fragment" x> <div class="jp-Cell jp-CodeCell a">')
    '<div class="fragment posenc-code-first" x> <div class="jp-Cell jp-CodeCell a">'
    """
    return CODE_FRAGMENT.sub(r'<div class="fragment posenc-code-first"\1>\2', body)


def site_links(body, site=SITE):
    """``href="x.ipynb#a"`` -> ``href="site/x.html#a"``: the course's pages, offline.

    Examples
    --------
    >>> site_links('<a href="06_beyond.ipynb#4">06</a> <a href="https://x.org/a.ipynb">')
    '<a href="site/06_beyond.html#4">06</a> <a href="https://x.org/a.ipynb">'
    """
    return NOTEBOOK_LINK.sub(
        lambda m: f'href="{site}/{m.group(1)}.html{m.group(2) or ""}"', body
    )


def build_site(out):
    """The course's web edition in ``out / SITE``, for the slides' links."""
    from posenc_tools.build_site import build

    build(out / SITE)


def build(notebook=LECTURE, out=OUT, site=None):
    """Write ``out / <name>.slides.html``, its assets and the site it links to
    (``site``: a copy of that one, already built; ``None``: build it).

    Returns the page's path.
    """
    notebook, out = Path(notebook), Path(out)
    nb = nbformat.read(notebook, as_version=4)
    sanitize_outputs(nb)  # nothing runs on the slides that the course did not write
    embed_widgets(nb)
    nb = still_images(nb)
    body, _ = exporter().from_notebook_node(nb, resources={"metadata": {
        "name": notebook.stem}})  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    install_assets(out)
    if site is None:
        build_site(out)
    else:
        shutil.copytree(site, out / SITE, dirs_exist_ok=True)
    page = out / f"{notebook.stem}.slides.html"
    readable = f'<link rel="stylesheet" href="{SITE}/static/readable.css">\n</head>'
    body = body.replace("</head>", readable, 1)  # contrast and links (axe-core)
    page.write_text(site_links(code_first(body)), encoding="utf-8")
    return page


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebook", nargs="?", default=LECTURE, type=Path)
    parser.add_argument("--out", default=OUT, type=Path, help="output folder")
    args = parser.parse_args(argv)
    page = build(args.notebook, args.out)
    size = sum(f.stat().st_size for f in args.out.rglob("*") if f.is_file())
    name = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page
    print(f"wrote {name} ({size / 1e6:.1f} MB with its assets); open it in a browser")
    return 0


if __name__ == "__main__":
    sys.exit(main())
