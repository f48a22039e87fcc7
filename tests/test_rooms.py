"""The package's rooms hold: what imports what, in a fresh interpreter and in the code.

Four rooms, one per audience: the maths at the top level (``posenc_lib``), the
learner's exercise (``posenc_lib.exercise``), the figures (``posenc_lib.figures``)
and the lecturer's grader (``posenc_lib.grading``).
"""

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import posenc_lib

ROOT = Path(__file__).resolve().parent.parent
ROOMS = ("exercise", "figures", "grading")
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(posenc_lib.__path__, "posenc_lib.")
    if not info.name.endswith("__main__")
)


def _python(code):
    """Run ``code`` in a fresh interpreter; return what it printed, as JSON."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_package_has_the_four_rooms_and_every_module_is_found():
    rooms = {name.split(".")[1] for name in MODULES if name.count(".") >= 2}
    assert rooms == set(ROOMS)
    assert "posenc_lib.mistakes" in MODULES  # the lesson's mistakes: the maths room
    assert len(MODULES) > 30


def test_import_posenc_lib_loads_the_maths_room_only():
    loaded = _python(
        "import sys, json; import posenc_lib; print(json.dumps(sorted(sys.modules)))"
    )
    ours = [name for name in loaded if name.startswith("posenc_lib")]
    assert ours  # the check below looks at real names
    other_rooms = [
        name for name in ours if name.split(".")[1:2] in ([r] for r in ROOMS)
    ]
    assert other_rooms == []
    # nothing heavy beyond what numpy itself loads (numpy 1.24 imports threading)
    numpy_alone = set(
        _python("import sys, json, numpy; print(json.dumps(list(sys.modules)))")
    )
    heavy = {"matplotlib", "ipywidgets", "nbclient", "threading"} - numpy_alone
    assert not heavy & set(loaded)


@pytest.mark.parametrize(
    ("module", "forbidden"),
    [
        ("posenc_lib.exercise", ("posenc_lib.grading", "posenc_lib.figures")),
        ("posenc_lib.figures", ("posenc_lib.grading", "posenc_lib.exercise")),
        ("posenc_lib.exercise.cli", ("posenc_lib.grading",)),
        ("posenc_lib.__main__", ("posenc_lib.grading.grader",)),
    ],
    ids=["exercise", "figures", "posenc-run", "posenc-parser"],
)
def test_what_a_learner_imports_does_not_load_the_grader(module, forbidden):
    loaded = _python(
        f"import sys, json; import {module}; print(json.dumps(sorted(sys.modules)))"
    )
    assert [name for name in loaded if name.startswith(forbidden)] == []


# Every module imported first (so that any cycle through it shows), then all the
# others, forward and backward, in one interpreter: the package's modules are
# dropped from sys.modules between rounds, the third-party ones are kept.
_EVERY_ORDER = """
import importlib, json, sys
modules = json.loads(sys.argv[1])
failures = []
for first in modules:
    rest = [m for m in modules if m != first]
    for order in ([first, *rest], [first, *reversed(rest)]):
        for name in [n for n in sys.modules if n.split(".")[0] == "posenc_lib"]:
            del sys.modules[name]
        for name in order:
            try:
                importlib.import_module(name)
            except Exception as exc:
                failures.append([order[0], name, f"{type(exc).__name__}: {exc}"])
                break
print(json.dumps(failures))
"""


def test_every_module_imports_first_and_in_any_order_of_the_rest():
    done = subprocess.run(
        [sys.executable, "-c", _EVERY_ORDER, json.dumps(MODULES)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def _room(module):
    """``maths``, ``exercise``, ``figures`` or ``grading`` for a posenc_lib module."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ROOMS else "maths"


def _module_of(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path):
    """``(line, module, names, in_function)`` for each import in ``path``, with
    relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _module_of(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    nested = {id(m) for f in functions for m in ast.walk(f)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, [], id(node) in nested
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names = [alias.name for alias in node.names]
            yield node.lineno, module, names, id(node) in nested


def _private_import(room, module, names):
    """What an import from ``room`` (None: outside the package) reaches that is
    private to another room: a private module, or private names of a module."""
    if module.split(".")[0] != "posenc_lib" or room == _room(module):
        return []
    if any(part.startswith("_") for part in module.split(".")):
        return [module]
    return [f"{module}.{name}" for name in names if name.startswith("_")]


@pytest.mark.parametrize(
    ("room", "module", "names", "found"),
    [
        ("exercise", "posenc_lib.exercise._checking", ["see"], []),
        ("maths", "posenc_lib", ["_fast_table"], []),
        ("exercise", "posenc_lib", ["embedding"], []),
        ("figures", "posenc_lib.validation", ["check_table"], []),
        (None, "posenc_lib.grading.kernel", ["CurrentEnvKernelManager"], []),
        (None, "numpy._core", ["_x"], []),
        ("exercise", "posenc_lib.exercise.commands", ["_is_number"], []),
        ("figures", "posenc_lib._format", ["format_number"], ["posenc_lib._format"]),
        (
            None,
            "posenc_lib.exercise.commands",
            ["run_commands", "_Interpreter"],
            ["posenc_lib.exercise.commands._Interpreter"],
        ),
        (
            "maths",
            "posenc_lib.exercise",
            ["_checking"],
            ["posenc_lib.exercise._checking"],
        ),
    ],
)
def test_a_private_import_across_rooms_is_found(room, module, names, found):
    assert _private_import(room, module, names) == found


def test_no_module_script_or_benchmark_imports_a_private_name_of_another_room():
    found = []
    for folder in ("posenc_lib", "scripts", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            room = _room(_module_of(path)) if folder == "posenc_lib" else None
            for line, module, names, _ in _imports(path):
                if (where, module) in KNOWN:
                    continue
                found += [
                    f"{where}:{line} imports {name}"
                    for name in _private_import(room, module, names)
                ]
    assert found == []


#: imports of a private module across rooms that another issue removes
KNOWN = set()


#: the only imports inside functions: the grader, loaded when it is called
LAZY = {
    ("posenc_lib/__main__.py", "posenc_lib.grading.cli"),
    ("posenc_lib/grading/cli.py", "posenc_lib.grading.grader"),
    ("posenc_lib/grading/grader.py", "posenc_lib.exercise"),
    # the sandbox, once the grade extra (ipykernel, jupyter_client) is known present
    ("posenc_lib/grading/grader.py", "posenc_lib.grading.box"),
}


def test_the_package_imports_its_own_modules_at_the_top_of_each_file():
    inner = {
        (str(path.relative_to(ROOT)), module)
        for path in (ROOT / "posenc_lib").rglob("*.py")
        for _, module, _, in_function in _imports(path)
        if in_function and module.startswith("posenc_lib")
    }
    assert inner == LAZY


#: which rooms each room may import: the maths room none, the lecturer's the
#: exercise's checkers; the ``posenc`` command line (``__main__.py``) joins the
#: learner's ``run`` and the lecturer's ``grade``
MAY_IMPORT = {
    "command line": {"exercise", "grading"},
    "maths": set(),
    "exercise": {"maths"},
    "figures": {"maths"},
    "grading": {"maths", "exercise"},
}


def test_each_room_imports_only_the_rooms_it_may():
    found = {room: set() for room in MAY_IMPORT}
    for path in (ROOT / "posenc_lib").rglob("*.py"):
        room = _room(_module_of(path))
        room = "command line" if path.name == "__main__.py" else room
        for _, module, names, _ in _imports(path):
            if module.split(".")[0] == "posenc_lib":
                targets = [module] if module != "posenc_lib" else names
                rooms = {
                    _room(f"posenc_lib.{t}" if module == "posenc_lib" else t)
                    for t in targets
                }
                found[room] |= rooms - {room}
    assert found == MAY_IMPORT
