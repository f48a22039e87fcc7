"""The lecture kit: notebooks/lecture.ipynb, its generated live twin (which nbval
runs with its blanks untyped), its route timed by posenc_tools.chapter_times, its
figures for the 4:3 canvas, the slides' input (in a browser: tests/browser/)."""

import re
from pathlib import Path

import nbformat
import pytest
from lecture_figures import measure_figures, png_size, reaches, text_sizes
from notebook_reading import outputs
from posenc_tools import build_slides, chapter_times, make_exercise

ROOT = Path(__file__).resolve().parent.parent
LECTURE = ROOT / "notebooks" / "lecture.ipynb"
LIVE = ROOT / "notebooks" / "lecture_live.ipynb"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
MIN_PNG_TEXT_PX = 20  # >= 19 px on a 1024 x 768 screen, shown at its own size
MAX_PNG_WIDTH = 1010  # fits the 1024 px canvas of a 4:3 projector


@pytest.fixture(scope="module")
def lecture():
    return nbformat.read(LECTURE, as_version=4)


@pytest.fixture(scope="module")
def live():
    return nbformat.read(LIVE, as_version=4)


def _tagged(nb, tag):
    return [cell for cell in nb.cells if tag in cell.metadata.get("tags", [])]


def _markdown(nb, notes=True):
    """The markdown cells' sources (the instructor notes too, or not)."""
    return [
        c.source
        for c in nb.cells
        if c.cell_type == "markdown"
        and (notes or c.metadata.slideshow.slide_type != "notes")
    ]


def test_live_notebook_is_generated_from_the_lecture():
    assert (LECTURE, LIVE) in make_exercise.GENERATED  # make solutions writes it
    assert make_exercise.update(LECTURE, LIVE, check=True), "run make solutions"


def test_the_live_cells_type_20_to_25_lines_of_the_lesson_left_blank(lecture, live):
    """Each live cell of the lecture is its prompt alone in the live notebook."""
    typed, blanks = _tagged(lecture, "live"), _tagged(live, "live")
    assert len(typed) == len(blanks) == 4 and len(live.cells) == len(lecture.cells)
    live_text = "\n".join(c.source for c in live.cells if c.cell_type == "code")
    lines = {}
    for cell, blank in zip(typed, blanks, strict=True):
        prompt, *rest = cell.source.splitlines()
        assert prompt.startswith("# live: ") and blank.source == prompt
        lines[prompt] = [line for line in rest if line.strip()]
        assert not [line for line in lines[prompt] if line.strip() in live_text]
    print({prompt: len(typed) for prompt, typed in lines.items()})
    assert 20 <= sum(map(len, lines.values())) <= 25
    code = ["\n".join(typed) for typed in lines.values()]
    lesson = [
        "table[token_ids]",  # the lookup as a row fetch
        "one_hot(",  # ... and as one-hot times the table
        "X @ table",
        "10000 ** (2 * pair / d_model)",  # pos_encoding from the formula
        "np.sin(angle), np.cos(angle)",
        "[[c, s], [-s, c]]",  # R(Δ) from cos and sin
        "@ rotation_matrix(3, 16) @",  # the scores through R(3)
        "argmax(axis=1)",  # ... and each row's best key
    ]
    for piece in lesson:
        assert any(piece in cell for cell in code), piece
    with pytest.raises(ValueError, match=re.escape("must start with the line")):
        make_exercise.blank_source("k = np.arange(4)")  # a live cell without prompt


def test_every_cell_has_slide_metadata_and_notes_are_collapsed(lecture):
    kinds = {"slide", "subslide", "fragment", "-", "skip", "notes"}
    for index, cell in enumerate(lecture.cells):
        kind = cell.metadata.get("slideshow", {}).get("slide_type")
        assert kind in kinds, f"cell {index}: slide_type {kind!r}"
        if kind == "notes":
            assert cell.source.startswith("<details><summary>Instructor notes")
    assert sum(c.metadata.slideshow.slide_type == "notes" for c in lecture.cells) >= 6


def _steps(nb):
    """``[(minute, heading cell source)]`` of the ``## H:MM · ...`` headings."""
    steps = []
    for cell in nb.cells:
        found = re.match(r"## (\d+):(\d\d) · ", cell.source)
        if cell.cell_type == "markdown" and found:
            steps.append((int(found[1]) * 60 + int(found[2]), cell.source))
    return steps


def test_the_route_is_timed_by_the_delivery_rule_and_fits_45_minutes(lecture):
    """At most 45 of the 50 minutes by the rule; the headings' minute marks and
    lengths and the route table add up (written: tools/tests/test_chapter_times)."""
    timed = chapter_times.lecture_steps(lecture)
    route = sum(minutes for _, minutes, _, _ in timed)
    print("the route by the rule:", [(t, round(m, 1)) for t, m, _, _ in timed])
    assert route <= 45 and chapter_times.LECTURE_MINUTES - round(route) >= 5
    steps = _steps(lecture)
    starts = [minute for minute, _ in steps]
    heads = [source.splitlines()[0] for _, source in steps]
    lengths = [int(re.search(r"\((\d+) min\)", head)[1]) for head in heads]
    assert starts[0] == 0
    assert [a + n for a, n in zip(starts, lengths, strict=True)] == [*starts[1:], 50]
    assert " · Slack (" in heads[-1]
    rows = re.findall(r"^\| (\d+):(\d\d) \|", lecture.cells[0].source, re.MULTILINE)
    assert [int(h) * 60 + int(m) for h, m in rows] == starts


def test_the_drop_order_is_on_the_slides(lecture):
    """RoPE is marked *If time*; the route's slide says to drop it first."""
    shown = [c for c in lecture.cells if c.metadata.slideshow.slide_type == "slide"]
    route = " ".join(shown[0].source.split())
    rope = next(i for i, (_, s) in enumerate(_steps(lecture)) if "RoPE" in s[:40])
    mark = re.match(r"## (\d+:\d\d) · If time: RoPE", _steps(lecture)[rope][1])
    assert mark, "RoPE's heading is marked If time"
    assert f"Late? Drop RoPE in one picture ({mark[1]}) first, then" in route
    assert lecture.cells.index(shown[0]) == 0


def test_the_rule_is_calibrated_on_the_rehearsals():
    """Each rehearsal's total, and each step, within 1.5 minutes of the range it
    took by the rule (the total no less than the fastest)."""
    assert len(chapter_times.REHEARSALS) >= 2
    for number, name in enumerate(chapter_times.REHEARSALS, start=1):
        took = {
            step: (chapter_times.lecture_minutes(*counts), spans[number - 1])
            for step, (counts, *spans) in chapter_times.REHEARSED.items()
            if spans[number - 1] is not None
        }
        print(name, {step: round(m, 1) for step, (m, _) in took.items()})
        total = sum(m for m, _ in took.values())
        fastest, slowest = (sum(s[i] for _, s in took.values()) for i in (0, 1))
        assert fastest <= total <= slowest + 1.5, (name, total)
        for step, (ruled, (low, high)) in took.items():
            assert low - 1.5 <= ruled <= high + 1.5, (name, step)


def test_the_rule_counts_what_is_said_typed_paused_and_run():
    cells = [
        nbformat.v4.new_markdown_cell("## 0:07 · Two words (3 min)"),
        nbformat.v4.new_markdown_cell("**Predict:** one | two"),
        nbformat.v4.new_code_cell("# live: a prompt\nx = 1\n\ny = 2"),
        nbformat.v4.new_markdown_cell("<details><summary>Notes</summary> a b"),
        nbformat.v4.new_code_cell("skipped"),
    ]
    cells[2].metadata = {"tags": ["live"]}
    cells[4].metadata = {"slideshow": {"slide_type": "skip"}}
    assert chapter_times.lecture_counts(cells) == (2 + 4 + 3, 2, 1, 1, 0)


def test_each_step_names_the_chapter_with_the_full_story(lecture):
    for _, source in _steps(lecture)[:-1]:  # all but the slack
        assert re.search(
            r"Full story: \[[^]]+\]\((0[1-7]_\w+|explorer)\.ipynb\)", source
        ), source.splitlines()[0]
    text = "\n".join(_markdown(lecture))
    for chapter in sorted((ROOT / "notebooks").glob("0[1-7]_*.ipynb")):
        assert f"]({chapter.name})" in text, chapter.name


def test_figures_are_drawn_for_the_4_3_canvas_with_large_text_and_full_colour(
    lecture,
):
    """Each heatmap's data reaches at least half of its colour scale's end (no
    panel is one pale colour)."""
    figures = measure_figures(lambda figure: (text_sizes(figure), reaches(figure)))
    widths = [png_size(png)[0] for png in outputs(lecture, "image/png")]
    assert len(figures) == len(widths) == 5  # the explorer is SVG, no PNG
    sizes = [size for texts, _ in figures for size, _ in texts]
    print(f"lecture figure text: {min(sizes)} to {max(sizes)} px in PNGs {widths}")
    assert min(sizes) >= MIN_PNG_TEXT_PX
    assert max(widths) <= MAX_PNG_WIDTH  # its own size on the 1024 px canvas
    panels = [panel for _, found in figures for panel in found]
    assert len(panels) >= 7, panels
    print("colour-scale reaches:", [(t, round(r, 2)) for t, r in panels])
    for title, reach in panels:
        assert reach >= 0.5, f"the heatmap {title!r} reaches {reach:.0%} of its scale"


def test_the_route_covers_embeddings_and_the_look_back_payoff(lecture):
    steps = "\n".join(source.splitlines()[0] for _, source in _steps(lecture))
    assert "row of a table" in steps and "01_embeddings" in _steps(lecture)[0][1]
    assert "attention can look 3 tokens back" in steps
    code = "\n".join(c.source for c in lecture.cells if c.cell_type == "code")
    for shown in ("look_back_heatmaps(", "attention_maps(", "train("):  # + live cells'
        assert shown in code, shown
    printed = "\n".join(
        output.get("text", "")
        for cell in lecture.cells
        if cell.cell_type == "code"
        for output in cell.outputs
    )
    assert "with PE: held-out accuracy 1.000" in printed


def test_attention_comes_with_its_one_idea_and_the_key_is_the_one_turned(lecture):
    """The query and the key are defined before any use; the payoff turns the
    key's encoding, as chapter 04 writes it."""
    markdown = [" ".join(source.split()) for source in _markdown(lecture, False)]
    idea = next(text for text in markdown if "\\text{query}" in text)
    assert re.match(r"## \d+:\d\d · Attention in one idea", idea)
    for said in (r"$\text{query}_p = x_p W_Q$", r"$\text{key}_p = x_p W_K$",
                 r"$\text{query}_p \cdot \text{key}_q$"):  # fmt: skip
        assert said in idea, said
    payoff = next(t for t in markdown if re.match(r"## \d+:\d\d · The payoff", t))
    assert "**turns the key's encoding** by $R(3)$" in payoff
    assert r"$PE[p] \cdot R(3)\,PE[q] = PE[p] \cdot PE[q + 3]$" in payoff
    assert "query of position" not in " ".join(markdown)  # the old slip


def test_slides_embed_the_explorer_live(lecture):
    build_slides.embed_widgets(lecture)
    slides = build_slides.still_images(lecture)
    explorer_cells = [c for c in slides.cells if "explorer(pos" in c.source]
    for cell in slides.cells:
        assert "NBVAL_IGNORE_OUTPUT" not in cell.source
        for output in cell.get("outputs", []):
            assert WIDGET_MIME not in output.get("data", {})
    page = explorer_cells[0].outputs[0]["data"]["text/html"]
    assert "POSENC_WIDGET_MODULE" in page and "posenc-widget+json" in page
    assert outputs(slides, "image/png") == outputs(lecture, "image/png")


def test_a_widget_without_a_still_image_stops_the_slides_build():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("slider")
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data", data={WIDGET_MIME: {"model_id": "x"}, "text/plain": "w"}
        )
    ]
    nb.cells = [cell]
    with pytest.raises(SystemExit, match="cell 0 shows a widget without a still"):
        build_slides.still_images(nb)


def test_slides_load_nothing_from_the_internet_and_link_to_the_site():
    config = build_slides.exporter()
    urls = [config.reveal_url_prefix, config.require_js_url, config.jquery_url]
    targets = [t for _, files in build_slides.ASSETS.values() for t in files.values()]
    for url in [*urls, config.mathjax_url]:  # a file copied beside the slides
        assert "//" not in url, url
        assert any(t.startswith(url.split("?")[0]) for t in targets), url
    assert config.reveal_theme == "white"  # other themes fetch web fonts
    link = build_slides.site_links('href="06_beyond.ipynb#4"')
    assert link == 'href="site/06_beyond.html#4"'  # the site built beside them


def test_one_story_about_ropes_direction(lecture):
    """RoPE's R^T is explained once, with one picture, in 07 section 6; chapter
    06 and the lecture's notes point there; the lecture's slides never say it."""
    beyond, reading = (
        nbformat.read(ROOT / "notebooks" / name, as_version=4)
        for name in ("06_beyond.ipynb", "07_reading_other_code.ipynb")
    )
    for nb in (lecture, beyond):
        text = "\n".join(_markdown(nb))
        assert "chapter 07 §6" in text and "same $R$" not in text
        assert "clockwise" not in text.replace("counter-clockwise", "")
    assert "^\\top" in "\n".join(_markdown(beyond))
    shown = "\n".join(_markdown(lecture, notes=False))
    assert "^\\top" not in shown and "transpose" not in shown
    sources = [c.source for c in reading.cells]
    section = next(i for i, s in enumerate(sources) if s.startswith("## 6. RoPE"))
    explained = [
        i for i, s in enumerate(sources) if "one explanation of\nthe direction" in s
    ]
    assert len(explained) == 1 and explained[0] > section
    picture = reading.cells[explained[0] + 1]
    assert "unit_circle" in picture.source
    assert outputs(nbformat.v4.new_notebook(cells=[picture]), "image/png")
