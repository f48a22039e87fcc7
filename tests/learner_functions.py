"""Functions as learners write them, right and wrong, for the checkers' tests.

Each function's docstring is the message its checker gives, exactly:
``tests/test_exercise_checkers.py`` checks that, and
``tools/tests/test_verdicts.py`` runs this very file in a kernel, reports each
function there as the class grader does, and checks that the grader's verdict
and message are the notebook's. Each name starts with its task: ``pe_``
(pos_encoding), ``lu_`` (lookup), ``sp_`` (sinusoidal_positions). No function
here loops: a hang costs the time limit (tests/test_adversarial_checkers.py).
"""

# ruff: noqa: E501 - a docstring is a message, one line a line

import math
import os
import sys

import numpy as np

from posenc_lib import pos_encoding, sinusoidal_positions
from posenc_lib.mistakes import MISTAKES

TASKS = {"pe": "pos_encoding", "lu": "lookup", "sp": "sinusoidal_positions"}

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


# -- pos_encoding -------------------------------------------------------------


def pe_loop_list(pos, d):
    """pos_encoding: not right yet; your function returns a list, not a numpy array.
    Tried:    pos_encoding(0, 4)
    The next step adds a row and an encoding, and Python's + joins lists and tuples instead of adding their numbers: return a numpy array.
    See chapter 02: "The formula", "The worked trace".
    """
    return _angles([pos], d)[0]


def pe_tuple(pos, d):
    """pos_encoding: not right yet; your function returns a tuple, not a numpy array.
    Tried:    pos_encoding(0, 4)
    The next step adds a row and an encoding, and Python's + joins lists and tuples instead of adding their numbers: return a numpy array.
    See chapter 02: "The formula", "The worked trace".
    """
    return tuple(_angles([pos], d)[0])


def pe_float32(pos, d):
    """pos_encoding: passed all 7 cases.
    For example pos_encoding(3, 4) = [0.1411 -0.9900 0.0300 0.9996].
    """
    return np.array(_angles([pos], d)[0], dtype=np.float32)


def pe_masked_array(pos, d):
    """pos_encoding: passed all 7 cases.
    For example pos_encoding(3, 4) = [0.1411 -0.9900 0.0300 0.9996].
    """
    return np.ma.masked_array(_angles([pos], d)[0])


def pe_list_of_numpy_floats(pos, d):
    """pos_encoding: not right yet; your function returns a list, not a numpy array.
    Tried:    pos_encoding(0, 4)
    The next step adds a row and an encoding, and Python's + joins lists and tuples instead of adding their numbers: return a numpy array.
    See chapter 02: "The formula", "The worked trace".
    """
    return list(pos_encoding(pos, d))


def pe_rounded_4(pos, d):
    """pos_encoding: not right yet; your function returns values rounded to 4 decimals.
    Tried:    pos_encoding(3, 4)
    Expected: [0.14112001 -0.98999250 0.02999550 0.99955003]
    Got:      [0.14110000 -0.99000000 0.03000000 0.99960000]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 1, 2, 3.
    Return them unrounded: the check compares within rtol = atol = 1e-6.
    See chapter 02: "The formula", "The worked trace".
    """
    return np.round(pos_encoding(pos, d), 4)


def pe_rounded_2(pos, d):
    """pos_encoding: not right yet; your function returns values rounded to 2 decimals.
    Tried:    pos_encoding(3, 4)
    Expected: [0.1411 -0.9900 0.0300 0.9996]
    Got:      [0.1400 -0.9900 0.0300 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 1, 2, 3.
    Return them unrounded: the check compares within rtol = atol = 1e-6.
    See chapter 02: "The formula", "The worked trace".
    """
    return [round(x, 2) for x in _angles([pos], d)[0]]


def pe_float16(pos, d):
    """pos_encoding: not right yet; your function returns float16 numbers.
    Tried:    pos_encoding(0, 4)
    float16 keeps about 3 decimals: return float64 (float32 passes too).
    See chapter 02: "The formula", "The worked trace".
    """
    return pos_encoding(pos, d).astype(np.float16)


def pe_integer_array(pos, d):
    """pos_encoding: not right yet; your function returns integers (dtype int64).
    Tried:    pos_encoding(0, 4)
    Integers keep nothing after the decimal point (0.8415 becomes 0): return floats.
    See chapter 02: "The formula", "The worked trace".
    """
    row = np.zeros(d, dtype=np.int64)  # the learner's slip: an integer array
    row[:] = _angles([pos], d)[0]
    return row


def pe_k_instead_of_pair(pos, d):
    """pos_encoding: not right yet; this is the mistake 'k-instead-of-pair'.
    Tried:    pos_encoding(3, 4)
    Expected: [0.1411 -0.9900 0.0300 0.9996]
    Got:      [0.1411 0.9996 0.0003 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 1, 2, 3.
    The exponent uses the column k instead of pair = k // 2, so the two columns of a pair get different frequencies.
    Your code probably has: angle = pos / 10000 ** (2 * k / d)
    See chapter 02: "The formula"; chapter 05: "1. `k-instead-of-pair`".
    """
    return MISTAKES["k-instead-of-pair"](pos, d)


def pe_swapped_sin_cos(pos, d):
    """pos_encoding: not right yet; this is the mistake 'swapped-sin-cos'.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [1.0000 0.0000 1.0000 0.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 1, 2, 3.
    Cosine is in the even columns and sine in the odd ones, so position 0 is [1, 0, 1, 0, ...] instead of [0, 1, 0, 1, ...].
    Your code probably has: pe[k] = np.cos(angle) if k % 2 == 0 else np.sin(angle)
    See chapter 02: "Position 0"; chapter 05: "2. `swapped-sin-cos`".
    """
    return MISTAKES["swapped-sin-cos"](pos, d)


def pe_sine_only(pos, d):
    """pos_encoding: not right yet; this is the mistake 'sine-only'.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [0.0000 0.0000 0.0000 0.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 1, 3.
    Every column holds a sine, so both columns of a pair are equal and PE[pos] . PE[pos] is no longer d / 2.
    Your code probably has: pe[k] = np.sin(angle)
    See chapter 02: "The formula"; chapter 05: "3. `sine-only`".
    """
    return list(MISTAKES["sine-only"](pos, d))


def pe_integer_division(pos, d):
    """pos_encoding: not right yet; this is the mistake 'integer-division'.
    Tried:    pos_encoding(3, 4)
    Expected: [0.1411 -0.9900 0.0300 0.9996]
    Got:      [0.1411 -0.9900 0.1411 -0.9900]
    Columns that differ (by more than rtol = atol = 1e-6): 2, 3.
    The exponent (2 * pair) // d truncates to 0, so every pair gets frequency 1 and repeats sin(pos), cos(pos).
    Your code probably has: angle = pos / 10000 ** ((2 * pair) // d)
    See chapter 02: "The formula"; chapter 05: "4. `integer-division`".
    """
    return MISTAKES["integer-division"](pos, d)


def pe_integer_power(pos, d):
    """pos_encoding: not right yet; this is the mistake 'integer-power'.
    Tried:    pos_encoding(1, 6)
    Expected: [0.8415 0.5403 0.0464 0.9989 0.0022 1.0000]
    Got:      [0.8415 0.5403 0.0476 0.9989 0.0022 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 2, 3.
    The divisor 10000 ** (2 * pair / d) is truncated to an integer, so frequencies are slightly off wherever it is not a whole number.
    Your code probably has: angle = pos / int(10000 ** (2 * pair / d))
    See chapter 02: "The formula"; chapter 05: "5. `integer-power`".
    """
    return MISTAKES["integer-power"](pos, d)


def pe_base_1000(pos, d):
    """pos_encoding: not right yet (5 of 7 cases differ); it matches none of the common mistakes.
    Tried:    pos_encoding(3, 4)
    Expected: [0.1411 -0.9900 0.0300 0.9996]
    Got:      [0.1411 -0.9900 0.0947 0.9955]
    Columns that differ (by more than rtol = atol = 1e-6): 2, 3.
    First difference: column 2, in pair 1 (columns 2 and 3).
      Expected angle: 3 / 10000 ** (2 * 1 / 4) = 0.0300 rad
      Your angle:     0.0949 rad (arctan2 of columns 2 and 3, up to whole turns)
    See chapter 02: "The formula", "The worked trace".
    """
    return _angles([pos], d, lambda pos, pair, d: pos / 1000 ** (2 * pair / d))[0]


def pe_plus_a_hundredth(pos, d):
    """pos_encoding: not right yet (7 of 7 cases differ); it matches none of the common mistakes.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [0.0100 1.0100 0.0100 1.0100]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 1, 2, 3.
    First difference: column 0, in pair 0 (columns 0 and 1).
      Expected angle: 0 / 10000 ** (2 * 0 / 4) = 0.0000 rad
      Your columns (0.0100, 1.0100) are not the sine and cosine of one angle: sin^2 + cos^2 = 1.0202, not 1.
    See chapter 02: "The formula", "The worked trace".
    """
    return pos_encoding(pos, d) + 0.01


def pe_concat(pos, d):
    """pos_encoding: not the exercise's layout yet; your answer follows the 'concat' convention.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [0.0000 0.0000 1.0000 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 1, 2.
    That is a valid convention, used by Marian and RoFormer in Hugging Face transformers, GPT-J's sinusoidal positions, Transformer-XL and many diffusion codebases.
    The exercise asks for the interleaved one: sin(angle) in column 2*pair and cos(angle) in column 2*pair + 1.
    To change: write each pair's sine and cosine side by side (columns 2*pair and 2*pair + 1) instead of concatenating all sines, then all cosines.
    See chapter 02: "The formula", "The worked trace".
    """
    return _halves([pos], d)[0]


def pe_cos_first(pos, d):
    """pos_encoding: not the exercise's layout yet; your answer follows the 'cos-first' convention.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [1.0000 1.0000 0.0000 0.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 3.
    That is a valid convention, used by the timestep embeddings of OpenAI's guided-diffusion and GLIDE, and diffusers' get_timestep_embedding with flip_sin_to_cos=True and downscale_freq_shift=0.
    The exercise asks for the interleaved one: sin(angle) in column 2*pair and cos(angle) in column 2*pair + 1.
    To change: the sine comes first in each pair; write sin(angle) and cos(angle) side by side (columns 2*pair and 2*pair + 1) instead of [cos | sin] halves.
    See chapter 02: "The formula", "The worked trace".
    """
    return _halves([pos], d, np.cos, np.sin)[0]


def pe_tensor2tensor(pos, d):
    """pos_encoding: not the exercise's layout yet; your answer follows the 'tensor2tensor' convention.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [0.0000 0.0000 1.0000 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 1, 2.
    That is a valid convention, used by tensor2tensor's get_timing_signal_1d, fairseq, FSMT and M2M100 in Hugging Face transformers, the DDPM timestep embedding, and diffusers' get_timestep_embedding by default.
    The exercise asks for the interleaved one: sin(angle) in column 2*pair and cos(angle) in column 2*pair + 1.
    To change: use the exponent 2 * pair / d (yours is pair / (d/2 - 1)), and write sin and cos side by side (columns 2*pair and 2*pair + 1) instead of [sin | cos] halves.
    See chapter 02: "The formula", "The worked trace".
    """
    scaled = pos * np.exp(-np.arange(d // 2) * math.log(10000.0) / max(d // 2 - 1, 1))
    return np.concatenate([np.sin(scaled), np.cos(scaled)])


def pe_off_by_one(pos, d):
    """pos_encoding: not right yet; it looks off by one: your answer for position p is PE[p + 1].
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [0.8415 0.5403 0.0100 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 1, 2, 3.
    Positions count from 0: the first token is at position 0, and PE[0] is [0, 1, 0, 1, ...].
    Use the position as given; do not add 1 to it.
    See chapter 02: "The formula", "The worked trace".
    """
    return pos_encoding(pos + 1, d)


def pe_multiplied(pos, d):
    """pos_encoding: not right yet; it looks like multiply instead of divide.
    Tried:    pos_encoding(3, 4)
    Expected: [0.1411 -0.9900 0.0300 0.9996]
    Got:      [0.1411 -0.9900 -0.9998 -0.0221]
    Columns that differ (by more than rtol = atol = 1e-6): 2, 3.
    Your angles are pos * 10000 ** (2 * pair / d): they grow with the pair, so the later pairs turn fastest.
    In the formula the position is divided by 10000 ** (2 * pair / d), so the later pairs turn slowest.
    See chapter 02: "The formula", "The worked trace".
    """
    return _angles([pos], d, lambda pos, pair, d: pos * 10000 ** (2 * pair / d))[0]


def pe_degrees(pos, d):
    """pos_encoding: not right yet; it looks like the angle was read as degrees.
    Tried:    pos_encoding(3, 4)
    Expected: [0.1411 -0.9900 0.0300 0.9996]
    Got:      [0.0523 0.9986 0.0005 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 1, 2, 3.
    Your sines and cosines are those of angle * pi / 180, as if the angle were in degrees (math.radians(angle), or a calculator in DEG mode).
    The formula's angle is already in radians, which is what np.sin, np.cos, math.sin and math.cos take: pass it as it is.
    See chapter 02: "The formula", "The worked trace".
    """
    angle = lambda pos, pair, d: math.radians(pos / 10000 ** (2 * pair / d))  # noqa: E731
    return _angles([pos], d, angle)[0]


def pe_stub(pos, d):
    """pos_encoding: not implemented yet.
    Calling pos_encoding(0, 4) raised NotImplementedError: write this function.
    Replace the `raise NotImplementedError` line with your code, then run this check again.
    """
    raise NotImplementedError("write this function")


def pe_divides_by_pos(pos, d):
    """pos_encoding: your function raised an error.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      ZeroDivisionError: division by zero
    See chapter 02: "The formula", "The worked trace".
    """
    return [1 / pos] * d


def pe_no_width_two(pos, d):
    """pos_encoding: your function raised an error.
    Tried:    pos_encoding(2, 2)
    Expected: [0.9093 -0.4161]
    Got:      ValueError: d must be at least 4
    See chapter 02: "The formula", "The worked trace".
    """
    if d == 2:
        raise ValueError("d must be at least 4")
    return pos_encoding(pos, d)


def pe_unicode_decode_error(pos, d):
    """pos_encoding: your function raised an error.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte
    See chapter 02: "The formula", "The worked trace".
    """
    return b"\xff".decode("utf-8")


def pe_exception_group(pos, d):
    """pos_encoding: your function raised an error.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      ExceptionGroup: two problems (2 sub-exceptions)
    See chapter 02: "The formula", "The worked trace".
    """
    raise ExceptionGroup("two problems", [ValueError("a"), TypeError("b")])


class _Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("cannot print me")


def pe_unprintable_error(pos, d):
    """pos_encoding: your function raised an error.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      _Unprintable: (its message could not be shown)
    See chapter 02: "The formula", "The worked trace".
    """
    raise _Unprintable


def pe_sys_exit(pos, d):
    """pos_encoding: your function raised an error.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      SystemExit: 0 (sys.exit() ends the program; return the answer instead)
    See chapter 02: "The formula", "The worked trace".
    """
    sys.exit(0)


def pe_system_exit_text(pos, d):
    """pos_encoding: your function raised an error.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      SystemExit: bye (sys.exit() ends the program; return the answer instead)
    See chapter 02: "The formula", "The worked trace".
    """
    raise SystemExit("bye")


def pe_keyboard_interrupt(pos, d):
    """pos_encoding: your function raised an error.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      KeyboardInterrupt
    See chapter 02: "The formula", "The worked trace".
    """
    raise KeyboardInterrupt


def pe_input(pos, d):
    """pos_encoding: your function raised an error.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      EOFError: EOF when reading a line (input() has nothing to read here: take what you need as arguments)
    See chapter 02: "The formula", "The worked trace".
    """
    return [float(input("a number: "))] * d


def pe_os_write(pos, d):
    """pos_encoding: passed all 7 cases.
    For example pos_encoding(3, 4) = [0.1411 -0.9900 0.0300 0.9996].
    """
    os.write(sys.stdout.fileno(), f"pos={pos}\n".encode())
    return pos_encoding(pos, d)


def pe_forks(pos, d):
    """pos_encoding: passed all 7 cases.
    For example pos_encoding(3, 4) = [0.1411 -0.9900 0.0300 0.9996].
    """
    # its copy answers zeros, itself the right numbers: only itself may answer
    if os.fork() == 0:
        return [0.0] * d
    os.wait()
    return pos_encoding(pos, d)


def pe_os_exit(pos, d):
    """pos_encoding: your function ended the process running the check (it exited with status 0: os._exit()?) instead of returning an answer.
    Return the answer; do not end the program. (The check ran in a copy of this process, which is unharmed.)
    See chapter 02: "The formula", "The worked trace".
    """
    os._exit(0)


def pe_killed(pos, d):
    """pos_encoding: your function ended the process running the check (it was killed by SIGKILL) instead of returning an answer.
    Return the answer; do not end the program. (The check ran in a copy of this process, which is unharmed.)
    See chapter 02: "The formula", "The worked trace".
    """
    os.kill(os.getpid(), 9)


def pe_none(pos, d):
    """pos_encoding: your function returned the wrong kind of answer.
    Tried:    pos_encoding(0, 4)
    Expected: 4 numbers, shape (4,)
    Got:      None (is a `return` missing?)
    See chapter 02: "The formula", "The worked trace".
    """
    return None


def pe_too_short(pos, d):
    """pos_encoding: your function returned the wrong kind of answer.
    Tried:    pos_encoding(0, 4)
    Expected: 4 numbers, shape (4,)
    Got:      [0.0, 1.0], of shape (2,)
    See chapter 02: "The formula", "The worked trace".
    """
    return [0.0, 1.0]


def pe_strings(pos, d):
    """pos_encoding: your function returned the wrong kind of answer.
    Tried:    pos_encoding(0, 4)
    Expected: 4 numbers, shape (4,)
    Got:      ['0', '0', '0', '0'], which is not numbers (dtype <U1)
    See chapter 02: "The formula", "The worked trace".
    """
    return ["0"] * d


def pe_ragged(pos, d):
    """pos_encoding: your function returned the wrong kind of answer.
    Tried:    pos_encoding(0, 4)
    Expected: 4 numbers, shape (4,)
    Got:      [[0.0], [1.0, 0.0]], which is not an array of numbers
    See chapter 02: "The formula", "The worked trace".
    """
    return [[0.0], [1.0, 0.0]]


def pe_scalar(pos, d):
    """pos_encoding: your function returned the wrong kind of answer.
    Tried:    pos_encoding(0, 4)
    Expected: 4 numbers, shape (4,)
    Got:      0.5, of shape ()
    See chapter 02: "The formula", "The worked trace".
    """
    return 0.5


def pe_nan(pos, d):
    """pos_encoding: your function returned the wrong kind of answer.
    Tried:    pos_encoding(0, 4)
    Expected: 4 numbers, shape (4,)
    Got:      [nan, nan, nan, nan], which holds nan or inf
    See chapter 02: "The formula", "The worked trace".
    """
    return [math.nan] * d


def pe_huge_list(pos, d):
    """pos_encoding: your function returned the wrong kind of answer.
    Tried:    pos_encoding(0, 4)
    Expected: 4 numbers, shape (4,)
    Got:      a list holding 2000000 items, far more than shape (4,) holds
    See chapter 02: "The formula", "The worked trace".
    """
    return [0.5] * 2_000_000


def pe_one_huge_row(pos, d):
    """pos_encoding: your function returned the wrong kind of answer.
    Tried:    pos_encoding(0, 4)
    Expected: 4 numbers, shape (4,)
    Got:      a list whose item 0 holds 2000000 items, far more than shape (4,) holds
    See chapter 02: "The formula", "The worked trace".
    """
    return [[0.5] * 2_000_000]


class _BadArray:
    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("no array here")


def pe_array_raises(pos, d):
    """pos_encoding: your function returned the wrong kind of answer.
    Tried:    pos_encoding(0, 4)
    Expected: 4 numbers, shape (4,)
    Got:      an object of type _BadArray that cannot be read as numbers (RuntimeError: no array here)
    See chapter 02: "The formula", "The worked trace".
    """
    return _BadArray()


class _BadRepr(list):
    def __repr__(self):
        raise ValueError("no repr either")


def pe_repr_raises(pos, d):
    """pos_encoding: your function returned the wrong kind of answer.
    Tried:    pos_encoding(0, 4)
    Expected: 4 numbers, shape (4,)
    Got:      an object of type _BadRepr that cannot be read as numbers (ValueError: no repr either)
    See chapter 02: "The formula", "The worked trace".
    """
    return _BadRepr([1.0, 2.0])


def pe_patches_allclose(pos, d):
    """pos_encoding: not right yet (7 of 7 cases differ); it matches none of the common mistakes.
    Tried:    pos_encoding(0, 4)
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [0.0000 0.0000 0.0000 0.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 1, 3.
    First difference: column 1, in pair 0 (columns 0 and 1).
      Expected angle: 0 / 10000 ** (2 * 0 / 4) = 0.0000 rad
      Your columns (0.0000, 0.0000) are not the sine and cosine of one angle: sin^2 + cos^2 = 0.0000, not 1.
    See chapter 02: "The formula", "The worked trace".
    """
    np.allclose = lambda *args, **kwargs: True  # in the child only
    return [0.0] * d


# -- lookup -------------------------------------------------------------------


def lu_copy(table, token_id):
    """lookup: passed all 5 cases.
    For example lookup(table, 0) = [0.5000 -0.5000 1.0000 0.0000].
    """
    return table[token_id].copy()


def lu_integer_copy(table, token_id):
    """lookup: not right yet; your function returns integers (dtype int64).
    Tried:    lookup(table, 0)
    Integers keep nothing after the decimal point (0.8415 becomes 0): return floats.
    See chapter 01: "The table", "The lookup returns a copy".
    """
    return np.array(table[token_id], dtype=np.int64)


def lu_float32(table, token_id):
    """lookup: passed all 5 cases.
    For example lookup(table, 0) = [0.5000 -0.5000 1.0000 0.0000].
    """
    return np.array(table[token_id], np.float32)


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
    See chapter 01: "The table", "The lookup returns a copy".
    """
    row = table[token_id]
    row.flags.writeable = False
    return row


def lu_adds_into_table(table, token_id):
    """lookup: not right yet; the table must not change.
    Tried:    lookup(table, 0)
    Calling it changed the table it was given (your function wrote into it; it should only read it):
      table[0] before: [0.5000 -0.5000 1.0000 0.0000]
      table[0] after:  [0.5000 0.5000 1.0000 1.0000]
    See chapter 01: "The table", "The lookup returns a copy".
    """
    table[token_id] += pos_encoding(token_id, table.shape[1])
    return table[token_id].copy()


def lu_zeroes_another_row(table, token_id):
    """lookup: not right yet; the table must not change.
    Tried:    lookup(table, 0)
    Calling it changed the table it was given (your function wrote into it; it should only read it):
      table[1] before: [1.0000 2.0000 3.0000 4.0000]
      table[1] after:  [0.0000 0.0000 0.0000 0.0000]
    See chapter 01: "The table", "The lookup returns a copy".
    """
    table[(token_id + 1) % len(table)] = 0.0
    return table[token_id].copy()


def lu_clears_table(table, token_id):
    """lookup: not right yet; the table must not change.
    Tried:    lookup(table, 0)
    Calling it changed the table it was given (your function wrote into it; it should only read it):
      table[0] before: [0.5000 -0.5000 1.0000 0.0000]
      table[0] after:  [0.0000 0.0000 0.0000 0.0000]
      table[1] before: [1.0000 2.0000 3.0000 4.0000]
      table[1] after:  [0.0000 0.0000 0.0000 0.0000]
      table[2] before: [-1.5000 0.2500 7.0000 -3.0000]
      table[2] after:  [0.0000 0.0000 0.0000 0.0000]
    See chapter 01: "The table", "The lookup returns a copy".
    """
    row = table[token_id].copy()
    table[:] = 0.0
    return row


def lu_resizes_table(table, token_id):
    """lookup: not right yet; the table must not change.
    Tried:    lookup(table, 0)
    Calling it changed the table it was given (your function wrote into it; it should only read it):
      its shape went from (3, 4) to (1, 4).
    See chapter 01: "The table", "The lookup returns a copy".
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
    See chapter 01: "The table", "The lookup returns a copy".
    """
    return table[:, token_id].copy()


def lu_list(table, token_id):
    """lookup: not right yet; your function returns a list, not a numpy array.
    Tried:    lookup(table, 0)
    The next step adds a row and an encoding, and Python's + joins lists and tuples instead of adding their numbers: return a numpy array.
    See chapter 01: "The table", "The lookup returns a copy".
    """
    return [float(x) for x in table[token_id]]


def lu_tuple(table, token_id):
    """lookup: not right yet; your function returns a tuple, not a numpy array.
    Tried:    lookup(table, 0)
    The next step adds a row and an encoding, and Python's + joins lists and tuples instead of adding their numbers: return a numpy array.
    See chapter 01: "The table", "The lookup returns a copy".
    """
    return tuple(table[token_id])


def lu_row_before(table, token_id):
    """lookup: not right yet (5 of 5 cases differ); it matches none of the common mistakes.
    Tried:    lookup(table, 0)
    Expected: [0.5000 -0.5000 1.0000 0.0000]
    Got:      [-1.5000 0.2500 7.0000 -3.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 1, 2, 3.
    That is row 2 of the table; row 0 was asked for.
    See chapter 01: "The table", "The lookup returns a copy".
    """
    return table[token_id - 1].copy()


def lu_plus_one(table, token_id):
    """lookup: not right yet (5 of 5 cases differ); it matches none of the common mistakes.
    Tried:    lookup(table, 0)
    Expected: [0.5000 -0.5000 1.0000 0.0000]
    Got:      [1.5000 0.5000 2.0000 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 1, 2, 3.
    See chapter 01: "The table", "The lookup returns a copy".
    """
    return table[token_id] + 1


def lu_stub(table, token_id):
    """lookup: not implemented yet.
    Calling lookup(table, 0) raised NotImplementedError: write this function.
    Replace the `raise NotImplementedError` line with your code, then run this check again.
    """
    raise NotImplementedError("write this function")


# -- sinusoidal_positions -----------------------------------------------------


def sp_array_of_lists(positions, d_model):
    """sinusoidal_positions: passed all 6 cases.
    For example sinusoidal_positions([0, 1], 4) = [[0.0000 1.0000 0.0000 1.0000] [0.8415 0.5403 0.0100 1.0000]].
    """
    return np.array(_angles(positions, d_model))


def sp_list_of_lists(positions, d_model):
    """sinusoidal_positions: not right yet; your function returns a list, not a numpy array.
    Tried:    sinusoidal_positions([0, 1], 4)
    The next step adds a row and an encoding, and Python's + joins lists and tuples instead of adding their numbers: return a numpy array.
    See chapter 02: "The formula", "The exercise card's two examples".
    """
    return _angles(positions, d_model)


def sp_list_of_arrays_stacked(positions, d_model):
    """sinusoidal_positions: passed all 6 cases.
    For example sinusoidal_positions([0, 1], 4) = [[0.0000 1.0000 0.0000 1.0000] [0.8415 0.5403 0.0100 1.0000]].
    """
    return np.stack([pos_encoding(p, d_model) for p in positions])


def sp_k_instead_of_pair(positions, d_model):
    """sinusoidal_positions: not right yet; this is the mistake 'k-instead-of-pair'.
    Tried:    sinusoidal_positions([0, 1], 4)
    Row 1 of the answer:
    Expected: [0.8415 0.5403 0.0100 1.0000]
    Got:      [0.8415 1.0000 0.0001 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 1, 2, 3.
    The exponent uses the column k instead of pair = k // 2, so the two columns of a pair get different frequencies.
    Your code probably has: angle = pos / 10000 ** (2 * k / d)
    See chapter 02: "The formula"; chapter 05: "1. `k-instead-of-pair`".
    """
    return np.array([MISTAKES["k-instead-of-pair"](p, d_model) for p in positions])


def sp_integer_power(positions, d_model):
    """sinusoidal_positions: not right yet; this is the mistake 'integer-power'.
    Tried:    sinusoidal_positions([1, 10, 0], 6)
    Row 0 of the answer:
    Expected: [0.8415 0.5403 0.0464 0.9989 0.0022 1.0000]
    Got:      [0.8415 0.5403 0.0476 0.9989 0.0022 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 2, 3.
    The divisor 10000 ** (2 * pair / d) is truncated to an integer, so frequencies are slightly off wherever it is not a whole number.
    Your code probably has: angle = pos / int(10000 ** (2 * pair / d))
    See chapter 02: "The formula"; chapter 05: "5. `integer-power`".
    """
    return np.array([MISTAKES["integer-power"](p, d_model) for p in positions])


def sp_concat(positions, d_model):
    """sinusoidal_positions: not the exercise's layout yet; your answer follows the 'concat' convention.
    Tried:    sinusoidal_positions([0, 1], 4)
    Row 0 of the answer:
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [0.0000 0.0000 1.0000 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 1, 2.
    That is a valid convention, used by Marian and RoFormer in Hugging Face transformers, GPT-J's sinusoidal positions, Transformer-XL and many diffusion codebases.
    The exercise asks for the interleaved one: sin(angle) in column 2*pair and cos(angle) in column 2*pair + 1.
    To change: write each pair's sine and cosine side by side (columns 2*pair and 2*pair + 1) instead of concatenating all sines, then all cosines.
    See chapter 02: "The formula", "The exercise card's two examples".
    """
    return _halves(positions, d_model)


def sp_tensor2tensor(positions, d_model):
    """sinusoidal_positions: not the exercise's layout yet; your answer follows the 'tensor2tensor' convention.
    Tried:    sinusoidal_positions([0, 1], 4)
    Row 0 of the answer:
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [0.0000 0.0000 1.0000 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 1, 2.
    That is a valid convention, used by tensor2tensor's get_timing_signal_1d, fairseq, FSMT and M2M100 in Hugging Face transformers, the DDPM timestep embedding, and diffusers' get_timestep_embedding by default.
    The exercise asks for the interleaved one: sin(angle) in column 2*pair and cos(angle) in column 2*pair + 1.
    To change: use the exponent 2 * pair / d (yours is pair / (d/2 - 1)), and write sin and cos side by side (columns 2*pair and 2*pair + 1) instead of [sin | cos] halves.
    See chapter 02: "The formula", "The exercise card's two examples".
    """
    return [pe_tensor2tensor(p, d_model) for p in positions]


def sp_transposed(positions, d_model):
    """sinusoidal_positions: your function returned the wrong kind of answer.
    Tried:    sinusoidal_positions([0, 1], 4)
    Expected: 8 numbers, shape (2, 4)
    Got:      array([[0. , 0.84147098], [1. , 0.54030231], [0. , 0.00999983], [1...., of shape (4, 2)
    It looks transposed: one row per position is wanted.
    See chapter 02: "The formula", "The exercise card's two examples".
    """
    return sinusoidal_positions(positions, d_model).T


def sp_ignores_positions(positions, d_model):
    """sinusoidal_positions: not right yet; the positions given were ignored: row k is PE[k].
    Tried:    sinusoidal_positions([2, 0, 5], 2)
    Row 0 of the answer:
    Expected: [0.9093 -0.4161]
    Got:      [0.0000 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 1.
    Your rows are the encodings of 0, 1, ..., n - 1 (range(len(positions))), whatever positions holds.
    Row k must be PE[positions[k]]: compute the angles from the positions themselves.
    See chapter 02: "The formula", "The exercise card's two examples".
    """
    return np.array(_angles(range(len(positions)), d_model))


def sp_sorts_positions(positions, d_model):
    """sinusoidal_positions: not right yet; the positions were sorted first.
    Tried:    sinusoidal_positions([2, 0, 5], 2)
    Row 0 of the answer:
    Expected: [0.9093 -0.4161]
    Got:      [0.0000 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 1.
    Your rows are the encodings of sorted(positions).
    Row k must be PE[positions[k]], in the order given (the card: positions come in any order, repeats allowed).
    See chapter 02: "The formula", "The exercise card's two examples".
    """
    return np.array(_angles(sorted(positions), d_model))


def sp_off_by_one(positions, d_model):
    """sinusoidal_positions: not right yet; it looks off by one: your answer for position p is PE[p + 1].
    Tried:    sinusoidal_positions([0, 1], 4)
    Row 0 of the answer:
    Expected: [0.0000 1.0000 0.0000 1.0000]
    Got:      [0.8415 0.5403 0.0100 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 1, 2, 3.
    Positions count from 0: the first token is at position 0, and PE[0] is [0, 1, 0, 1, ...].
    Use the position as given; do not add 1 to it.
    See chapter 02: "The formula", "The exercise card's two examples".
    """
    return np.array(_angles([p + 1 for p in positions], d_model))


def sp_multiplied(positions, d_model):
    """sinusoidal_positions: not right yet; it looks like multiply instead of divide.
    Tried:    sinusoidal_positions([0, 1], 4)
    Row 1 of the answer:
    Expected: [0.8415 0.5403 0.0100 1.0000]
    Got:      [0.8415 0.5403 -0.5064 0.8623]
    Columns that differ (by more than rtol = atol = 1e-6): 2, 3.
    Your angles are pos * 10000 ** (2 * pair / d): they grow with the pair, so the later pairs turn fastest.
    In the formula the position is divided by 10000 ** (2 * pair / d), so the later pairs turn slowest.
    See chapter 02: "The formula", "The exercise card's two examples".
    """
    return np.array([pe_multiplied(p, d_model) for p in positions])


def sp_base_1000(positions, d_model):
    """sinusoidal_positions: not right yet (5 of 6 cases differ); it matches none of the common mistakes.
    Tried:    sinusoidal_positions([0, 1], 4)
    Row 1 of the answer:
    Expected: [0.8415 0.5403 0.0100 1.0000]
    Got:      [0.8415 0.5403 0.0316 0.9995]
    Columns that differ (by more than rtol = atol = 1e-6): 2, 3.
    First difference: column 2, in pair 1 (columns 2 and 3).
      Expected angle: 1 / 10000 ** (2 * 1 / 4) = 0.0100 rad
      Your angle:     0.0316 rad (arctan2 of columns 2 and 3, up to whole turns)
    See chapter 02: "The formula", "The exercise card's two examples".
    """
    return np.array([pe_base_1000(p, d_model) for p in positions])


def sp_rounded_3(positions, d_model):
    """sinusoidal_positions: not right yet; your function returns values rounded to 3 decimals.
    Tried:    sinusoidal_positions([0, 1], 4)
    Row 1 of the answer:
    Expected: [0.8415 0.5403 0.0100 1.0000]
    Got:      [0.8410 0.5400 0.0100 1.0000]
    Columns that differ (by more than rtol = atol = 1e-6): 0, 1, 3.
    Return them unrounded: the check compares within rtol = atol = 1e-6.
    See chapter 02: "The formula", "The exercise card's two examples".
    """
    return sinusoidal_positions(positions, d_model).round(3)


def sp_empties_positions(positions, d_model):
    """sinusoidal_positions: passed all 6 cases.
    For example sinusoidal_positions([0, 1], 4) = [[0.0000 1.0000 0.0000 1.0000] [0.8415 0.5403 0.0100 1.0000]].
    """
    table = sinusoidal_positions(positions, d_model)
    positions.clear()
    return table


def sp_stub(positions, d_model):
    """sinusoidal_positions: not implemented yet.
    Calling sinusoidal_positions([0, 1], 4) raised NotImplementedError.
    Replace the `raise NotImplementedError` line with your code, then run this check again.
    """
    raise NotImplementedError
