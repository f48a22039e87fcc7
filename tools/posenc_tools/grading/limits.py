"""What is graded and within which limits: the tasks and :class:`Limits`.

Small on purpose: ``posenc``'s argument parser reads the defaults from here
without importing the grader.
"""

import math
from dataclasses import dataclass, fields

__all__ = ["MIN_MEMORY_MB", "TASKS", "Limits", "max_memory_mb"]

#: the learner's functions that are graded, in the CSV's order
TASKS = ("lookup", "pos_encoding", "sinusoidal_positions")
#: below this, a kernel cannot even start (numpy, ipykernel, their threads)
MIN_MEMORY_MB = 1024
_MAX_SECONDS = 86_400.0  # a day: a limit past it is a typo


@dataclass(frozen=True)
class Limits:
    """Time and memory limits of one submission, checked when made.

    Attributes
    ----------
    cell_seconds : float
        Each cell of the learner's notebook, and each task's check; rounded up
        to whole seconds (nbclient counts whole seconds).
    notebook_seconds : float
        The learner's cells together; later cells are not run.
    memory_mb : int
        Address space of the worker and, separately, of each of its kernels; at
        most what this system lets a process have (:func:`max_memory_mb`).
    worker_margin_seconds : float
        How much longer than the notebook and its checks a worker may take for
        one learner (from its kernel being ready) before it is killed.

    Raises
    ------
    ValueError, TypeError
        Naming the option (``--notebook-seconds == -1.0, must be ...``).

    Examples
    --------
    >>> Limits(cell_seconds=2).worker_seconds()  # 60 + 3 * 2 + 30
    96.0
    >>> Limits(notebook_seconds=float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: --notebook-seconds == nan, must be a number of seconds in (0, 86400].
    >>> Limits(memory_mb=50)
    Traceback (most recent call last):
    ...
    ValueError: --memory-mb == 50, must be an integer >= 1024 (megabytes).
    """

    cell_seconds: float = 20.0
    notebook_seconds: float = 60.0
    memory_mb: int = 4096
    worker_margin_seconds: float = 30.0

    def __post_init__(self):
        for field in fields(self):
            option = "--" + field.name.replace("_", "-")
            value = getattr(self, field.name)
            if field.name == "memory_mb":
                _check_memory(option, value)
            else:
                _check_seconds(option, value)

    def worker_seconds(self):
        """How long a worker may take for one learner: notebook, checks, margin."""
        return (
            self.notebook_seconds
            + len(TASKS) * self.cell_seconds
            + self.worker_margin_seconds
        )


def _check_seconds(option, value):
    expected = f"a number of seconds in (0, {_MAX_SECONDS:g}]"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{option} == {value!r}, must be {expected}.")
    if not (math.isfinite(value) and 0 < value <= _MAX_SECONDS):
        raise ValueError(f"{option} == {value!r}, must be {expected}.")


def max_memory_mb():
    """The most address space a worker may ask for: the hard ``RLIMIT_AS``, in MB.

    Without a hard limit, the largest that ``setrlimit`` takes (a C ``long``).
    """
    import resource  # Unix only, as grading is

    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    most = 2**63 - 1 if hard == resource.RLIM_INFINITY else hard
    return most // 2**20


def _check_memory(option, value):
    expected = f"an integer >= {MIN_MEMORY_MB} (megabytes)"
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{option} == {value!r}, must be {expected}.")
    if value < MIN_MEMORY_MB:
        raise ValueError(f"{option} == {value!r}, must be {expected}.")
    if value > max_memory_mb():
        raise ValueError(
            f"{option} == {value!r}, must be at most {max_memory_mb()} (megabytes: "
            "the most address space this system lets a process have)."
        )
