"""What several test modules read from the notebooks, in one place (imported as
``notebook_reading``: pytest puts ``tests/`` on ``sys.path``)."""

#: chapter 05's ``header``: the lesson's table and tokens as commands
EXERCISE_HEADER = """
TABLE 2 4
0.5 -0.5 1 0
1 2 3 4
TOKENS 1 1 1 0
"""
#: chapter 05's ``script``: the lesson's worked trace
EXERCISE_SCRIPT = EXERCISE_HEADER + "LOOKUP 0\nPOSENC 3\nADD 3\nSIM 1 3\n"


def outputs(nb, mime):
    """The ``mime`` data of every stored output of ``nb``'s code cells, in order."""
    return [
        output["data"][mime]
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if mime in output.get("data", {})
    ]
