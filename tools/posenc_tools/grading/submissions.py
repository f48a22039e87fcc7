"""Who the submissions are: every file a learner, or left out with a reason.

A submission is a notebook file (the learner is its file name without
``.ipynb``, in any case) or a folder holding one (the learner is the folder's
name). A learner is named by their own path, never by what it points to; any
name becomes a readable id that keeps different names different
(:func:`learner_id`); the same name in two places gives two learners; no two
learners share a feedback page (:func:`page_name`). What is not graded is left
out with a reason (:func:`find_submissions`): hidden, not a notebook, not a
regular file (a FIFO), unreadable, a link pointing outside its folder, or the
same file as another learner's (a link to it, or given twice).
"""

import hashlib
import os
import stat
from collections import Counter
from pathlib import Path
from typing import NamedTuple

__all__ = ["find_submissions", "learner_id", "page_name"]


def learner_id(name):
    """A file or folder name as a readable learner id: any bytes, printable.

    Bytes that are not UTF-8 read as ``\\xff``, unprintable characters as
    their escapes, and a backslash as ``\\\\``: different names stay different.

    Examples
    --------
    >>> learner_id("alice")
    'alice'
    >>> print(learner_id(os.fsdecode(b"\\xff\\xfe")), learner_id("a\\nb"))
    \\xff\\xfe a\\nb
    >>> print(learner_id(os.fsdecode(b"\\xff")), learner_id("\\\\xff"))
    \\xff \\\\xff
    """
    text = os.fsencode(name).decode("utf-8", "surrogateescape")
    return "".join(map(_shown, text)) or "_"


def _shown(char):
    if "\udc80" <= char <= "\udcff":  # a byte that is not UTF-8
        return f"\\x{ord(char) - 0xDC00:02x}"
    if char.isprintable() and char != "\\":
        return char
    return char.encode("unicode_escape").decode()


class _Found(NamedTuple):
    name: str  # the learner, as their file or folder is called
    where: Path  # the file or folder given or found
    notebook: Path
    linked: bool  # reached through a symbolic link
    file: tuple  # the notebook's (device, inode): who else has it


def _learner_notebook(folder):
    """A learner folder's ``03_exercise.ipynb``, else its first notebook, else None."""
    notebooks = sorted(p for p in folder.iterdir() if _is_notebook(p))
    preferred = folder / "03_exercise.ipynb"
    return preferred if preferred in notebooks else next(iter(notebooks), None)


def _is_notebook(path):
    return path.suffix.lower() == ".ipynb" and not path.name.startswith(".")


def _entries(paths):
    """``(path, folder)`` for each path given (folder None) and each in a folder."""
    for path in map(Path, paths):
        if not (path.exists() or path.is_symlink()):
            raise FileNotFoundError(f"submission {str(path)!r} does not exist.")
        if path.is_dir():
            yield from ((child, path) for child in sorted(path.iterdir()))
        else:
            yield path, None


def _look_at(path, folder):
    """The learner ``path`` holds (:class:`_Found`), or why it is left out."""
    if folder is not None and path.name.startswith("."):
        return "hidden"
    is_dir = path.is_dir()
    try:
        notebook = _learner_notebook(path) if is_dir else path
        if notebook is None:
            return "a folder with no notebook (.ipynb) in it"
        if folder is not None and not _inside(notebook, folder):
            return "a link pointing outside the folder"
        file = notebook.stat()
        if not stat.S_ISREG(file.st_mode):
            return "not a regular file"
    except OSError as exc:  # unreadable folder, broken link, link loop
        return f"unreadable ({exc.strerror or exc})"
    if not _is_notebook(notebook):
        return "not a notebook (.ipynb)"
    name = path.name if is_dir else path.stem
    linked = path.is_symlink() or notebook.is_symlink()
    return _Found(learner_id(name), path, notebook, linked, (file.st_dev, file.st_ino))


def _inside(path, folder):
    real = Path(os.path.realpath(path))
    return real.is_relative_to(os.path.realpath(folder))


def find_submissions(paths):
    """Who is graded under ``paths``, and what is left out: ``(found, left_out)``.

    A notebook file is one learner, named by the file (``alice.ipynb``); a
    folder holds learners: each notebook in it, and each sub-folder (named by
    the learner, holding their ``03_exercise.ipynb``). Names are made readable
    (:func:`learner_id`); two learners of the same name are both kept, each
    named with where it came from: ``alice (class-a/alice)``.

    Returns
    -------
    found : dict
        ``{learner: notebook_path}``, sorted by learner.
    left_out : list of (str, str)
        ``(path, reason)`` for each entry that is not graded: hidden, not a
        notebook, not a regular file, unreadable, a link pointing outside its
        folder, or a file that another learner already has (a link to it, or
        the same path given twice). A real file wins over a link to it.

    Raises
    ------
    FileNotFoundError
        If a path given does not exist.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     for name in ("alice.ipynb", "notes.txt", ".hidden.ipynb"):
    ...         _ = (Path(folder) / name).write_text("{}")
    ...     found, left_out = find_submissions([folder])
    >>> list(found), [why for _, why in left_out]
    (['alice'], ['hidden', 'not a notebook (.ipynb)'])
    """
    found, left_out = [], []
    for path, folder in _entries(paths):
        seen = _look_at(path, folder)
        if isinstance(seen, str):
            left_out.append((learner_id(str(path)), seen))
        else:
            found.append(seen)
    owners = {}
    for learner in sorted(found, key=lambda learner: learner.linked):
        owner = owners.setdefault(learner.file, learner)
        if owner is not learner:
            what = "a link to" if learner.linked else "the same file as"
            shown = learner_id(str(owner.notebook))
            left_out.append((learner_id(str(learner.where)), f"{what} {shown}"))
    return _named(owners.values()), sorted(left_out)


def _named(found):
    """``{learner: notebook}``: a name two learners share says where each is from."""
    names = Counter(learner.name for learner in found)
    named = {}
    for learner in found:
        name = learner.name
        if names[name] > 1:  # a path has a "/", which no file name has
            where = str(learner.where)
            name += f" ({learner_id(where if '/' in where else './' + where)})"
        named[name] = learner.notebook
    return dict(sorted(named.items()))


def page_name(learner):
    """A learner's feedback page's name: theirs if plain, else made plain and unique.

    A name of only ``a-z``, ``0-9``, ``-``, ``_``, ``.`` (not starting with
    ``.``, at most 80 characters) is kept; any other gets its other characters
    (and a leading ``.``) replaced by ``_`` and, after a ``~`` (which no kept
    name has), a hash of the whole name, so that ``a b`` and ``a_b`` (or ``Ann``
    and ``ann`` on a disk that ignores case) never share a page.

    Examples
    --------
    >>> page_name("000-right")
    '000-right'
    >>> page_name("a b"), page_name("a_b")
    ('a_b~c8687a08aa5d6ed2', 'a_b')
    """
    plain = "".join(c if c in _PLAIN else "_" for c in learner)[:80]
    if plain == learner and not learner.startswith("."):
        return learner
    if plain.startswith("."):  # a page that is not hidden
        plain = "_" + plain[1:]
    digest = hashlib.sha256(learner.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{plain}~{digest[:16]}"


_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_.")
