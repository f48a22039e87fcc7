"""Each learner's kernel in a box of its own: bubblewrap (``bwrap``) on Linux.

A box is a set of Linux namespaces made by bubblewrap (Debian's ``bubblewrap``
package, used by Flatpak), around one kernel:

- **its own processes only** (a PID namespace): it sees no other process, and
  every process it starts dies with it, ``start_new_session`` or not;
- **no network** (a network namespace with nothing in it); the grader talks to
  the kernel over Unix sockets in the box's folder (``ipc`` transport);
- **a read-only system**: ``/usr``, a few files of ``/etc``, this Python and its
  environment, read-only; everything else (home folders, the submissions, the
  output folder, other boxes, the grader's run folder) is simply not there;
- **the library replaced by stand-ins** (:func:`make_stub`, mounted where the
  package is): the exercise's imports work, the reference
  functions, checkers and mistakes are not there to be used or patched;
- **writable**: its own folder (a copy of its notebook, its connection file and
  sockets) and a small private ``/tmp``; no capabilities, a fresh session, no
  environment variables but ``HOME``, ``PATH``, ``LANG``.

- **no new processes, a few threads, one memory limit**: as the kernel
  starts, before any learner's code, :func:`start_lines` caps its threads
  (``RLIMIT_NPROC``: the kernel's own plus :data:`EXTRA_TASKS`) and forbids new
  processes (a seccomp filter, :mod:`._in_box`); the threads share the
  kernel's address space, so the worker's ``RLIMIT_AS`` (``--memory-mb``)
  bounds the learner's code as a whole. ``RLIMIT_NPROC`` counts the tasks of
  one user in one user namespace, and does not bind root: a lecturer's box has
  a user namespace of its own; a root grader's box runs as a user id of its
  own (:func:`box_uid`), dropped to before any learner's code.

Not contained by the box: CPU time (the worker's cell and notebook time limits
do that) and the disk space its folder can take. Where bubblewrap is missing
or cannot make namespaces (macOS, Windows, a container that forbids them)
:func:`sandbox_problem` says why, and ``posenc grade`` refuses to run unless
given ``--unsandboxed``.
"""

import ast
import itertools
import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import ipykernel.kernelspec
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from traitlets import List, Unicode, default

import posenc_lib

__all__ = [
    "BoxKernelManager",
    "box_command",
    "box_uid",
    "make_stub",
    "sandbox_problem",
    "start_lines",
]

_PACKAGE = Path(posenc_lib.__file__).resolve().parent  # the learner's package
_ETC = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "nsswitch.conf",
    "passwd",
    "group",
    "hosts",
)
TMP_BYTES = 64 * 2**20  # the box's private /tmp
#: the threads a box may start besides its kernel's own at its start: threads
#: the kernel starts later (a cell printing 100 MB starts 3), the checks' guard,
#: a learner's threads
EXTRA_TASKS = 8
_FIRST_UID = 2**30  # a root grader's boxes run as user ids from here: unused ones
_boxes = itertools.count()


@cache
def sandbox_problem():
    """Why no box can be made here, as one sentence; None if it can.

    Tries ``bwrap`` once (a box installing the box's filter on a Python) and
    remembers the answer.
    """
    if not sys.platform.startswith("linux"):
        return f"bubblewrap needs Linux namespaces, and this is {sys.platform}"
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap is not installed (Debian: apt-get install bubblewrap)"
    options = "--unshare-all --die-with-parent --ro-bind / / --proc /proc --dev /dev"
    forbid = "import sys; exec(open(sys.argv[1]).read()); forbid_processes()"
    trial = [bwrap, *options.split(), sys.executable, "-c", forbid, str(_IN_BOX)]
    try:
        done = subprocess.run(trial, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not be run ({exc})"
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return f"bubblewrap cannot make a box here ({why})"
    return None


#: the modules the grader's own cells run in the box, copied as they are
REAL_MODULES = ("exercise/reports.py",)
#: the box's own modules: its start (``_box.py``) and its guard, in threads
_IN_BOX = Path(__file__).with_name("_in_box.py")
_BOX_MODULES = {
    "_box.py": _IN_BOX.read_text("utf-8"),
    "exercise/guard.py": "from posenc_lib._box import *  # the box's guard: threads\n",
}

_STAND_INS = '''"""posenc_lib as a learner's kernel sees it while graded: stand-ins.

Written by posenc_tools.grading.box from the real package's ``__all__`` lists.
"""


class ReferenceNotAvailable(Exception):
    """Raised by the stand-ins of the library's own functions."""


class Inert:
    """Any other name: callable, indexable, and doing nothing."""

    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kwargs):
        return self

    def __getitem__(self, key):
        return self

    def __getattr__(self, name):
        return self

    def __repr__(self):
        return f"{self._name}: not run while the exercise is graded."


def reference(name):
    def stand_in(*args, **kwargs):
        raise ReferenceNotAvailable(
            f"posenc_lib's own {name} is not available while the exercise is "
            "graded: write your own."
        )

    stand_in.__name__ = stand_in.__qualname__ = name
    stand_in.__module__ = "posenc_lib"
    return stand_in
'''


def _public_names(source):
    """The names of a module's ``__all__`` (a literal), read without running it."""
    for node in ast.parse(source.read_text("utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            getattr(target, "id", None) == "__all__" for target in node.targets
        ):
            return ast.literal_eval(node.value)
    return []


def _stand_in_module(relative, names):
    """A module's stand-ins: the maths' functions raise, everything else is inert."""
    maths = relative.parts[0] not in ("exercise", "figures")
    lines = [
        f'"""Stand-ins for posenc_lib/{relative.as_posix()} while it is graded."""',
        "from posenc_lib._stand_ins import Inert, reference",
        "",
    ]
    for name in names:
        kind = "reference" if maths and not name.isupper() else "Inert"
        lines.append(f"{name} = {kind}({name!r})")
    return "\n".join(lines) + "\n"


def make_stub(folder):
    """Write the box's ``posenc_lib`` into ``folder``; return its path.

    Derived from the real package as it is now, so it cannot drift from it:
    each module's public names (its ``__all__``) become stand-ins, the maths'
    functions raising :class:`ReferenceNotAvailable` and every other name inert;
    the modules of :data:`REAL_MODULES` are copied as they are; the guard is
    the box's own (:mod:`._in_box`, which forks nothing).
    """
    stub = Path(folder) / "posenc_lib"
    for source in sorted(_PACKAGE.rglob("*.py")):
        relative = source.relative_to(_PACKAGE)
        target = stub / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if relative.as_posix() in REAL_MODULES:
            shutil.copy(source, target)
        elif relative.as_posix() not in _BOX_MODULES:
            target.write_text(_stand_in_module(relative, _public_names(source)))
    for relative, text in {**_BOX_MODULES, "_stand_ins.py": _STAND_INS}.items():
        (stub / relative).write_text(text)
    return stub


def _system_mounts():
    """``/usr`` and its usual links, some of ``/etc``: read-only."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "lib", "lib32", "lib64", "sbin"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for name in _ETC:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return args


def _python_mounts(stub):
    """This Python, its environment, and the stub where the library would be."""
    places = {Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve()}
    args = []
    for place in sorted(places):
        if not place.is_relative_to("/usr"):
            args += [*_parents(place), "--ro-bind", str(place), str(place)]
    return args + [*_parents(_PACKAGE), "--ro-bind", str(stub), str(_PACKAGE)]


def _parents(path):
    """``--dir`` for each folder above ``path``: made readable by anyone.

    bubblewrap run by root would make them readable by root only, and a root
    grader's kernel runs as a user id of its own (:func:`box_uid`).
    """
    return [
        arg for up in reversed(Path(path).parents[:-1]) for arg in ("--dir", str(up))
    ]


def box_command(box, stub):
    """The ``bwrap`` arguments that run a command in the box of folder ``box``.

    Parameters
    ----------
    box : path-like
        The box's own folder: writable, its working directory.
    stub : path-like
        The stand-in ``posenc_lib`` made by :func:`make_stub`.
    """
    box = str(Path(box).resolve())
    venv_bin = str(Path(sys.prefix) / "bin")
    # first the private /tmp and the box's parent (so "../" is private too), then
    # what is bound: a tmpfs mounted later would hide a venv or the stub under it
    private = ["/tmp", *{str(Path(box).parent)} - {"/tmp"}]
    scratch = [
        arg
        for path in private
        for arg in (*_parents(path), "--size", str(TMP_BYTES), "--tmpfs", path)
    ]
    env = {
        "HOME": "/tmp",
        "OPENBLAS_NUM_THREADS": "1",  # a kernel's threads, whatever the cores
        "OMP_NUM_THREADS": "1",
        "MALLOC_ARENA_MAX": "2",  # glibc's 64 MiB per thread: address space too
        "LANG": "C.UTF-8",
        "PATH": f"{venv_bin}:/usr/bin:/bin",
        "PYTHONDONTWRITEBYTECODE": "1",
        "MPLBACKEND": "Agg",
    }
    if os.geteuid() == 0:  # no user namespace: its kernel drops to box_uid()
        unshare = "--unshare-ipc --unshare-pid --unshare-net --unshare-uts"
        unshare += " --unshare-cgroup-try --cap-drop ALL"
        unshare += " --cap-add CAP_SETUID --cap-add CAP_SETGID"
    else:
        unshare = "--unshare-all --cap-drop ALL"
    return [
        shutil.which("bwrap") or "bwrap",
        *unshare.split(),
        *("--die-with-parent", "--new-session"),
        *("--dev", "/dev", "--proc", "/proc"),
        *scratch,
        *_system_mounts(),
        *_python_mounts(stub),
        *("--bind", box, box, "--remount-ro", "/", "--chdir", box, "--clearenv"),
        *(arg for name, value in env.items() for arg in ("--setenv", name, value)),
    ]


def box_uid():
    """The user id a box's kernel drops to: 0 (none) unless the grader is root.

    ``RLIMIT_NPROC`` does not bind root, and counts the processes of one user
    id: so a root grader's boxes each run as an id of their own, unused on any
    ordinary system (``2**30`` and up, four per worker process: its kernel, the
    next one, and one being stopped).
    """
    if os.geteuid() != 0:
        return 0
    return _FIRST_UID + (os.getpid() % 2**22) * 4 + next(_boxes) % 4


_START = """\
try:
    from posenc_lib._box import start as _posenc_box_start
    _posenc_box_start(%d, %d)
    del _posenc_box_start
except BaseException:
    __import__("os")._exit(70)
"""


def start_lines(uid):
    """The code a box's kernel runs as it starts, before any learner's code.

    It caps the box's threads at those it has now (the kernel's own) plus
    :data:`EXTRA_TASKS`, forbids new processes, and, if ``uid``, drops to that
    user id (:func:`box_uid`): :func:`._in_box.start`. The kernel exits should
    any of it fail.
    """
    return _START % (uid, EXTRA_TASKS)


class _BoxKernelSpecs(KernelSpecManager):
    """Every kernel name means this interpreter's ipykernel, inside a box."""

    prefix = List(Unicode())

    def get_kernel_spec(self, kernel_name):
        spec = ipykernel.kernelspec.get_kernel_dict()
        spec["argv"] = [*self.prefix, *spec["argv"]]
        spec["interrupt_mode"] = "message"  # a signal would stop at bwrap
        return KernelSpec(resource_dir=ipykernel.kernelspec.RESOURCES, **spec)


class BoxKernelManager(AsyncKernelManager):
    """A kernel of this Python in the box of folder ``box``, over Unix sockets.

    Give ``box`` (the folder) and ``stub`` (from :func:`make_stub`).
    """

    box = Unicode()
    stub = Unicode()

    @default("kernel_spec_manager")
    def _kernel_spec_manager_default(self):
        prefix = box_command(self.box, self.stub)
        return _BoxKernelSpecs(data_dir=self.data_dir, prefix=prefix)

    @default("transport")
    def _transport_default(self):
        return "ipc"

    @default("ip")
    def _ip_default(self):
        return str(Path(self.box) / "k")

    @default("connection_file")
    def _connection_file_default(self):
        return str(Path(self.box) / ".posenc-kernel.json")
