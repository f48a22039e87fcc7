"""What is graded and within which limits: the tasks and :class:`Limits`.

Small on purpose: ``posenc``'s argument parser reads the defaults from here
without importing the grader.
"""

from dataclasses import dataclass

__all__ = ["TASKS", "Limits"]

#: the learner's functions that are graded, in the CSV's order
TASKS = ("lookup", "pos_encoding", "sinusoidal_positions")


@dataclass(frozen=True)
class Limits:
    """Time and memory limits of one submission.

    Attributes
    ----------
    cell_seconds : float
        Each cell of the learner's notebook, and each task's check.
    notebook_seconds : float
        The learner's cells together; later cells are not run.
    memory_mb : int
        Address space of the worker and, separately, of each of its kernels.
    """

    cell_seconds: float = 20.0
    notebook_seconds: float = 60.0
    memory_mb: int = 4096

    def worker_seconds(self):
        """How long a worker may take for one learner: notebook, checks, margin."""
        return self.notebook_seconds + len(TASKS) * self.cell_seconds + 30.0
