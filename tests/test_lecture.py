"""The lecture kit: notebooks/lecture.ipynb, its live twin, and the slides' input.

- ``lecture_live.ipynb`` is generated from ``lecture.ipynb`` by the exercise's
  script (``posenc_tools.make_exercise``, ``make solutions``) and must not drift;
- the route: minute marks 0:00 ... 0:50 in order, each step naming the chapter
  that holds the full story, slide metadata on every cell, instructor notes
  collapsed;
- the route covers the lesson: embeddings (01), order (06), the formula (02),
  the explorer, the rotation (03), the look-3-back payoff (03 section 3), a
  mistake (04/05) and RoPE (06/07); each prediction prompt is followed by a
  fragment, so the slides show its answer one key press later;
- the figures, at presentation scale, have text of at least 20 px in their PNG
  (the slides test checks they are shown at >= 0.9 of that on 1920 x 1080, so
  >= 18 px on the screen), and the data of every heatmap spans at least half of
  its colour scale (no panel is one pale colour);
- the slides build embeds the explorer live (its state and module), and turns
  any other widget into its still image.
"""

import re
from pathlib import Path

import nbformat
import pytest
from lecture_figures import colour_spans, figure_text_sizes
from notebook_reading import outputs
from posenc_tools import build_slides, make_exercise

ROOT = Path(__file__).resolve().parent.parent
LECTURE = ROOT / "notebooks" / "lecture.ipynb"
LIVE = ROOT / "notebooks" / "lecture_live.ipynb"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
MIN_PNG_TEXT_PX = 20  # >= 18 px on screen at a display ratio >= 0.9


@pytest.fixture(scope="module")
def lecture():
    return nbformat.read(LECTURE, as_version=4)


@pytest.fixture(scope="module")
def live():
    return nbformat.read(LIVE, as_version=4)


def _tagged(nb, tag):
    return [cell for cell in nb.cells if tag in cell.metadata.get("tags", [])]


def test_live_notebook_is_generated_from_the_lecture(lecture, live):
    expected = make_exercise.expected_notebook(LECTURE, LIVE)
    assert make_exercise.sources(live) == make_exercise.sources(expected), (
        "notebooks/lecture_live.ipynb has drifted from lecture.ipynb: run "
        "make solutions, then make notebooks."
    )
    assert (LECTURE, LIVE) in make_exercise.GENERATED


def test_live_cells_are_blank_prompts_in_the_live_notebook(lecture, live):
    typed = _tagged(lecture, "live")
    blanks = _tagged(live, "live")
    assert len(typed) == len(blanks) == 3
    for cell, blank in zip(typed, blanks, strict=True):
        prompt = cell.source.splitlines()[0]
        assert prompt.startswith("# live: ")
        assert blank.source == prompt  # the prompt alone, no test marker
        assert "no output" not in blank.source and "NBVAL" not in blank.source
        assert blank.outputs == [] or all(
            o.output_type != "error" for o in blank.outputs
        )
    live_text = "\n".join(c.source for c in live.cells if c.cell_type == "code")
    for cell in typed:
        for line in cell.source.splitlines()[1:]:
            assert line.strip() not in live_text, line
    assert len(live.cells) == len(lecture.cells)


def test_blank_source_needs_a_prompt():
    with pytest.raises(ValueError, match=re.escape("must start with the line")):
        make_exercise.blank_source("k = np.arange(4)")


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


def test_the_route_takes_50_minutes_in_order(lecture):
    minutes = [minute for minute, _ in _steps(lecture)]
    assert minutes == [0, 6, 10, 19, 25, 32, 38, 44, 50]
    steps = _steps(lecture)
    for (start, source), (end, _) in zip(steps[:-1], steps[1:], strict=True):
        length = re.search(r"\((\d+) min\)", source.splitlines()[0])
        assert length and int(length[1]) == end - start, source.splitlines()[0]


def test_each_step_names_the_chapter_with_the_full_story(lecture):
    for _, source in _steps(lecture)[:-1]:
        assert re.search(
            r"Full story: \[[^]]+\]\((0[1-7]_\w+|explorer)\.ipynb\)", source
        )
    text = "\n".join(c.source for c in lecture.cells if c.cell_type == "markdown")
    for chapter in sorted((ROOT / "notebooks").glob("0[1-7]_*.ipynb")):
        assert f"]({chapter.name})" in text, chapter.name


def _pngs(nb):
    return outputs(nb, "image/png")


def test_figures_at_presentation_scale_have_large_text(lecture):
    sizes = figure_text_sizes()
    assert len(sizes) == len(_pngs(lecture)) == 5  # the explorer is SVG, no PNG
    smallest = min(size[0] for size in sizes)
    largest = max(size[1] for size in sizes)
    print(f"lecture figure text: {smallest} to {largest} px in the PNGs")
    assert smallest >= MIN_PNG_TEXT_PX, sizes


def test_the_route_covers_embeddings_and_the_look_back_payoff(lecture):
    steps = "\n".join(source.splitlines()[0] for _, source in _steps(lecture))
    assert "row of a table" in steps and "01_embeddings" in _steps(lecture)[0][1]
    assert "attention scores through $R(3)$" in steps
    # said on the answer slide, after the prediction, not in the step's heading
    answer = next(c.source for c in lecture.cells if "can look 3 tokens" in c.source)
    assert "$q = p - 3$" in answer and "look 3 tokens back" not in steps
    code = "\n".join(c.source for c in lecture.cells if c.cell_type == "code")
    for shown in ("lookup(table", "one_hot(", "X @ table", "look_back_heatmaps("):
        assert shown in code, shown
    printed = "\n".join(
        output.get("text", "")
        for cell in lecture.cells
        if cell.cell_type == "code"
        for output in cell.outputs
    )
    assert "one-hot X: 204.8 MB" in printed
    assert "R(3) peaks at p - 3: True" in printed


def test_every_prediction_is_revealed_on_the_next_key_press(lecture):
    """A prompt is the last thing shown before a fragment: its answer comes later."""
    kinds = [c.metadata.slideshow.slide_type for c in lecture.cells]
    prompts = [
        index
        for index, cell in enumerate(lecture.cells)
        if cell.cell_type == "markdown"
        and "**Predict" in cell.source
        and kinds[index] != "notes"
    ]
    assert len(prompts) >= 7
    for index in prompts:
        following = [k for k in kinds[index + 1 :] if k not in ("notes", "skip")]
        assert following[0] == "fragment", lecture.cells[index].source


def test_every_heatmap_uses_at_least_half_of_its_colour_scale():
    spans = colour_spans()
    panels = [panel for figure in spans for panel in figure]
    assert len(spans) == 5 and len(panels) >= 7, spans
    print("colour-scale spans:", [(t, round(s, 2)) for t, s in panels])
    for title, span in panels:
        assert span >= 0.5, f"the heatmap {title!r} spans {span:.0%} of its scale"


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
    assert _pngs(slides) == _pngs(lecture)


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


def test_slides_load_nothing_from_the_internet():
    config = build_slides.exporter()
    urls = [
        config.reveal_url_prefix,
        config.require_js_url,
        config.jquery_url,
        config.mathjax_url,
    ]
    assert not [url for url in urls if "//" in url]
    assert config.reveal_theme == "white"
    targets = [
        t for _, mapping in build_slides.ASSETS.values() for t in mapping.values()
    ]
    for url in urls:
        assert any(t.startswith(url.split("?")[0]) for t in targets), url


def test_slides_link_to_the_site_built_beside_them():
    body = '<a href="06_beyond.ipynb#4.-RoPE">06</a> <a href="https://x.org/a.ipynb">'
    assert build_slides.site_links(body) == (
        '<a href="site/06_beyond.html#4.-RoPE">06</a> <a href="https://x.org/a.ipynb">'
    )
    mathjax = build_slides.ASSETS["mathjax"][1]
    for name in build_slides.MATHJAX_CONFIG.split(","):  # Safe.js too: no 404
        assert f"config/{name}.js" in mathjax, name


def test_one_story_about_ropes_direction(lecture):
    """RoPE uses R^T: explained once, with one picture, in 07 section 6; the
    lecture and chapter 06 use the transpose and point there for the reason."""
    notebooks = ROOT / "notebooks"
    beyond = nbformat.read(notebooks / "06_beyond.ipynb", as_version=4)
    reading = nbformat.read(notebooks / "07_reading_other_code.ipynb", as_version=4)
    for nb in (lecture, beyond):
        text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        assert "^\\top" in text and "chapter 07 §6" in text
        assert "same $R$" not in text
        assert "clockwise" not in text.replace("counter-clockwise", "")
    section = next(
        i for i, c in enumerate(reading.cells) if c.source.startswith("## 6. RoPE")
    )
    explained = [
        i
        for i, c in enumerate(reading.cells)
        if "one explanation of\nthe direction" in c.source
    ]
    assert len(explained) == 1 and explained[0] > section
    picture = reading.cells[explained[0] + 1]
    assert "unit_circle" in picture.source and outputs(
        nbformat.v4.new_notebook(cells=[picture]), "image/png"
    )
