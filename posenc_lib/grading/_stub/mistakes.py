"""``posenc_lib.mistakes`` inside a learner's box: ``MISTAKES`` of notes.

>>> from posenc_lib.grading._stub.mistakes import MISTAKES
>>> MISTAKES["sine-only"](3, 4)
'the mistake sine-only (not run while the exercise is graded)'
"""

__all__ = ["MISTAKES"]


class _Mistakes(dict):
    def __missing__(self, name):
        return lambda *args, **kwargs: (
            f"the mistake {name} (not run while the exercise is graded)"
        )


MISTAKES = _Mistakes()
