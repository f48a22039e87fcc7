"""posenc_tools.build_site's pieces without a build (no npm, no MathJax): pages in
course order, widget cells embedded with their state, links rewritten, outputs
sanitised. The whole site is built once by ``tests/browser/test_site.py``."""

import inspect
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import numpy as np
import pytest
from posenc_tools import ROOT, build_site

WIDGET = build_site.WIDGET_MIME
COURSE = sorted((ROOT / "notebooks").rglob("*.ipynb"))


@pytest.mark.parametrize("kind", sorted(build_site.WIDGETS))
def test_widget_defaults_are_the_widget_classes_defaults(kind):
    """Each name a notebook calls takes WIDGETS' defaults and positional order."""
    widget = build_site.WIDGETS[kind]
    for name in widget["calls"]:
        made = getattr(sys.modules[widget["class"].__module__], name)
        params = inspect.signature(made).parameters
        defaults = {k: p.default for k, p in params.items() if p.default is not p.empty}
        shared = defaults.keys() & widget["defaults"].keys()
        assert shared, f"{name} shares no argument with WIDGETS[{kind!r}]"
        assert {k: defaults[k] for k in shared} == {
            k: widget["defaults"][k] for k in shared
        }
        assert list(params)[: len(widget["params"])] == list(widget["params"]), name


@pytest.fixture(scope="module")
def course():
    """``[(path, specs, notebook)]``: every notebook, prepared for the site."""
    prepared = []
    for path in COURSE:
        notebook = nbformat.read(path, as_version=4)
        prepared.append((path, build_site.prepare(notebook), notebook))
    return prepared


def test_every_widget_of_the_course_is_embedded_with_its_state(course):
    specs = [spec for _, found, _ in course for spec in found]
    assert len(specs) >= 3, "the chapters 02 and 04 and the explorer have sliders"
    assert {spec["kind"] for spec in specs} == {"lecture", "pair-circle", "position"}
    pages = [
        "".join(output.get("data", {}).get("text/html", ""))
        for _, _, notebook in course
        for cell in notebook.cells
        for output in cell.get("outputs", [])
    ]
    notes = [page for page in pages if build_site.NEEDS_KERNEL in page]
    assert notes == [], "widgets the site would show as a 'needs a kernel' note"
    states = [_embedded_state(page) for page in pages if "posenc-widget+json" in page]
    cmap = next(state["cmap"] for state in states if state["kind"] == "lecture")
    rgb = np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in cmap])
    assert rgb[0, 2] > rgb[0, 0] and rgb[-1, 0] > rgb[-1, 2]  # blue, then red
    assert rgb[len(rgb) // 2].min() > 200  # near white in the middle


@pytest.mark.parametrize(
    ("source", "text", "expected"),
    [
        ("circle = PairCircleExplorer(offset=3, d_model=d_model, pair=1)\ncircle",
         "PairCircleExplorer(offset=3, d_model=16)",
         {"kind": "pair-circle", "offset": 3, "d_model": 16, "pair": 1}),
        ("app = explorer(4, 12, max_pos=30)\napp",
         "<posenc_lib.explorer.Explorer object at 0x...>",
         {"kind": "lecture", "pos": 4, "d_model": 12, "max_pos": 30}),
        ("from posenc_lib.figures import widgets\nwidgets.position_explorer()",
         "PositionExplorer(pos=1, d_model=8)",
         {"kind": "position", "pos": 1, "d_model": 8}),
        ("interact(f, x=3)", "interactive(children=(IntSlider(...", {"kind": None}),
    ],
    ids=["ch04-variable", "positional", "moved-module", "unknown"],
)  # fmt: skip
def test_widget_spec(source, text, expected):
    spec = build_site.widget_spec(source, text)
    assert {k: spec[k] for k in expected} == expected


def _widget_notebook(source, text):
    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(source, execution_count=1)
    cell.outputs = [
        nbformat.v4.new_output(
            "execute_result",
            {WIDGET: {"model_id": "x", "version_major": 2}, "text/plain": text},
            execution_count=1,
        )
    ]
    notebook.cells = [cell]
    return notebook


def _embedded_state(html):
    """The widget state a static page holds."""
    kind = re.escape("application/vnd.posenc-widget+json")
    found = re.search(f'<script type="{kind}">(.*?)</script>', html)
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_prepare_embeds_each_widget_hides_the_test_marker_and_one_module():
    notebook = _widget_notebook(
        "# NBVAL_IGNORE_OUTPUT\nposition_explorer(pos=2, d_model=6)",
        "PositionExplorer(pos=2, d_model=6)",
    )
    lecture = "Explorer(pos=1, d_model=8, offset=2, pair=0)"
    notebook.cells.append(_widget_notebook("explorer()", lecture).cells[0])
    specs = build_site.prepare(notebook)
    assert notebook.cells[0].source == "position_explorer(pos=2, d_model=6)"
    assert [s["kind"] for s in specs] == ["position", "lecture"]
    data = [cell.outputs[0].data for cell in notebook.cells]
    assert [set(d) for d in data] == [{"text/html"}] * 2, "no widget view, no repr"
    pages = [d["text/html"] for d in data]
    # the module, inline, on the first widget of a page only
    assert ["window.POSENC_WIDGET_MODULE = " in page for page in pages] == [1, 0]
    assert "export default { render }" in pages[0]
    state = _embedded_state(pages[0])
    assert (state["kind"], state["pos"], state["d_model"]) == ("position", 2, 6)
    assert (state["max_pos"], state["max_d_model"]) == (50, 64)
    assert _embedded_state(pages[1])["kind"] == "lecture"


@pytest.mark.parametrize("png", [None, "iVBORw0KGgo=\n"], ids=["bare", "figure"])
def test_a_widget_it_cannot_make_static_shows_a_note_and_its_figure(png):
    notebook = _widget_notebook("interact(f, x=3)", "interactive(children=(...))")
    if png:
        notebook.cells[0].outputs[0].data["image/png"] = png
    assert build_site.prepare(notebook) == []
    shown = notebook.cells[0].outputs[0].data
    figure = '<img src="data:image/png;base64,iVBORw0KGgo="' if png else ""
    assert set(shown) == {"text/html"} and shown["text/html"].startswith(figure)
    assert shown["text/html"].endswith(build_site.NEEDS_KERNEL)


# ---------------------------------------------------------------- pages, links


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('<a href="02_x.ipynb">', '<a href="02_x.html">'),
        ('<a href="../04_y.ipynb#summary">', '<a href="../04_y.html#summary">'),
        ('<a href="solutions/05.ipynb">', '<a href="solutions/05.html">'),
        ('<a href="https://x.org/a.ipynb">', '<a href="https://x.org/a.ipynb">'),
        ("<code>notebooks/05.ipynb</code>", "<code>notebooks/05.ipynb</code>"),
    ],
    ids=["same-folder", "parent-anchor", "sub-folder", "web", "text"],
)
def test_rewrite_links(text, expected):
    assert build_site.rewrite_links(text) == expected


def test_a_link_to_a_source_file_is_copied_into_the_site(tmp_path):
    notebooks, out = tmp_path / "repo" / "notebooks", tmp_path / "site"
    (tmp_path / "repo" / "lib").mkdir(parents=True)
    (tmp_path / "repo" / "lib" / "x.py").write_text("X = 1\n")
    page = build_site.Page(Path("answers/01_a.ipynb"), "A")
    text = '<a href="../../lib/x.py">x</a> <a href="https://x.org/y.py">y</a>'
    copied = build_site.copy_linked_sources(text, page, out, notebooks)
    expected = '<a href="../source/lib/x.py">x</a> <a href="https://x.org/y.py">y</a>'
    assert copied == expected
    assert (out / "source" / "lib" / "x.py").read_text() == "X = 1\n"
    (out / "answers").mkdir()  # where the page goes: from it, the link is the copy
    assert (out / "answers" / ".." / "source" / "lib" / "x.py").is_file()
    gone = '<a href="../../lib/gone.py">'
    with pytest.raises(SystemExit, match="links to ../../lib/gone.py"):
        build_site.copy_linked_sources(gone, page, out, notebooks)


def _notebook(path, title, text=""):
    path.parent.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {title}\n\n{text}")]
    nbformat.write(nb, path)


def test_course_order_sub_folders_under_their_chapter_and_the_nav_bar(tmp_path):
    """A sub-folder's page goes under the chapter naming it, else of its name or
    number, else the index; the bar links prev, next, index, the pages below."""
    _notebook(tmp_path / "lecture.ipynb", "Lecture")
    _notebook(tmp_path / "01_a.ipynb", "01 · A")
    _notebook(tmp_path / "course_index.ipynb", "Index")
    _notebook(tmp_path / "02_b.ipynb", "02 · *B* `x_y`", "see `answers/key.ipynb`")
    _notebook(tmp_path / "answers" / "01_a.ipynb", "Answers A")
    _notebook(tmp_path / "answers" / "key.ipynb", "Key")
    _notebook(tmp_path / "solutions" / "02_other.ipynb", "Solution B")
    _notebook(tmp_path / "extra" / "notes.ipynb", "Notes")
    pages = build_site.course_pages(tmp_path)
    chapters = [p for p in pages if p.parent is None]
    expected = ["course_index.html", "01_a.html", "02_b.html", "lecture.html"]
    assert [p.href for p in chapters] == expected
    parents = {p.href: p.parent.href for p in pages if p.parent is not None}
    assert parents == {
        "answers/01_a.html": "01_a.html",  # same file name
        "answers/key.html": "02_b.html",  # named in the chapter
        "solutions/02_other.html": "02_b.html",  # same number
        "extra/notes.html": "course_index.html",  # nothing else: the index
    }
    assert pages[2].title == "02 · B x_y"
    assert [p.title for p in pages[4:6]] == ["answers: Answers A", "answers: Key"]
    links = re.findall(
        r'href="([^"]+)"(?: rel="(\w+)")?', build_site.nav_bar(pages[1], chapters)
    )
    assert links == [
        ("course_index.html", "prev"),
        ("02_b.html", "next"),
        ("course_index.html", "index"),
        ("answers/01_a.html", ""),
    ]
    below = re.findall(r'href="([^"]+)"', build_site.nav_bar(pages[4], chapters))
    assert below == ["../01_a.html", "../course_index.html"]


def test_a_tampered_mathjax_tarball_is_refused_and_removed(tmp_path):
    name, version = build_site.MATHJAX.split("@")
    fake = tmp_path / f"{name}-{version}.tgz"
    fake.write_bytes(b"not mathjax")
    with pytest.raises(SystemExit, match="does not match the registry's integrity"):
        build_site.mathjax_tarball(tmp_path)
    assert not fake.exists()


def test_build_never_replaces_a_folder_that_holds_no_site(tmp_path):
    (tmp_path / "notes.txt").write_text("keep me")
    with pytest.raises(SystemExit, match="is not empty and holds no site"):
        build_site.build(tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "keep me"


# ---------------------------------------------------------------- what runs


def test_a_stored_widget_repr_that_its_code_does_not_make_stops_the_build():
    # the code says pos=1, d_model=8; the stored repr was edited to pos=37
    notebook = _widget_notebook(
        "# NBVAL_IGNORE_OUTPUT\nposition_explorer(pos=1, d_model=8)",
        "PositionExplorer(pos=37, d_model=2)",
    )
    with pytest.raises(ValueError, match="never edit stored outputs"):
        build_site.prepare(notebook)


PLANTED = (
    "<div>ok</div><script>fetch('https://example.org/x')</script>"
    "<img src=x onerror=\"document.title='PWNED'\">"
    '<a href="javascript:alert(1)">link</a>'
)


def test_a_planted_script_in_a_stored_output_never_reaches_the_page():
    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("1", execution_count=1)
    cell.outputs = [
        nbformat.v4.new_output("display_data", {"text/html": PLANTED}),
        nbformat.v4.new_output(
            "display_data", {"application/javascript": "alert(3)", "text/plain": "x"}
        ),
    ]
    notebook.cells = [cell]
    build_site.prepare(notebook)
    body, _ = build_site.exporter("").from_notebook_node(notebook)
    for planted in ("<script>fetch", "onerror", "javascript:", "alert(3)"):
        assert planted not in body, planted
    assert "<div>ok</div>" in body


class _Markup(HTMLParser):
    """Tags, attributes (styles as declarations) and text, in order."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.found = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = {k: v or "" for k, v in attrs}
        if "style" in attrs:
            declarations = [d.split(":", 1) for d in attrs["style"].split(";")]
            attrs["style"] = [
                [p.strip() for p in d] for d in declarations if d[0].strip()
            ]
        self.found.append(("tag", tag, sorted(attrs.items())))

    def handle_data(self, data):
        self.found.append(("text", data))


def _html_outputs(notebook):
    return [
        _Markup("".join(o["data"]["text/html"])).found
        for cell in notebook.cells
        for o in cell.get("outputs", [])
        if "text/html" in o.get("data", {})
    ]


def test_sanitizing_keeps_every_tag_style_and_word_of_the_course_s_own_outputs():
    seen = 0
    for path in COURSE:
        notebook = nbformat.read(path, as_version=4)
        before = _html_outputs(notebook)
        build_site.sanitize_outputs(notebook)
        assert _html_outputs(notebook) == before, path.name
        seen += len(before)
    assert seen >= 10  # the checkers' and compare_outputs' boxes
