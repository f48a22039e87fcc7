"""``posenc_lib`` as a learner's kernel sees it while it is graded: stand-ins.

:mod:`posenc_lib.grading.box` mounts this folder where the library's own
package would be, inside each learner's box (with a copy of the real
``exercise/guard.py`` and ``grading/_runner.py``, which the grader's own
cells use). What chapter 05's notebook imports is here, and does nothing that
could grade or help: the checkers say the grader checks after the run,
``run_commands`` and ``compare_outputs`` return a note, ``setup_notebook`` does
nothing. The library's ``lookup``, ``pos_encoding`` and
``sinusoidal_positions`` are stand-ins that raise
:class:`ReferenceNotAvailable`: the grader reports a function imported from
here as the library's own. Any other name is an ``AttributeError``.

>>> from posenc_lib.grading._stub import pos_encoding
>>> pos_encoding(3, 4)
Traceback (most recent call last):
...
posenc_lib.grading._stub.ReferenceNotAvailable: posenc_lib's own pos_encoding is not available while the exercise is graded: write your own.
"""  # noqa: E501

from .exercise import (
    CheckResult,
    CommandError,
    check_lookup,
    check_pos_encoding,
    check_sinusoidal_positions,
    run_commands,
)

__all__ = [
    "CheckResult",
    "CommandError",
    "ReferenceNotAvailable",
    "check_lookup",
    "check_pos_encoding",
    "check_sinusoidal_positions",
    "lookup",
    "pos_encoding",
    "run_commands",
    "sinusoidal_positions",
]


class ReferenceNotAvailable(Exception):  # noqa: N818 - the grader knows this name
    """Raised by the stand-ins of the library's own functions."""


def _stand_in(name):
    def stand_in(*args, **kwargs):
        raise ReferenceNotAvailable(
            f"posenc_lib's own {name} is not available while the exercise is "
            "graded: write your own."
        )

    stand_in.__name__ = stand_in.__qualname__ = name
    stand_in.__module__ = __name__
    return stand_in


lookup = _stand_in("lookup")
pos_encoding = _stand_in("pos_encoding")
sinusoidal_positions = _stand_in("sinusoidal_positions")


def __getattr__(name):
    raise AttributeError(
        f"posenc_lib.{name} is not available while the exercise is graded."
    )
