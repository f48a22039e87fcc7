"""How scripts/setup_env.py makes an environment: uv, or pip after a notice; an old
Python refused first; a ``.venv`` of another Python made again; Windows' venvs."""

import ast
import shutil
import subprocess
import sys

import pytest
from setup_env_script import ROOT, SCRIPT, setup_env

THIS_PYTHON = "{}.{}".format(*sys.version_info[:2])
TOO_OLD = (3, 9, 18, "final", 0)


def _old_python_sentence(executable):
    return (
        f"This course needs Python 3.10 or newer, but {executable} is Python 3.9.18: "
        "install Python 3.10 or newer (python.org, Homebrew, your package manager, "
        "or `uv python install 3.12`) and point make at it, for example "
        "`make lab PYTHON=python3.12`."
    )


# --- the installer ------------------------------------------------------------


def test_pip_installs_the_exported_lock_with_a_notice_when_uv_cannot_be(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.delenv("POSENC_NO_UV", raising=False)
    failing_python = "false"  # "python -m pip install uv" fails at once
    commands = setup_env.install_commands(tmp_path, failing_python, "locked")
    pip = ["false", "-m", "pip", "install", "--quiet"]
    projects = ["-e", ".", "-e", "tools"]
    assert commands == [pip + ["-r", setup_env.LOCK], pip + ["--no-deps", *projects]]
    notice = f"Could not install {setup_env.UV} from PyPI: installing with pip"
    assert capsys.readouterr().out == f"{notice} (slower).\n"


def test_posenc_no_uv_forces_pip(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("POSENC_NO_UV", "1")
    (command, _) = setup_env.install_commands(tmp_path, sys.executable, "locked")
    assert command[1:3] == ["-m", "pip"]
    assert capsys.readouterr().out.count("\n") == 1


@pytest.fixture
def venv_with_uv(tmp_path, monkeypatch):
    monkeypatch.delenv("POSENC_NO_UV", raising=False)
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "uv").touch()
    return tmp_path


def test_locked_is_uv_sync_of_uv_lock_with_the_dev_extra(venv_with_uv):
    (command,) = setup_env.install_commands(venv_with_uv, "false", "locked")
    uv = str(venv_with_uv / "bin" / "uv")
    assert command[:6] == [uv, "sync", "--locked", "--all-packages", "--extra", "dev"]
    assert "--no-python-downloads" in command  # never a Python of uv's choosing
    # the venv's own Python, not .python-version's: uv would replace a 3.12 venv
    assert command[command.index("--python") + 1] == "false"


def test_oldest_installs_requirements_oldest_with_uv_pip(venv_with_uv):
    install, project = setup_env.install_commands(venv_with_uv, "false", "oldest")
    assert install[1:3] == ["pip", "install"]
    assert install[-2:] == ["-r", setup_env.OLDEST]
    assert project[-5:] == ["--no-deps", "-e", ".", "-e", "tools"]


# --- an old Python, a stale .venv ---------------------------------------------


@pytest.mark.parametrize("version", [TOO_OLD, (3, 10, 0), (3, 13, 1), (4, 0, 0)])
def test_an_old_python_is_refused_with_one_sentence_a_supported_one_passes(version):
    if version != TOO_OLD:
        assert setup_env.check_python(version, "python3") is None
        return
    with pytest.raises(SystemExit) as refused:
        setup_env.check_python(TOO_OLD, "/usr/bin/python3")
    assert str(refused.value) == _old_python_sentence("/usr/bin/python3")


@pytest.fixture
def old_python(tmp_path):
    """This Python, told by a sitecustomize that it is 3.9.18 (for the refusal)."""
    fake = tmp_path / "fake"
    fake.mkdir()
    python = fake / "python3.9"
    told = f"sys.version_info = {TOO_OLD}\nsys.executable = {str(python)!r}\n"
    (fake / "sitecustomize.py").write_text("import sys\n" + told)
    python.write_text(f'#!/bin/sh\nPYTHONPATH={fake} exec {sys.executable} "$@"\n')
    python.chmod(0o755)
    return python


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_refuses_an_old_python_before_creating_the_venv(old_python, tmp_path):
    venv = tmp_path / "venv"
    make = ["make", "-C", str(ROOT), f"{venv}/.installed", f"VENV={venv}"]
    make.append(f"PYTHON={old_python}")
    refused = subprocess.run(make, capture_output=True, text=True)
    assert refused.returncode != 0
    assert _old_python_sentence(old_python) + "\n" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert not venv.exists()


def _fake_venv(venv, version, layout="bin", python="python"):
    """A folder that looks like a venv of Python ``version``, with a marker file."""
    (venv / layout).mkdir(parents=True)
    (venv / layout / python).touch()
    (venv / "pyvenv.cfg").write_text(f"home = /usr/bin\nversion = {version}.7\n")
    (venv / "marker").touch()
    return venv


@pytest.fixture
def runs(monkeypatch):
    """The commands setup_env would run, recorded instead of run."""
    commands = []
    monkeypatch.setattr(setup_env, "run", lambda *args, **_: commands.append(args))
    return commands


@pytest.mark.parametrize("python", ["3.9", THIS_PYTHON], ids=["other", "this"])
def test_a_venv_of_another_python_is_made_again_one_of_this_reused(
    tmp_path, runs, capsys, python
):
    venv = _fake_venv(tmp_path / ".venv", python)
    assert setup_env.ensure_venv(venv) == venv / "bin" / "python"
    again = python != THIS_PYTHON
    assert runs == ([(sys.executable, "-m", "venv", str(venv))] if again else [])
    assert (venv / "marker").exists() != again
    said = f"{venv} was made by Python 3.9, not {THIS_PYTHON}: making it again.\n"
    assert capsys.readouterr().out == (said if again else "")


def test_a_folder_that_is_no_venv_is_left_alone(tmp_path, runs):
    (tmp_path / "notes.txt").touch()
    with pytest.raises(SystemExit, match="is not a virtual environment"):
        setup_env.ensure_venv(tmp_path)
    assert runs == [] and (tmp_path / "notes.txt").exists()


@pytest.mark.parametrize(
    ("config", "version"),
    [
        ("home = /usr/bin\nversion = 3.11.7\n", "3.11"),  # python -m venv
        ("implementation = CPython\nversion_info = 3.12.3\n", "3.12"),  # uv venv
        ("home = /usr/bin\n", None),
    ],
    ids=["venv", "uv-venv", "no-version"],
)
def test_the_python_of_a_venv_is_read_from_pyvenv_cfg(tmp_path, config, version):
    (tmp_path / "pyvenv.cfg").write_text(config)
    assert setup_env.venv_python_version(tmp_path) == version


# --- Windows -------------------------------------------------------------------


def test_a_windows_venv_is_reused_and_its_uv_found(tmp_path, runs, monkeypatch):
    """Its programs are in Scripts\\ (a POSIX venv's in bin/: the tests above)."""
    monkeypatch.setattr(setup_env, "OS_NAME", "nt")
    monkeypatch.delenv("POSENC_NO_UV", raising=False)
    venv = _fake_venv(tmp_path / ".venv", THIS_PYTHON, "Scripts", "python.exe")
    (venv / "Scripts" / "uv.exe").touch()
    python = setup_env.ensure_venv(venv)
    assert python == venv / "Scripts" / "python.exe" and runs == []
    (command,) = setup_env.install_commands(venv, python, "locked")
    assert command[:2] == [str(venv / "Scripts" / "uv.exe"), "sync"]


def test_the_script_parses_on_the_pythons_it_refuses():
    """No syntax newer than Python 3.7, so an old Python gets the sentence."""
    ast.parse(SCRIPT.read_text(), feature_version=(3, 7))


# --- scripts/install_browser.sh (make test's browser-deps) ----------------------


@pytest.fixture
def no_bwrap_path(tmp_path):
    """A PATH without bwrap; ``id -u`` says 1001, ``sudo``, ``apt-get`` log to calls."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool in ("env", "uname", "bash"):
        (bin_ / tool).symlink_to(shutil.which(tool))
    stubs = {
        "id": "echo 1001",
        "sudo": f'echo "sudo $*" >> {tmp_path}/calls; [ "$SUDO_OK" = 1 ]',
        "apt-get": f'echo "apt-get $*" >> {tmp_path}/calls',
    }
    for name, body in stubs.items():
        (bin_ / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_ / name).chmod(0o755)
    return bin_


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("sudo_ok", [True, False], ids=["sudo", "sudo-asks"])
def test_bubblewrap_comes_through_sudo_or_the_user_is_told_what_to_run(
    no_bwrap_path, sudo_ok
):
    """A passwordless sudo installs bubblewrap; one that asks gets the command."""
    script = ROOT / "scripts" / "install_browser.sh"
    env = {"PATH": str(no_bwrap_path), "SUDO_OK": "1" if sudo_ok else "0"}
    done = subprocess.run(
        [shutil.which("bash"), str(script)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    calls = (no_bwrap_path.parent / "calls").read_text().splitlines()
    assert calls[0] == "sudo -n true"
    if sudo_ok:
        assert calls[-1].startswith("sudo -n env DEBIAN_FRONTEND=noninteractive")
        assert " apt-get install -y -qq " in calls[-1]
        assert calls[-1].endswith("bubblewrap")
    else:
        assert "'sudo apt-get install -y" in done.stderr and "bubblewrap" in done.stderr
        assert calls == ["sudo -n true"]  # asked, never installed
