"""The learner's package and the tests keep their line budgets; the package stays in
layers (no import cycle, no module importing another's private name, ``import
posenc_lib`` loads the maths only) and imports none of the course's tools, which its
wheel does not hold."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import posenc_lib

PACKAGE = Path(posenc_lib.__file__).resolve().parent
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_LINES, MAX_MODULE_LINES, MAX_TEST_LINES = 6000, 400, 12000  # issue 41


def _name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path):
    """The modules ``path`` imports (relative imports resolved)."""
    package = _name(path)
    package = package if path.name == "__init__.py" else package.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            yield module
            yield from (f"{module}.{alias.name}" for alias in node.names)


def test_the_package_keeps_its_line_budget():
    lines = {_name(p): len(p.read_text("utf-8").splitlines()) for p in MODULES}
    too_long = {name: n for name, n in lines.items() if n > MAX_MODULE_LINES}
    assert too_long == {}, f"split these modules (at most {MAX_MODULE_LINES} lines)"
    assert sum(lines.values()) <= MAX_LINES, "the package is over its line budget"


def test_the_tests_keep_their_line_budget():
    root = PACKAGE.parent
    files = [*root.glob("tests/**/*.py"), *root.glob("tools/tests/*.py")]
    lines = sum(len(path.read_text("utf-8").splitlines()) for path in files)
    assert lines <= MAX_TEST_LINES, f"tests/ and tools/tests/ hold {lines} lines"


def test_no_module_imports_the_course_tools():
    found = [
        (_name(path), module)
        for path in MODULES
        for module in _imports(path)
        if module.split(".")[0] == "posenc_tools"
    ]
    assert found == []


def test_no_module_imports_another_modules_private_name():
    found = []
    for path in MODULES:
        importer = _name(path)
        for owner, _, name in (m.rpartition(".") for m in _imports(path)):
            private = name.startswith("_") and not name.startswith("__")
            if private and not (importer + ".").startswith(owner + "."):
                found.append(f"{importer} imports {name} from {owner}")
    assert not found, (
        "; ".join(found) + ": a name with a leading underscore is its module's own. "
        "Make it public (no underscore, in __all__, with a docstring) or move it."
    )


def test_the_package_has_no_import_cycle():
    names = {_name(p): p for p in MODULES}
    graph = {
        name: {m for m in _imports(path) if m in names and m != name}
        for name, path in names.items()
    }
    # a package's __init__ re-exporting its modules is not a cycle of theirs
    graph = {
        name: {m for m in targets if not name.startswith(m + ".")}
        for name, targets in graph.items()
    }
    state = {}

    def visit(name, trail):
        state[name] = "open"
        for target in sorted(graph[name]):
            assert state.get(target) != "open", " -> ".join([*trail, target])
            if target not in state:
                visit(target, [*trail, target])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])


def test_import_posenc_lib_loads_the_maths_only():
    code = "import sys, json, posenc_lib; print(json.dumps(sorted(sys.modules)))"
    loaded = json.loads(subprocess.check_output([sys.executable, "-c", code]))
    heavy = ("matplotlib", "ipywidgets", "anywidget", "posenc_lib.exercise")
    assert sorted(posenc_lib._HOME) == sorted(posenc_lib.__all__)  # each has a home
    assert [m for m in loaded if m.startswith(heavy + ("posenc_lib.figures",))] == []
