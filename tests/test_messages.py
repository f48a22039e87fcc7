"""Every rejection names the argument as the user wrote it.

A command's errors name its arguments as its usage line does (``ADD <pos>``:
``ADD: pos == -1, ...``); a function's errors name its parameters as its
signature does (``encode(table, token_ids)``: ``token_ids == 5, ...``). This
file walks every command of the exercise's language and every parameter of every
public function, gives that one parameter a bad value (the others good ones), and
checks that the message starts with the parameter's name (or an element of it,
``positions[0]``, or a part, ``table.shape[1]``).
"""

import importlib
import inspect
import pkgutil
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from IPython.core.interactiveshell import InteractiveShell  # noqa: E402

import posenc_lib  # noqa: E402
import posenc_lib.figures  # noqa: E402
from posenc_lib import pos_encoding, sinusoidal_positions  # noqa: E402
from posenc_lib.attention import init_head  # noqa: E402
from posenc_lib.exercise import run_commands  # noqa: E402
from posenc_lib.exercise.commands import _USAGE  # noqa: E402
from posenc_lib.figures.explorer import Explorer  # noqa: E402
from posenc_lib.lookback import train  # noqa: E402

# -- the commands -------------------------------------------------------------

TABLE = "TABLE 2 4\n0.5 -0.5 1 0\n1 2 3 4\n"
TOKENS = "TOKENS 1 1 1 0\n"
#: for each command, a script that ends in it, with ``{}`` for its arguments
SCRIPTS = {
    "TABLE": "TABLE {}\n0 0\n",
    "TOKENS": TABLE + "TOKENS {}\n",
    "LOOKUP": TABLE + "LOOKUP {}\n",
    "POSENC": TABLE + "POSENC {}\n",
    "ADD": TABLE + TOKENS + "ADD {}\n",
    "SIM": TABLE + "SIM {}\n",
}
GOOD_WORDS = {"vocab_size": "1", "d": "2", "id": "1", "token_id": "1", "pos": "2"}
GOOD_WORDS |= {"p": "1", "q": "2"}
INDICES = ("TOKENS", "LOOKUP", "ADD")  # arguments with an upper bound: 99 is past it


def _command_cases():
    for command, usage in _USAGE.items():
        names = re.findall(r"<(\w+)>", usage)
        if usage.endswith("..."):  # TOKENS <id> <id> ...: one id, two, three
            names = names[:1] * 3
        for index, name in enumerate(names):
            for bad in ("-1", "x", "99") if command in INDICES else ("-1", "x"):
                words = [GOOD_WORDS[n] for n in names]
                words[index] = bad
                yield pytest.param(
                    command, name, index, words, id=f"{command}-{index}-{bad}"
                )


def _error(script):
    with pytest.raises(ValueError) as caught:
        run_commands(script)
    return str(caught.value)


@pytest.mark.parametrize(("command", "name", "index", "words"), list(_command_cases()))
def test_each_command_names_its_arguments_as_its_usage_line(
    command, name, index, words
):
    script = SCRIPTS[command].format(" ".join(words))
    message = _error(script)
    spelled = f"{name}[{index}]" if command == "TOKENS" else name
    where = r"line \d+(, column \d+)?"
    assert re.match(rf"{where}: {command}: {re.escape(spelled)} == ", message), message


def test_the_usage_lines_name_the_arguments_the_messages_use():
    assert _USAGE["ADD"] == "ADD <pos>"
    assert _USAGE["SIM"] == "SIM <p> <q>"
    assert _error(TABLE + TOKENS + "ADD -1").endswith(
        "ADD: pos == -1, must be an integer >= 0."
    )
    assert _error(TABLE + "SIM -1 2").endswith("SIM: p == -1, must be an integer >= 0.")


# -- the functions ------------------------------------------------------------

MODULES = (
    "posenc_lib",
    "posenc_lib.positional",
    "posenc_lib.embedding",
    "posenc_lib.properties",
    "posenc_lib.conventions",
    "posenc_lib.identify",
    "posenc_lib.attention",
    "posenc_lib.word_vectors",
    "posenc_lib.mistakes",
    "posenc_lib.lookback",
    "posenc_lib.exercise",
    "posenc_lib.exercise.commands",
    *(
        info.name
        for info in pkgutil.iter_modules(
            posenc_lib.figures.__path__, "posenc_lib.figures."
        )
    ),
)
#: what the functions return, not what a user calls: no checks to make
RESULTS = {"Identification", "AttentionHead", "CheckResult", "OutputComparison"}
RESULTS |= {"CommandError", "LookBack", "Mistake"}

TABLE_4 = sinusoidal_positions(range(8), 4)  # (8, 4)
SIMILARITY = TABLE_4[:6] @ TABLE_4[:6].T  # (6, 6): PE[p] . PE[q]
RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 4))  # (n, d_model)

#: a good value for each parameter name (a function: made fresh for each call)
GOOD = {
    **dict.fromkeys(("table", "right"), lambda: TABLE_4.copy()),
    "token_ids": [1, 0],
    **dict.fromkeys(("token_id", "p", "offset", "m", "pair", "lag"), 1),
    **dict.fromkeys(("vocab_size", "n_positions", "max_len", "most"), 8),
    **dict.fromkeys(("d_model", "d", "d_head", "n_pairs"), 4),
    "pos": 3,
    **dict.fromkeys(("q", "n"), 2),
    "positions": [0, 1, 2],
    "offsets": [0, 1],
    "base": 10000.0,
    "dtype": np.float64,
    "layout": "interleaved",
    "convention": "concat",
    "matrix": lambda: SIMILARITY.copy(),
    "fn": pos_encoding,
    **dict.fromkeys(("x", "vectors", "a"), lambda: X.copy()),
    "head": lambda: init_head(4),
    "seed": 0,
    "perm": [1, 0, 2, 3],
    "method": "add",
    "scores": [[1.0, 2.0]],
    "axis": -1,
    "text": "TABLE 1 2\n0 0\nPOSENC 0",
    **dict.fromkeys(("lookup", "pos_encoding"), None),
    "time_limit": 5.0,
    "isolated": True,
    **dict.fromkeys(("mine", "reference"), "0.0000 1.0000"),
    "widget": lambda: Explorer(),
    "layer": lambda: lambda x: x,
    "x_q": lambda: X[0].copy(),
    **dict.fromkeys(("x_k", "k"), lambda: X[1].copy()),
    "sentences": ["the cat sat", "the dog sat"],
    "vocab": ["cat", "dog", "sat", "the"],
    "labels": ["a", "b", "c", "d", "e", "f"],
    "groups": ["a", "a", "b", "b"],
    "pairs": [(0, 1), (1, 2)],
    "starts": (0, 5),
    "ax": lambda: plt.figure().add_subplot(),
    "tables": lambda: {"interleaved": TABLE_4.copy()},
    "permutations": {"interleaved": [0, 1, 2, 3]},
    "points": [[0.0, 0.0], [1.0, 1.0]],
    "words": ["cat", "dog"],
    "vector": [0.0, 1.0, 0.0, 1.0],
    "wavelengths": lambda: 2 * np.pi * np.array([1.0, 100.0]),
    "columns": [0, 3],
    **dict.fromkeys(("omega", "vmax"), 1.0),
    "wrong": lambda: TABLE_4[:, ::-1].copy(),
    "name": "reversed",
    "panels": lambda: {"added": np.eye(6)},
    **dict.fromkeys(("added", "rotated"), lambda: np.eye(6)),
    "similarities": lambda: SIMILARITY[0].copy(),
    "figure": lambda: plt.figure(),
    "shell": lambda: InteractiveShell.instance(),
    "moving": lambda: [],
    "image": lambda: plt.figure().add_subplot().imshow(np.zeros((3, 2))),
    "b": lambda: X[::-1].copy(),
    "curves": lambda: {"a": [2.0, 1.0]},
    "references": {"chance": 2.0},
    "model": lambda: train(steps=1)[0],
    "quantity": "encoding",
    "half": False,
    "tokens": lambda: np.zeros((2, 5), int),
}
#: where a name means something else in one function: (function, name) -> value
OWN = {
    ("rope_score", "q"): lambda: X[0].copy(),
    ("clock_faces", "pairs"): [0, 1],
    ("clock_faces", "positions"): [0, 3],
    ("similarity_figure", "offsets"): lambda: np.arange(6),
    ("compare_tables", "name"): "reversed",
    ("identify_encoding", "positions"): None,
    ("plot_encoding_heatmap", "positions"): None,
    ("check_lookup", "fn"): posenc_lib.lookup,
    ("check_sinusoidal_positions", "fn"): sinusoidal_positions,
    ("context_pairs", "vocab"): ["cat", "dog", "sat", "the"],
    ("train_word_vectors", "table"): lambda: RNG.standard_normal((4, 2)),
    ("look_back_heatmaps", "offset"): 1,
    ("rope", "positions"): [0, 1, 2, 3],
    ("self_attention", "positions"): [0, 1, 2, 3],
    ("plot_word_vectors", "groups"): None,
    ("train", "positions"): True,
    ("train", "steps"): 1,
}


def _functions():
    seen = set()
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            function = getattr(module, name)
            if callable(function) and id(function) not in seen and name not in RESULTS:
                seen.add(id(function))
                yield name, function


def _good(function_name, parameter):
    value = OWN.get((function_name, parameter.name), GOOD.get(parameter.name))
    if (function_name, parameter.name) not in OWN and parameter.name not in GOOD:
        value = parameter.default
    made_here = getattr(value, "__name__", "") == "<lambda>"  # a factory above
    return value() if made_here and value.__module__ == __name__ else value


#: free text (a title, a mistake's name, a row's label, what a message calls the
#: entries), which is written with str(): no value is wrong
ANY_VALUE = {"title", "name", "top", "bottom", "entries"}
#: a bad value where "?" would be a good one
BAD = {"text": 5, "mine": 5, "reference": 5}


def _cases():
    for name, function in _functions():
        signature = inspect.signature(function)
        for parameter in signature.parameters.values():
            if parameter.kind is parameter.VAR_KEYWORD or parameter.name in ANY_VALUE:
                continue
            yield pytest.param(
                name, function, parameter.name, id=f"{name}-{parameter.name}"
            )


def _call(name, function, bad):
    args, kwargs = [], {}
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind is parameter.VAR_KEYWORD:
            continue
        value = BAD.get(bad, "?") if parameter.name == bad else _good(name, parameter)
        if parameter.kind is parameter.KEYWORD_ONLY:
            kwargs[parameter.name] = value
        else:
            args.append(value)
    try:
        result = function(*args, **kwargs)
        if inspect.isgenerator(result):
            list(result)
    finally:
        plt.close("all")


@pytest.mark.parametrize(("name", "function", "parameter"), list(_cases()))
def test_each_rejection_names_the_parameter_as_the_signature(name, function, parameter):
    _call(name, function, None)  # the other values are good
    with pytest.raises((TypeError, ValueError)) as caught:
        _call(name, function, parameter)
    message = str(caught.value)
    assert re.match(rf"{re.escape(parameter)}\b", message), message


def test_the_walk_reaches_every_public_function():
    names = {name for name, _ in _functions()}
    assert {"encode", "rope_score", "run_commands", "check_lookup", "heatmap"} <= names
    assert {
        "pair_shift_title",
        "Explorer",
        "train_word_vectors",
        "init_embedding",
        "row_cosines",
    } <= names
