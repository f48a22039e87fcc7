"""Functions as learners write them, right and wrong, for the checkers' tests.

Each function's docstring is the message its checker gives, exactly
(``tests/test_exercise_checkers.py``); ``tools/tests/test_verdicts.py`` runs this
very file in a kernel, reports each function there as the class grader does, and
checks that the grader's verdict and message are the notebook's. Most functions
are made from tables, one row each: ``name | what it returns | the parts of its
message`` (a template of :data:`MESSAGES`, with the lines :data:`SHARED` and
:data:`PARTS` that many share); the lesson's mistakes from their records
(``posenc_lib.mistakes``). Each name starts with its task: ``pe_``
(pos_encoding), ``lu_`` (lookup), ``sp_`` (sinusoidal_positions). No function
here loops (a hang costs the time limit: tests/test_adversarial_checkers.py).
"""

# ruff: noqa: E501 - a docstring is a message, one line a line

import inspect
import math
import os
import sys

import numpy as np

from posenc_lib import pos_encoding, sinusoidal_positions
from posenc_lib.mistakes import MISTAKES

TASKS = {"pe": "pos_encoding", "lu": "lookup", "sp": "sinusoidal_positions"}
ARGS = {"pe": "pos, d", "lu": "table, token_id", "sp": "positions, d_model"}
_ARRAY = "The next step adds a row and an encoding, and Python's + joins lists and tuples instead of adding their numbers: return a numpy array."
_02 = 'See chapter 02: "The formula", '
#: the lines many messages share, by task: its first call, what it expects, ...
SHARED = {
    "pe": dict(
        task="pos_encoding",
        call="pos_encoding(0, 4)",
        expected="[0.0000 1.0000 0.0000 1.0000]",
        numbers="4 numbers, shape (4,)",
        see=_02 + '"The worked trace".',
        passed="pos_encoding: passed all 7 cases.\nFor example pos_encoding(3, 4) = [0.1411 -0.9900 0.0300 0.9996].",
    ),
    "lu": dict(
        task="lookup",
        call="lookup(table, 0)",
        expected="[0.5000 -0.5000 1.0000 0.0000]",
        changed="lookup: not right yet; the table must not change.\nTried:    lookup(table, 0)\nCalling it changed the table it was given (your function wrote into it; it should only read it):",
        see='See chapter 01: "The table", "The lookup returns a copy".',
        passed="lookup: passed all 5 cases.\nFor example lookup(table, 0) = [0.5000 -0.5000 1.0000 0.0000].",
    ),
    "sp": dict(
        task="sinusoidal_positions",
        call="sinusoidal_positions([0, 1], 4)",
        expected="[[0.0000 1.0000 0.0000 1.0000] [0.8415 0.5403 0.0100 1.0000]]",
        see=_02 + '"The exercise card\'s two examples".',
        passed="sinusoidal_positions: passed all 6 cases.\nFor example sinusoidal_positions([0, 1], 4) = [[0.0000 1.0000 0.0000 1.0000] [0.8415 0.5403 0.0100 1.0000]].",
    ),
}
for _shared in SHARED.values():
    _shared |= dict(
        array=_ARRAY, columns="Columns that differ (by more than rtol = atol = 1e-6):"
    )

if sys.version_info < (3, 11):  # no ExceptionGroup: one that reads as 3.11's

    class ExceptionGroup(Exception):  # noqa: A001, N818
        def __str__(self):
            return f"{self.args[0]} ({len(self.args[1])} sub-exceptions)"


def functions():
    """``(task, name, function)`` for every function of this module."""
    for name, value in globals().items():
        if callable(value) and name[:3] in {f"{t}_" for t in TASKS}:
            yield TASKS[name[:2]], name, value


def _angles(positions, d, angle_of=lambda pos, pair, d: pos / 10000 ** (2 * pair / d)):
    """A learner's loop: rows of (sin, cos) of ``angle_of(pos, pair, d)``."""
    return [
        [
            (math.sin if k % 2 == 0 else math.cos)(angle_of(pos, k // 2, d))
            for k in range(d)
        ]
        for pos in positions
    ]


def _halves(positions, d, first=np.sin, second=np.cos):
    angle = np.outer(positions, 1 / 10000 ** (2 * np.arange(d // 2) / d))  # (n, d/2)
    return np.concatenate([first(angle), second(angle)], axis=1)  # (n, d)


def _raise(error):
    raise error


class _Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("cannot print me")


class _BadArray:
    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("no array here")


class _BadRepr(list):
    def __repr__(self):
        raise ValueError("no repr either")


# -- functions of one line: name | what it returns | the parts of its message ----

MESSAGES = {  # a table's message; {0}, {1}, ...: the row's parts
    "passed": "{passed}",
    "not an array": "{task}: not right yet; your function returns a {0}, not a numpy array.\nTried:    {call}\n{array}\n{see}",
    "dtype": "{task}: not right yet; your function returns {0}.\nTried:    {call}\n{1}\n{see}",
    "not implemented": "{task}: not implemented yet.\nCalling {call} raised {0}.\nReplace the `raise NotImplementedError` line with your code, then run this check again.",
    "raised": "{task}: your function raised an error.\nTried:    {call}\nExpected: {expected}\nGot:      {0}\n{see}",
    "ended": "{task}: your function ended the process running the check ({0}) instead of returning an answer.\nReturn the answer; do not end the program. (The check ran in a copy of this process, which is unharmed.)\n{see}",
    "wrong kind": "{task}: your function returned the wrong kind of answer.\nTried:    {call}\nExpected: {numbers}\nGot:      {0}\n{see}",
    "rounded": "{task}: not right yet; your function returns values rounded to {0} decimals.\n{1}\nReturn them unrounded: the check compares within rtol = atol = 1e-6.\n{see}",
    "none": "{task}: not right yet ({0} cases differ); it matches none of the common mistakes.\n{1}\n{see}",
    "bug": "{task}: not right yet; {0}.\n{2}\n{1}\n{see}",
    "convention": "{task}: not the exercise's layout yet; your answer follows the '{0}' convention.\n{3}\nThat is a valid convention, used by {1}.\nThe exercise asks for the interleaved one: sin(angle) in column 2*pair and cos(angle) in column 2*pair + 1.\nTo change: {2}\n{see}",
}
#: rows of the tables below may use these; \n is a new line, {|} a bar
PARTS = {
    "{concat}": "concat | Marian and RoFormer in Hugging Face transformers, GPT-J's sinusoidal positions, Transformer-XL and many diffusion codebases | write each pair's sine and cosine side by side (columns 2*pair and 2*pair + 1) instead of concatenating all sines, then all cosines.",
    "{t2t}": "tensor2tensor | tensor2tensor's get_timing_signal_1d, fairseq, FSMT and M2M100 in Hugging Face transformers, the DDPM timestep embedding, and diffusers' get_timestep_embedding by default | use the exponent 2 * pair / d (yours is pair / (d/2 - 1)), and write sin and cos side by side (columns 2*pair and 2*pair + 1) instead of [sin {|} cos] halves.",
    "{off by one}": "it looks off by one: your answer for position p is PE[p + 1] | Positions count from 0: the first token is at position 0, and PE[0] is [0, 1, 0, 1, ...].\nUse the position as given; do not add 1 to it.",
    "{multiplied}": "it looks like multiply instead of divide | Your angles are pos * 10000 ** (2 * pair / d): they grow with the pair, so the later pairs turn fastest.\nIn the formula the position is divided by 10000 ** (2 * pair / d), so the later pairs turn slowest.",
    "{pe 0}": "Tried:    pos_encoding(0, 4)\nExpected: [0.0000 1.0000 0.0000 1.0000]\nGot:      ",
    "{pe 3}": "Tried:    pos_encoding(3, 4)\nExpected: [0.1411 -0.9900 0.0300 0.9996]\nGot:      ",
    "{sp 0}": "Tried:    sinusoidal_positions([0, 1], 4)\nRow 0 of the answer:\nExpected: [0.0000 1.0000 0.0000 1.0000]\nGot:      ",
    "{sp 1}": "Tried:    sinusoidal_positions([0, 1], 4)\nRow 1 of the answer:\nExpected: [0.8415 0.5403 0.0100 1.0000]\nGot:      ",
    "{lu 0}": "Tried:    lookup(table, 0)\nExpected: [0.5000 -0.5000 1.0000 0.0000]\nGot:      ",
    "{columns}": "\nColumns that differ (by more than rtol = atol = 1e-6):",
}
TABLES = {
    "passed": r"""
pe_float32 | np.array(_angles([pos], d)[0], dtype=np.float32)
pe_masked_array | np.ma.masked_array(_angles([pos], d)[0])
lu_copy | table[token_id].copy()
lu_float32 | np.array(table[token_id], np.float32)
sp_array_of_lists | np.array(_angles(positions, d_model))
sp_list_of_arrays_stacked | np.stack([pos_encoding(p, d_model) for p in positions])
""",
    "not an array": r"""
pe_loop_list | _angles([pos], d)[0] | list
pe_tuple | tuple(_angles([pos], d)[0]) | tuple
pe_list_of_numpy_floats | list(pos_encoding(pos, d)) | list
lu_list | [float(x) for x in table[token_id]] | list
lu_tuple | tuple(table[token_id]) | tuple
sp_list_of_lists | _angles(positions, d_model) | list
""",
    "dtype": r"""
pe_float16 | pos_encoding(pos, d).astype(np.float16) | float16 numbers | float16 keeps about 3 decimals: return float64 (float32 passes too).
pe_integer_array | np.array(_angles([pos], d)[0]).astype(np.int64) | integers (dtype int64) | Integers keep nothing after the decimal point (0.8415 becomes 0): return floats.
lu_integer_copy | np.array(table[token_id], dtype=np.int64) | integers (dtype int64) | Integers keep nothing after the decimal point (0.8415 becomes 0): return floats.
""",
    "not implemented": r"""
pe_stub | _raise(NotImplementedError("write this function")) | NotImplementedError: write this function
lu_stub | _raise(NotImplementedError("write this function")) | NotImplementedError: write this function
sp_stub | _raise(NotImplementedError) | NotImplementedError
""",
    "raised": r"""
pe_divides_by_pos | [1 / pos] * d | ZeroDivisionError: division by zero
pe_unicode_decode_error | b"\xff".decode("utf-8") | UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte
pe_exception_group | _raise(ExceptionGroup("two problems", [ValueError("a"), TypeError("b")])) | ExceptionGroup: two problems (2 sub-exceptions)
pe_unprintable_error | _raise(_Unprintable) | _Unprintable: (its message could not be shown)
pe_sys_exit | sys.exit(0) | SystemExit: 0 (sys.exit() ends the program; return the answer instead)
pe_system_exit_text | _raise(SystemExit("bye")) | SystemExit: bye (sys.exit() ends the program; return the answer instead)
pe_keyboard_interrupt | _raise(KeyboardInterrupt) | KeyboardInterrupt
pe_input | [float(input("a number: "))] * d | EOFError: EOF when reading a line (input() has nothing to read here: take what you need as arguments)
""",
    "ended": r"""
pe_os_exit | os._exit(0) | it exited with status 0: os._exit()?
pe_killed | os.kill(os.getpid(), 9) | it was killed by SIGKILL
""",
    "rounded": r"""
pe_rounded_4 | np.round(pos_encoding(pos, d), 4) | 4 | Tried:    pos_encoding(3, 4)\nExpected: [0.14112001 -0.98999250 0.02999550 0.99955003]\nGot:      [0.14110000 -0.99000000 0.03000000 0.99960000]{columns} 0, 1, 2, 3.
pe_rounded_2 | [round(x, 2) for x in _angles([pos], d)[0]] | 2 | {pe 3}[0.1400 -0.9900 0.0300 1.0000]{columns} 0, 1, 2, 3.
sp_rounded_3 | sinusoidal_positions(positions, d_model).round(3) | 3 | {sp 1}[0.8410 0.5400 0.0100 1.0000]{columns} 0, 1, 3.
""",
    "none": r"""
pe_base_1000 | _angles([pos], d, lambda pos, pair, d: pos / 1000 ** (2 * pair / d))[0] | 5 of 7 | {pe 3}[0.1411 -0.9900 0.0947 0.9955]{columns} 2, 3.\nFirst difference: column 2, in pair 1 (columns 2 and 3).\n  Expected angle: 3 / 10000 ** (2 * 1 / 4) = 0.0300 rad\n  Your angle:     0.0949 rad (arctan2 of columns 2 and 3, up to whole turns)
pe_plus_a_hundredth | pos_encoding(pos, d) + 0.01 | 7 of 7 | {pe 0}[0.0100 1.0100 0.0100 1.0100]{columns} 0, 1, 2, 3.\nFirst difference: column 0, in pair 0 (columns 0 and 1).\n  Expected angle: 0 / 10000 ** (2 * 0 / 4) = 0.0000 rad\n  Your columns (0.0100, 1.0100) are not the sine and cosine of one angle: sin^2 + cos^2 = 1.0202, not 1.
lu_row_before | table[token_id - 1].copy() | 5 of 5 | {lu 0}[-1.5000 0.2500 7.0000 -3.0000]{columns} 0, 1, 2, 3.\nThat is row 2 of the table; row 0 was asked for.
lu_plus_one | table[token_id] + 1 | 5 of 5 | {lu 0}[1.5000 0.5000 2.0000 1.0000]{columns} 0, 1, 2, 3.
sp_base_1000 | np.array([pe_base_1000(p, d_model) for p in positions]) | 5 of 6 | {sp 1}[0.8415 0.5403 0.0316 0.9995]{columns} 2, 3.\nFirst difference: column 2, in pair 1 (columns 2 and 3).\n  Expected angle: 1 / 10000 ** (2 * 1 / 4) = 0.0100 rad\n  Your angle:     0.0316 rad (arctan2 of columns 2 and 3, up to whole turns)
""",
    "bug": r"""
pe_off_by_one | pos_encoding(pos + 1, d) | {off by one} | {pe 0}[0.8415 0.5403 0.0100 1.0000]{columns} 0, 1, 2, 3.
pe_multiplied | _angles([pos], d, lambda pos, pair, d: pos * 10000 ** (2 * pair / d))[0] | {multiplied} | {pe 3}[0.1411 -0.9900 -0.9998 -0.0221]{columns} 2, 3.
pe_degrees | _angles([pos], d, lambda pos, pair, d: math.radians(pos / 10000 ** (2 * pair / d)))[0] | it looks like the angle was read as degrees | Your sines and cosines are those of angle * pi / 180, as if the angle were in degrees (math.radians(angle), or a calculator in DEG mode).\nThe formula's angle is already in radians, which is what np.sin, np.cos, math.sin and math.cos take: pass it as it is. | {pe 3}[0.0523 0.9986 0.0005 1.0000]{columns} 0, 1, 2, 3.
sp_ignores_positions | np.array(_angles(range(len(positions)), d_model)) | the positions given were ignored: row k is PE[k] | Your rows are the encodings of 0, 1, ..., n - 1 (range(len(positions))), whatever positions holds.\nRow k must be PE[positions[k]]: compute the angles from the positions themselves. | Tried:    sinusoidal_positions([2, 0, 5], 2)\nRow 0 of the answer:\nExpected: [0.9093 -0.4161]\nGot:      [0.0000 1.0000]{columns} 0, 1.
sp_sorts_positions | np.array(_angles(sorted(positions), d_model)) | the positions were sorted first | Your rows are the encodings of sorted(positions).\nRow k must be PE[positions[k]], in the order given (the card: positions come in any order, repeats allowed). | Tried:    sinusoidal_positions([2, 0, 5], 2)\nRow 0 of the answer:\nExpected: [0.9093 -0.4161]\nGot:      [0.0000 1.0000]{columns} 0, 1.
sp_off_by_one | np.array(_angles([p + 1 for p in positions], d_model)) | {off by one} | {sp 0}[0.8415 0.5403 0.0100 1.0000]{columns} 0, 1, 2, 3.
sp_multiplied | np.array([pe_multiplied(p, d_model) for p in positions]) | {multiplied} | {sp 1}[0.8415 0.5403 -0.5064 0.8623]{columns} 2, 3.
""",
    "convention": r"""
pe_concat | _halves([pos], d)[0] | {concat} | {pe 0}[0.0000 0.0000 1.0000 1.0000]{columns} 1, 2.
pe_cos_first | _halves([pos], d, np.cos, np.sin)[0] | cos-first | the timestep embeddings of OpenAI's guided-diffusion and GLIDE, and diffusers' get_timestep_embedding with flip_sin_to_cos=True and downscale_freq_shift=0 | the sine comes first in each pair; write sin(angle) and cos(angle) side by side (columns 2*pair and 2*pair + 1) instead of [cos {|} sin] halves. | {pe 0}[1.0000 1.0000 0.0000 0.0000]{columns} 0, 3.
pe_tensor2tensor | np.concatenate([np.sin(_t2t(pos, d)), np.cos(_t2t(pos, d))]) | {t2t} | {pe 0}[0.0000 0.0000 1.0000 1.0000]{columns} 1, 2.
sp_concat | _halves(positions, d_model) | {concat} | {sp 0}[0.0000 0.0000 1.0000 1.0000]{columns} 1, 2.
sp_tensor2tensor | [pe_tensor2tensor(p, d_model) for p in positions] | {t2t} | {sp 0}[0.0000 0.0000 1.0000 1.0000]{columns} 1, 2.
""",
    "wrong kind": r"""
pe_none | None | None (is a `return` missing?)
pe_too_short | [0.0, 1.0] | [0.0, 1.0], of shape (2,)
pe_strings | ["0"] * d | ['0', '0', '0', '0'], which is not numbers (dtype <U1)
pe_ragged | [[0.0], [1.0, 0.0]] | [[0.0], [1.0, 0.0]], which is not an array of numbers
pe_scalar | 0.5 | 0.5, of shape ()
pe_nan | [math.nan] * d | [nan, nan, nan, nan], which holds nan or inf
pe_huge_list | [0.5] * 2_000_000 | a list holding 2000000 items, far more than shape (4,) holds
pe_one_huge_row | [[0.5] * 2_000_000] | a list whose item 0 holds 2000000 items, far more than shape (4,) holds
pe_array_raises | _BadArray() | an object of type _BadArray that cannot be read as numbers (RuntimeError: no array here)
pe_repr_raises | _BadRepr([1.0, 2.0]) | an object of type _BadRepr that cannot be read as numbers (ValueError: no repr either)
""",
}

# -- the lesson's mistakes, made from their records: name | where the first
# difference is: the call, the row (if any), expected, got, columns -----------

MISTAKEN = r"""
pe_k_instead_of_pair | pos_encoding(3, 4) | | [0.1411 -0.9900 0.0300 0.9996] | [0.1411 0.9996 0.0003 1.0000] | 1, 2, 3
pe_swapped_sin_cos | pos_encoding(0, 4) | | [0.0000 1.0000 0.0000 1.0000] | [1.0000 0.0000 1.0000 0.0000] | 0, 1, 2, 3
pe_integer_division | pos_encoding(3, 4) | | [0.1411 -0.9900 0.0300 0.9996] | [0.1411 -0.9900 0.1411 -0.9900] | 2, 3
pe_integer_power | pos_encoding(1, 6) | | [0.8415 0.5403 0.0464 0.9989 0.0022 1.0000] | [0.8415 0.5403 0.0476 0.9989 0.0022 1.0000] | 2, 3
sp_k_instead_of_pair | sinusoidal_positions([0, 1], 4) | 1 | [0.8415 0.5403 0.0100 1.0000] | [0.8415 1.0000 0.0001 1.0000] | 1, 2, 3
sp_integer_power | sinusoidal_positions([1, 10, 0], 6) | 0 | [0.8415 0.5403 0.0464 0.9989 0.0022 1.0000] | [0.8415 0.5403 0.0476 0.9989 0.0022 1.0000] | 2, 3
"""


def _mistake_message(task, mistake, call, row, expected, got, columns):
    record = MISTAKES[mistake]
    (notebook, taught) = record.taught
    return "\n".join([
        f"{task}: not right yet; this is the mistake '{mistake}'.",
        f"Tried:    {call}", *([f"Row {row} of the answer:"] if row else []),
        f"Expected: {expected}", f"Got:      {got}",
        f"{SHARED['pe']['columns']} {columns}.", record.explanation,
        f"Your code probably has: {record.wrong_line}",
        f'See chapter {notebook[:2]}: "{taught}"; chapter 05: "{record.section}".',
    ])  # fmt: skip


def _t2t(pos, d):
    """tensor2tensor's angles: pair k turns at 10000 ** (-k / (d/2 - 1))."""
    return pos * np.exp(-np.arange(d // 2) * math.log(10000.0) / max(d // 2 - 1, 1))


def _define(name, returns, message):
    fn = eval(f"lambda {ARGS[name[:2]]}: {returns}", globals())  # noqa: S307
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = message
    globals()[name] = fn


for _kind, _table in TABLES.items():
    for _row in _table.strip().splitlines():
        for _part, _text in PARTS.items():
            _row = _row.replace(_part, _text)
        _name, _returns, *_parts = _row.split(" | ")
        _parts = [p.replace(r"\n", "\n").replace("{|}", "|") for p in _parts]
        _define(_name, _returns, MESSAGES[_kind].format(*_parts, **SHARED[_name[:2]]))
for _row in MISTAKEN.strip().splitlines():
    _name, *_where = (part.strip() for part in _row.split("|"))
    _mistake = _name[3:].replace("_", "-")
    _returns = f"MISTAKES[{_mistake!r}](pos, d)"
    if _name.startswith("sp_"):
        _returns = f"np.array([MISTAKES[{_mistake!r}](p, d_model) for p in positions])"
    _define(_name, _returns, _mistake_message(TASKS[_name[:2]], _mistake, *_where))


# -- pos_encoding -------------------------------------------------------------


def pe_sine_only(pos, d):
    """pos_encoding: not right yet; this is the mistake 'sine-only'.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [0.0000 0.0000 0.0000 0.0000]
    {columns} 1, 3.
    Every column holds a sine, so both columns of a pair are equal and PE[pos] . PE[pos] is no longer d / 2.
    Your code probably has: pe[k] = np.sin(angle)
    See chapter 02: "The formula"; chapter 05: "3. `sine-only`".
    """
    return list(MISTAKES["sine-only"](pos, d))  # a list: still the mistake named


def pe_no_width_two(pos, d):
    """pos_encoding: your function raised an error.
    Tried:    pos_encoding(2, 2)
    Expected: [0.9093 -0.4161]
    Got:      ValueError: d must be at least 4
    {see}
    """
    if d == 2:
        raise ValueError("d must be at least 4")
    return pos_encoding(pos, d)


def pe_os_write(pos, d):
    """{passed}"""
    os.write(sys.stdout.fileno(), f"pos={pos}\n".encode())
    return pos_encoding(pos, d)


def pe_forks(pos, d):
    """{passed}"""
    # its copy answers zeros, itself the right numbers: only itself may answer
    if os.fork() == 0:
        return [0.0] * d
    os.wait()
    return pos_encoding(pos, d)


def pe_patches_allclose(pos, d):
    """pos_encoding: not right yet (7 of 7 cases differ); it matches none of the common mistakes.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [0.0000 0.0000 0.0000 0.0000]
    {columns} 1, 3.
    First difference: column 1, in pair 0 (columns 0 and 1).
      Expected angle: 0 / 10000 ** (2 * 0 / 4) = 0.0000 rad
      Your columns (0.0000, 0.0000) are not the sine and cosine of one angle: sin^2 + cos^2 = 0.0000, not 1.
    {see}
    """
    np.allclose = lambda *args, **kwargs: True  # in the child only
    return [0.0] * d


# -- lookup -------------------------------------------------------------------


def lu_view(table, token_id):
    """lookup: not right yet; this is the mistake 'added-to-table'.
    Tried:    lookup(table, 0)
    The row you return is a view into the table (they share memory).
    After row += pos_encoding(3, d), the table itself would change:
      table[0] before: [0.5000 -0.5000 1.0000 0.0000]
      table[0] after:  [0.6411 -1.4900 1.0300 0.9996]
    lookup returns a view of the row, so adding the encoding in place writes it into the embedding table.
    Your code probably has: return table[token_id]
    See chapter 01: "The lookup returns a copy"; chapter 05: "6. `added-to-table`".
    """
    return table[token_id]


def lu_view_of_a_slice(table, token_id):
    """lookup: not right yet; this is the mistake 'added-to-table'.
    Tried:    lookup(table, 0)
    The row you return is a view into the table (they share memory).
    So row += pos_encoding(3, d) would change the table too.
    lookup returns a view of the row, so adding the encoding in place writes it into the embedding table.
    Your code probably has: return table[token_id]
    See chapter 01: "The lookup returns a copy"; chapter 05: "6. `added-to-table`".
    """
    return table[token_id][::-1]


def lu_read_only_view(table, token_id):
    """lookup: not right yet; return a new array, not a view.
    Tried:    lookup(table, 0)
    The row you return is a read-only view into the table (they share memory).
    So row += pos_encoding(3, d) leaves the table alone but raises ValueError: output array is read-only.
    The next step adds the encoding to the row: return a new array.
    {see}
    """
    row = table[token_id]
    row.flags.writeable = False
    return row


def lu_adds_into_table(table, token_id):
    """{changed}
      table[0] before: [0.5000 -0.5000 1.0000 0.0000]
      table[0] after:  [0.5000 0.5000 1.0000 1.0000]
    {see}
    """
    table[token_id] += pos_encoding(token_id, table.shape[1])
    return table[token_id].copy()


def lu_zeroes_another_row(table, token_id):
    """{changed}
      table[1] before: [1.0000 2.0000 3.0000 4.0000]
      table[1] after:  [0.0000 0.0000 0.0000 0.0000]
    {see}
    """
    table[(token_id + 1) % len(table)] = 0.0
    return table[token_id].copy()


def lu_clears_table(table, token_id):
    """{changed}
      table[0] before: [0.5000 -0.5000 1.0000 0.0000]
      table[0] after:  [0.0000 0.0000 0.0000 0.0000]
      table[1] before: [1.0000 2.0000 3.0000 4.0000]
      table[1] after:  [0.0000 0.0000 0.0000 0.0000]
      table[2] before: [-1.5000 0.2500 7.0000 -3.0000]
      table[2] after:  [0.0000 0.0000 0.0000 0.0000]
    {see}
    """
    row = table[token_id].copy()
    table[:] = 0.0
    return row


def lu_resizes_table(table, token_id):
    """{changed}
      its shape went from (3, 4) to (1, 4).
    {see}
    """
    row = table[token_id].copy()
    table.resize((1, table.shape[1]), refcheck=False)
    return row


def lu_column(table, token_id):
    """lookup: not right yet; that is column 0 of the table, not row 0.
    Tried:    lookup(table, 0)
    Expected: [0.5000 -0.5000 1.0000 0.0000] (row 0, 4 numbers)
    Got:      [0.5000 1.0000 -1.5000] (table[:, 0], 3 numbers)
    The table has one row per token: token t's vector is row t, not column t.
    {see}
    """
    return table[:, token_id].copy()


# -- sinusoidal_positions -----------------------------------------------------


def sp_transposed(positions, d_model):
    """sinusoidal_positions: your function returned the wrong kind of answer.
    Tried:    sinusoidal_positions([0, 1], 4)
    Expected: 8 numbers, shape (2, 4)
    Got:      array([[0. , 0.84147098], [1. , 0.54030231], [0. , 0.00999983], [1...., of shape (4, 2)
    It looks transposed: one row per position is wanted.
    {see}
    """
    return sinusoidal_positions(positions, d_model).T


def sp_empties_positions(positions, d_model):
    """{passed}"""
    table = sinusoidal_positions(positions, d_model)
    positions.clear()
    return table


for _task, _name, _fn in list(functions()):  # the written ones: fill their {...}
    _fn.__doc__ = inspect.cleandoc(_fn.__doc__).format_map(SHARED[_name[:2]])
