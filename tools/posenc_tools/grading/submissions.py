"""Who the submissions are: a readable, unique learner for every file.

A submission is a notebook file (the learner is its file name without
``.ipynb``) or a folder holding one (the learner is the folder's name). Any name
becomes a readable id (:func:`learner_id`), the same name in two places gives
two learners (:func:`find_submissions`), and no two learners share a feedback
page (:func:`page_name`).
"""

import hashlib
import os
from pathlib import Path

__all__ = ["find_submissions", "learner_id", "page_name"]


def learner_id(name):
    """A file or folder name as a readable learner id: any bytes, printable.

    Bytes that are not UTF-8 read as ``\\xff``, unprintable characters as
    their escapes.

    Examples
    --------
    >>> learner_id("alice")
    'alice'
    >>> print(learner_id(os.fsdecode(b"\\xff\\xfe")), learner_id("a\\nb"))
    \\xff\\xfe a\\nb
    """
    text = os.fsencode(name).decode("utf-8", "backslashreplace")
    shown = (
        c if c.isprintable() else c.encode("unicode_escape").decode() for c in text
    )
    return "".join(shown) or "_"


def _learner_notebook(folder):
    """The notebook of a learner's folder: its ``03_exercise.ipynb``, else the first."""
    notebooks = sorted(folder.glob("*.ipynb"))
    preferred = folder / "03_exercise.ipynb"
    return preferred if preferred in notebooks else (notebooks or [preferred])[0]


def _sources(paths):
    """``(name, notebook, where)`` for each submission under ``paths``."""
    for path in map(Path, paths):
        if path.is_dir():
            for child in sorted(path.iterdir()):
                if child.is_dir():
                    yield child.name, _learner_notebook(child), child
                elif child.suffix == ".ipynb":
                    yield child.stem, child, child
        elif path.suffix == ".ipynb" or path.is_file():
            yield path.stem, path, path  # a file that is not a notebook is reported
        elif not path.exists():
            raise FileNotFoundError(f"submission {str(path)!r} does not exist.")


def find_submissions(paths):
    """``{learner: notebook_path}`` for the given files and folders, by learner.

    A notebook file is one learner, named by the file (``alice.ipynb``); a folder
    holds learners: each notebook in it, and each sub-folder (named by the
    learner, holding their ``03_exercise.ipynb``). Names are made readable
    (:func:`learner_id`); two submissions of the same name are both kept, each
    named with where it came from: ``alice (class-a/alice)``. A file given twice
    is one learner.

    Examples
    --------
    >>> find_submissions(["alice.ipynb"])
    {'alice': PosixPath('alice.ipynb')}
    """
    by_name, seen = {}, set()
    for name, notebook, where in _sources(paths):
        if notebook.resolve() not in seen:
            seen.add(notebook.resolve())
            by_name.setdefault(learner_id(name), []).append((notebook, where))
    found = {}
    for name, entries in by_name.items():
        for notebook, where in entries:
            tell = len(entries) > 1  # the same name twice: say where each is from
            found[f"{name} ({learner_id(str(where))})" if tell else name] = notebook
    return dict(sorted(found.items()))


def page_name(learner):
    """A learner's feedback page's name: theirs if plain, else made plain and unique.

    A name of only ``a-z``, ``0-9``, ``-``, ``_``, ``.`` (not starting with
    ``.``) is kept; any other gets its other characters replaced by ``_`` and a
    hash of the whole name, so that ``a b`` and ``a_b`` (or ``Ann`` and ``ann``
    on a disk that ignores case) never share a page.

    Examples
    --------
    >>> page_name("000-right")
    '000-right'
    >>> page_name("a b"), page_name("a_b")
    ('a_b-c8687a08aa', 'a_b')
    """
    plain = "".join(c if c in _PLAIN else "_" for c in learner)[:80]
    if plain == learner and not learner.startswith("."):
        return learner
    digest = hashlib.sha256(learner.encode("utf-8", "backslashreplace")).hexdigest()
    return f"{plain}-{digest[:10]}"


_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_.")
