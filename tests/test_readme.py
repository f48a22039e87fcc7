"""The README's ``>>>`` examples run as doctests: every number it shows is computed."""

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def test_readme_python_examples_run():
    blocks = PYTHON_BLOCK.findall(README.read_text())
    assert blocks, "the README shows no python examples"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner()
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README block {number}", str(README), 0)
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.attempted and results.failed == 0
