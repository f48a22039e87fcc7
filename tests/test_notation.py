r"""One notation, fixed in the index, followed by every section of the core path.

The index's table gives each symbol one meaning. Here the core path's math uses
no letter the table does not define, so a letter cannot quietly take a second
meaning there (the lesson's $d$ and $i$, $j$ for positions, $q$ and $k$ for
vectors); an angle letter the table defines ($a = p\,\omega_i$) is defined the
same way wherever the core path defines it; and its code names the width
``d_model``, never ``d``, and ``table`` only the embedding table.
"""

import re
from pathlib import Path

import nbformat
import pytest
from posenc_tools.chapter_times import sections

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.DOTALL)
WORDS = re.compile(r"\\(?:text|mathrm|operatorname)\{[^}]*\}|_\{[^}]*\}")
COMMAND = re.compile(r"\\([A-Za-z]+)")
GREEK = set("alpha beta gamma delta epsilon theta lambda mu pi sigma tau phi".split())
GREEK |= {"omega", "Delta", "Lambda", "Sigma", "Omega"}


def _symbols(math):
    """The letters and Greek commands of a piece of LaTeX: ``PE[p]`` gives P, E, p."""
    greek = {name for name in COMMAND.findall(math) if name in GREEK}
    latin = re.findall(r"[A-Za-z]", COMMAND.sub(" ", WORDS.sub(" ", math)))
    return greek | set(latin)


def _symbol_column():
    """The math of the first column of the index's notation table, row by row."""
    index = nbformat.read(NOTEBOOKS / "00_index.ipynb", as_version=4)
    table = next(c.source for c in index.cells if "## The notation" in c.source)
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| $")]
    return [m[0] or m[1] for r in rows for m in MATH.findall(r)]


def _defined():
    return set().union(*(_symbols(math) for math in _symbol_column()))


# a one-letter name given a value in math: "$t = \Delta\,\omega_i$"
DEFINITION = re.compile(r"^\s*([A-Za-z])\s*=\s*(.+?)\s*$")


def _definitions(maths):
    """``{letter: right-hand side}`` of the definitions among ``maths``, spaces
    and thin spaces dropped."""
    found = [DEFINITION.match(math) for math in maths]
    return [(m[1], re.sub(r"\s|\\,", "", m[2])) for m in found if m]


def _core_cells():
    for notebook in sorted(NOTEBOOKS.glob("0[1-4]_*.ipynb")):
        nb = nbformat.read(notebook, as_version=4)
        found = sections(nb, notebook.name[:2])
        for number, (_, core, _, _, start) in enumerate(found):
            end = found[number + 1][4] if number + 1 < len(found) else len(nb.cells)
            if core:
                for index in range(start, end):
                    yield f"{notebook.name} cell {index}", nb.cells[index]


CORE = list(_core_cells())


def test_the_index_defines_the_letters_of_the_formula():
    assert {"p", "q", "k", "i", "omega", "lambda", "Delta", "P", "E", "R"} <= _defined()


def test_the_index_gives_each_angle_letter_one_meaning():
    defined = dict(_definitions(_symbol_column()))
    assert {"a", "b", "t"} <= defined.keys()
    assert len(set(defined.values())) == len(defined)  # two letters, two meanings


@pytest.mark.parametrize("where, cell", CORE, ids=[w for w, _ in CORE])
def test_each_core_cell_follows_the_index(where, cell):
    r"""Its math uses only the index's symbols, an angle letter as the index
    defines it (04 once wrote $t = \Delta\,\omega_i$, then $t = q\,\omega_i$); its
    code names the width ``d_model`` and encodings ``pe_table`` (04 once called
    them ``table``, as 01 does the embedding table)."""
    defined = dict(_definitions(_symbol_column()))
    if cell.cell_type == "markdown":
        text = re.sub(r"`[^`]*`", " ", cell.source)  # code spans are code
        used = set().union(*(_symbols(a or b) for a, b in MATH.findall(text)))
        assert used <= _defined() | {"pi"}, f"{where}: {sorted(used - _defined())}"
        maths = [a or b for a, b in MATH.findall(cell.source)]
        for letter, value in _definitions(maths):
            if letter in defined:
                assert value == defined[letter], f"{where}: ${letter} = {value}$"
        return
    assert not re.search(r"\bd\b(?!['\"])", cell.source), f"{where}: name it d_model"
    for line in cell.source.splitlines():
        if re.match(r"\s*table\s*=", line):
            assert not re.search(r"sinusoidal_positions|pos_encoding", line), (
                f"{where}: {line.strip()} (name encodings pe_table)"
            )
