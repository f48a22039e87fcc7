"""posenc_tools.build_site: pages in course order, widget cells found and embedded
with their state, links rewritten, and the sliders' numbers equal to posenc_lib's.

The whole site is built once by ``tests/browser/test_site.py``; these tests check
the pieces without a build (no npm, no MathJax).
"""

import importlib
import importlib.util
import inspect
import json
import pkgutil
import re
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import numpy as np
import pytest
from posenc_tools import ROOT, build_site

import posenc_lib

WIDGET = build_site.WIDGET_MIME


def find_in_posenc_lib(name):
    """``name`` from whichever module of posenc_lib defines it (modules move)."""
    for info in pkgutil.walk_packages(posenc_lib.__path__, "posenc_lib."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        found = getattr(module, name, None)
        if found is not None and getattr(found, "__module__", None) == info.name:
            return found
    raise LookupError(f"nothing called {name} in posenc_lib")


def _defaults(function):
    return {
        name: p.default
        for name, p in inspect.signature(function).parameters.items()
        if p.default is not inspect.Parameter.empty
    }


# ---------------------------------------------------------------- widgets


@pytest.mark.parametrize(
    ("kind", "names"),
    [
        ("position", ["position_explorer", "PositionExplorer"]),
        ("pair-circle", ["PairCircleExplorer"]),
        ("lecture", ["explorer", "Explorer"]),
    ],
    ids=["position", "pair-circle", "lecture"],
)
def test_widget_defaults_are_the_widget_classes_defaults(kind, names):
    expected = build_site.WIDGETS[kind]["defaults"]
    for name in names:
        defaults = _defaults(find_in_posenc_lib(name))
        shared = set(defaults) & set(expected)
        assert shared, f"{name} shares no argument with WIDGETS[{kind!r}]"
        assert {k: defaults[k] for k in shared} == {k: expected[k] for k in shared}
    params = build_site.WIDGETS[kind]["params"]
    signature = list(inspect.signature(find_in_posenc_lib(names[-1])).parameters)
    assert signature[: len(params)] == list(params), "positional order"


def _widget_cells():
    """``(notebook, source, text repr)`` of every widget output in the course."""
    cells = []
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            for output in cell.get("outputs", []):
                if WIDGET in output.get("data", {}):
                    name = path.relative_to(ROOT / "notebooks").as_posix()
                    cells.append((name, cell.source, output.data["text/plain"]))
    return cells


def test_every_widget_of_the_course_gets_a_static_counterpart():
    cells = _widget_cells()
    assert len(cells) >= 3, "the chapters 02 and 03 and the explorer have sliders"
    unknown = [(name, src) for name, src, text in cells if not _kind(src, text)]
    assert unknown == [], "widgets the site would show as a 'needs a kernel' note"


def _kind(source, text):
    return build_site.widget_spec(source, text)["kind"]


@pytest.mark.parametrize(
    ("source", "text", "expected"),
    [
        (
            "# NBVAL_IGNORE_OUTPUT\nexplorer = position_explorer(pos=1, d_model=8)\n"
            "explorer",
            "PositionExplorer(pos=1, d_model=8)",
            {"kind": "position", "pos": 1, "d_model": 8, "max_pos": 50},
        ),
        (
            "circle = PairCircleExplorer(offset=3, d_model=d_model, pair=1)\ncircle",
            "PairCircleExplorer(offset=3, d_model=16)",
            {"kind": "pair-circle", "offset": 3, "d_model": 16, "pair": 1},
        ),
        (
            "explorer(pos=3, d_model=8, offset=2)",
            "Explorer(pos=3, d_model=8, offset=2, pair=0)",
            {"kind": "lecture", "pos": 3, "d_model": 8, "offset": 2, "pair": 0},
        ),
        (
            "app = explorer(4, 12, max_pos=30)\napp",
            "<posenc_lib.explorer.Explorer object at 0x...>",
            {"kind": "lecture", "pos": 4, "d_model": 12, "max_pos": 30},
        ),
        (
            "from posenc_lib.figures import widgets\nwidgets.position_explorer()",
            "PositionExplorer(pos=1, d_model=8)",
            {"kind": "position", "pos": 1, "d_model": 8},
        ),
        ("interact(f, x=3)", "interactive(children=(IntSlider(...", {"kind": None}),
    ],
    ids=["ch02", "ch03-variable", "lecture", "positional", "moved-module", "unknown"],
)
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


def test_prepare_embeds_the_widget_with_its_module_and_hides_the_test_marker():
    notebook = _widget_notebook(
        "# NBVAL_IGNORE_OUTPUT\nposition_explorer(pos=2, d_model=6)",
        "PositionExplorer(pos=2, d_model=6)",
    )
    specs = build_site.prepare(notebook)
    cell = notebook.cells[0]
    assert cell.source == "position_explorer(pos=2, d_model=6)"
    assert [s["kind"] for s in specs] == ["position"]
    page = cell.outputs[0].data["text/html"]
    assert set(cell.outputs[0].data) == {"text/html"}, "no widget view, no repr"
    assert "window.POSENC_WIDGET_MODULE = " in page  # the module, inline
    assert "export default { render }" in page
    state = _embedded_state(page)
    assert (state["kind"], state["pos"], state["d_model"]) == ("position", 2, 6)
    assert (state["max_pos"], state["max_d_model"]) == (50, 64)


def test_only_the_first_widget_of_a_page_carries_the_module():
    notebook = _widget_notebook(
        "position_explorer()", "PositionExplorer(pos=1, d_model=8)"
    )
    lecture = "Explorer(pos=1, d_model=8, offset=2, pair=0)"
    notebook.cells.append(_widget_notebook("explorer()", lecture).cells[0])
    build_site.embed_widgets(notebook)
    pages = [cell.outputs[0].data["text/html"] for cell in notebook.cells]
    assert ["POSENC_WIDGET_MODULE" in page for page in pages] == [True, False]
    assert _embedded_state(pages[1])["kind"] == "lecture"


def test_prepare_shows_a_note_for_a_widget_it_cannot_make_static():
    notebook = _widget_notebook("interact(f, x=3)", "interactive(children=(...))")
    assert build_site.prepare(notebook) == []
    shown = notebook.cells[0].outputs[0].data
    assert shown == {"text/html": build_site.NEEDS_KERNEL}


def test_an_unknown_widget_with_a_stored_figure_shows_the_figure():
    notebook = _widget_notebook("interact(f, x=3)", "interactive(children=(...))")
    notebook.cells[0].outputs[0].data["image/png"] = "iVBORw0KGgo=\n"
    build_site.prepare(notebook)
    shown = notebook.cells[0].outputs[0].data["text/html"]
    assert shown.startswith('<img src="data:image/png;base64,iVBORw0KGgo="')
    assert shown.endswith(build_site.NEEDS_KERNEL)


# ---------------------------------------------------------------- the numbers


def _course_states():
    """``{kind: state}`` of the widgets the course's notebooks embed."""
    states = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        build_site.embed_widgets(notebook)
        for cell in notebook.cells:
            for output in cell.get("outputs", []):
                page = output.get("data", {}).get("text/html", "")
                if "posenc-widget+json" in page:
                    state = _embedded_state(page)
                    states.setdefault(state["kind"], state)
    return states


@pytest.fixture(scope="module")
def states():
    return _course_states()


def test_every_kind_of_widget_is_embedded(states):
    assert sorted(states) == ["lecture", "pair-circle", "position"]


# The numbers the module draws, for every d_model: tests/browser/
# test_explorer_numbers.py.


def test_colour_map_runs_blue_to_white_to_red(states):
    cmap = states["lecture"]["cmap"]
    rgb = np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in cmap])
    assert rgb[0, 2] > rgb[0, 0] and rgb[-1, 0] > rgb[-1, 2]  # blue, then red
    assert rgb[len(cmap) // 2].min() > 200  # near white in the middle


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
    assert (
        copied
        == '<a href="../source/lib/x.py">x</a> <a href="https://x.org/y.py">y</a>'
    )
    assert (out / "source" / "lib" / "x.py").read_text() == "X = 1\n"
    (out / "answers").mkdir()  # where the page goes: from it, the link is the copy
    assert (out / "answers" / ".." / "source" / "lib" / "x.py").is_file()
    gone = '<a href="../../lib/gone.py">'
    with pytest.raises(SystemExit, match="links to ../../lib/gone.py"):
        build_site.copy_linked_sources(gone, page, out, notebooks)


def test_the_course_s_links_to_source_files_exist():
    for page in build_site.course_pages():
        source = (build_site.NOTEBOOKS / page.source).read_text(encoding="utf-8")
        for link in re.findall(r"\]\(([^)#:]+\.py)\)", source):
            target = (build_site.NOTEBOOKS / page.source).parent / link
            assert target.resolve().is_file(), (page.source, link)


def _notebook(path, title, text=""):
    path.parent.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {title}\n\n{text}")]
    nbformat.write(nb, path)


def test_course_order_index_first_and_sub_folders_under_their_chapter(tmp_path):
    _notebook(tmp_path / "lecture.ipynb", "Lecture")
    _notebook(tmp_path / "01_a.ipynb", "01 · A")
    _notebook(tmp_path / "course_index.ipynb", "Index")
    _notebook(tmp_path / "02_b.ipynb", "02 · *B* `x_y`", "see `answers/key.ipynb`")
    _notebook(tmp_path / "answers" / "01_a.ipynb", "Answers A")
    _notebook(tmp_path / "answers" / "key.ipynb", "Key")
    _notebook(tmp_path / "solutions" / "02_other.ipynb", "Solution B")
    _notebook(tmp_path / "extra" / "notes.ipynb", "Notes")
    pages = build_site.course_pages(tmp_path)
    chapters = [p.href for p in pages if p.parent is None]
    assert chapters == ["course_index.html", "01_a.html", "02_b.html", "lecture.html"]
    parents = {p.href: p.parent.href for p in pages if p.parent is not None}
    assert parents == {
        "answers/01_a.html": "01_a.html",  # same file name
        "answers/key.html": "02_b.html",  # named in the chapter
        "solutions/02_other.html": "02_b.html",  # same number
        "extra/notes.html": "course_index.html",  # nothing else: the index
    }
    assert pages[2].title == "02 · B x_y"
    assert [p.title for p in pages[4:6]] == ["answers: Answers A", "answers: Key"]


def test_nav_bar_links_previous_index_next_and_the_pages_below(tmp_path):
    _notebook(tmp_path / "00_index.ipynb", "Index")
    _notebook(tmp_path / "01_a.ipynb", "A")
    _notebook(tmp_path / "02_b.ipynb", "B")
    _notebook(tmp_path / "solutions" / "01_a.ipynb", "Solution A")
    pages = build_site.course_pages(tmp_path)
    chapters = [p for p in pages if p.parent is None]
    links = re.findall(
        r'href="([^"]+)"(?: rel="(\w+)")?', build_site.nav_bar(pages[1], chapters)
    )
    assert links == [
        ("00_index.html", "prev"),
        ("02_b.html", "next"),
        ("00_index.html", "index"),
        ("solutions/01_a.html", ""),
    ]
    below = re.findall(r'href="([^"]+)"', build_site.nav_bar(pages[3], chapters))
    assert below == ["../01_a.html", "../00_index.html"]


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


def test_every_stored_widget_repr_is_what_its_code_makes():
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        build_site.prepare(nbformat.read(path, as_version=4))  # raises if not


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
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        before = _html_outputs(notebook)
        build_site.sanitize_outputs(notebook)
        assert _html_outputs(notebook) == before, path.name
        seen += len(before)
    assert seen >= 10  # the checkers' and compare_outputs' boxes
