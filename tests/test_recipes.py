"""The recipes for grading a class on many machines (``docs/recipes/``: Slurm,
Kubernetes, a GitHub Actions matrix): each task's commands run here with its
scheduler's variables, with a ``posenc`` that records its arguments, then for
real. The manifests against Kubernetes' Job schema; the workflow: test_ci_workflow.
"""

import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from posenc_tools.build_site import CACHE
from posenc_tools.make_submissions import POS_ENCODING_KINDS, write_submissions
from referencing import Registry, Resource
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[1]
RECIPES = ROOT / "docs" / "recipes"
BIN = Path(sys.executable).parent  # this environment's posenc


def _yaml(path):
    return YAML(typ="safe", pure=True).load(path.read_text())


# --- each recipe's tasks, as its scheduler runs them -----------------------------


SLURM = ["ARRAY_TASK_ID", "ARRAY_TASK_MIN", "ARRAY_TASK_MAX", "ARRAY_TASK_COUNT"]


def slurm_tasks(array=None):
    """``[(command, env)]``: grade.sbatch once per array task, then merge.sbatch."""
    text = (RECIPES / "grade.sbatch").read_text()
    first, last = array or map(int, re.search(r"--array=(\d+)-(\d+)", text).groups())
    tasks = []
    for task in range(first, last + 1):
        values = (task, first, last, last - first + 1)
        env = {f"SLURM_{n}": str(v) for n, v in zip(SLURM, values, strict=True)}
        env["SLURM_CPUS_PER_TASK"] = "1"
        tasks.append((["bash", str(RECIPES / "grade.sbatch")], env))
    return tasks + [(["bash", str(RECIPES / "merge.sbatch")], {})]


def kubernetes_tasks(data):
    """One pod per completion index (0 .. completions-1), then the merge Job's;
    the volume mounted at ``data``, not /data."""
    pods = []
    for name in ("grade-job.yaml", "merge-job.yaml"):
        job = _yaml(RECIPES / name)
        (container,) = job["spec"]["template"]["spec"]["containers"]
        arguments = container["command"] + container["args"]
        env = {item["name"]: item["value"] for item in container.get("env", [])}
        pods.append(([a.replace("/data", str(data)) for a in arguments], env, job))
    (grade, env, job), (merge, _, _) = pods
    indices = range(job["spec"]["completions"])
    tasks = [(grade, {**env, "JOB_COMPLETION_INDEX": str(i)}) for i in indices]
    return tasks + [(merge, {})]


def matrix_tasks():
    """The grade job's step per matrix entry, the artifacts moved as upload- and
    download-artifact do (``parts/I`` into ``parts/part-I``), the merge job's."""
    jobs = _yaml(RECIPES / "grade-matrix.yml")["jobs"]
    shards = jobs["grade"]["strategy"]["matrix"]["shard"]
    (grade,) = [s for s in jobs["grade"]["steps"] if "posenc grade" in s.get("run", "")]
    (merge,) = [s for s in jobs["merge"]["steps"] if "posenc grade" in s.get("run", "")]
    tasks = []
    for shard in shards:
        run = grade["run"].replace("${{ matrix.shard }}", str(shard))
        run = run.replace("${{ strategy.job-total }}", str(len(shards)))
        tasks.append((["bash", "-c", run], {}))
    artifacts = "for d in parts/*/; do cp -r $d parts/part-$(basename $d); done"
    return tasks + [(["bash", "-c", artifacts], {}), (["bash", "-c", merge["run"]], {})]


def _run_tasks(recipe, folder, posenc_bin):
    """Run each of ``recipe``'s tasks in ``folder`` (the course's, or the volume)."""
    tasks = {
        "slurm": slurm_tasks,
        "slurm-from-0": lambda: slurm_tasks(array=(0, 3)),
        "kubernetes": lambda: kubernetes_tasks(folder),
        "matrix": matrix_tasks,
    }[recipe]()
    (folder / ".venv").mkdir(exist_ok=True)
    if not (folder / ".venv" / "bin").exists():
        (folder / ".venv" / "bin").symlink_to(posenc_bin)
    base = {**os.environ, "PATH": f"{posenc_bin}{os.pathsep}{os.environ['PATH']}"}
    for command, env in tasks:
        done = subprocess.run(
            command, cwd=folder, env={**base, **env}, capture_output=True, text=True
        )
        assert done.returncode == 0, (command, env, done.stdout, done.stderr)


# --- the index arithmetic, with a stand-in posenc --------------------------------


@pytest.fixture
def recording_posenc(tmp_path):
    """A folder with a ``posenc`` that records its arguments and makes ``--out``."""
    folder = tmp_path / "fake-bin"
    folder.mkdir()
    posenc = folder / "posenc"
    record = f"import json, os, sys; open({str(tmp_path / 'calls')!r}, 'a')"
    record += ".write(json.dumps(sys.argv[1:]) + '\\n')\n"
    record += "os.makedirs(sys.argv[sys.argv.index('--out') + 1])"
    posenc.write_text(f"#!{sys.executable}\n{record}\n")
    posenc.chmod(0o755)
    return folder


@pytest.mark.parametrize("recipe", ["slurm", "slurm-from-0", "kubernetes", "matrix"])
def test_every_task_grades_its_own_shard_then_one_merge(
    recipe, recording_posenc, tmp_path
):
    volume = tmp_path / "volume"
    volume.mkdir()
    _run_tasks(recipe, volume, recording_posenc)
    *calls, merge = map(json.loads, (tmp_path / "calls").read_text().splitlines())
    shards = [(c[c.index("--shard") + 1], c[c.index("--out") + 1]) for c in calls]
    count = len(shards)
    assert count >= 2
    expected = [f"{i}/{count}" for i in range(1, count + 1)]
    assert sorted(shard for shard, _ in shards) == sorted(expected)
    assert len({out for _, out in shards}) == count  # no two shards share a folder
    assert merge[:2] == ["grade", "--merge"] and "--out" in merge


# --- for real, on generated submissions --------------------------------------------


def _grades(path):
    """grades.csv's rows without the time each took."""
    with open(path, newline="", encoding="utf-8") as file:
        return sorted(
            tuple(v for k, v in row.items() if k != "seconds")
            for row in csv.DictReader(file)
        )


@pytest.fixture(scope="module")
def class_of_five(tmp_path_factory):
    """Five generated submissions and the grades of one unsharded run."""
    folder = tmp_path_factory.mktemp("class")
    write_submissions(folder / "submissions", tuple(POS_ENCODING_KINDS), count=5)
    done = subprocess.run(
        [str(BIN / "posenc"), "grade", "submissions", "--out", "whole", "--jobs", "1"],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return folder, _grades(folder / "whole" / "grades.csv")


@pytest.mark.slow
@pytest.mark.parametrize("recipe", ["slurm", "kubernetes", "matrix"])
def test_the_merged_shards_grade_the_class_as_one_run(recipe, class_of_five, tmp_path):
    source, whole = class_of_five
    folder = tmp_path / "course"
    shutil.copytree(source / "submissions", folder / "submissions")
    _run_tasks(recipe, folder, BIN)
    assert _grades(folder / "grades" / "grades.csv") == whole
    pages = {page.name for page in (source / "whole" / "feedback").iterdir()}
    assert {page.name for page in (folder / "grades" / "feedback").iterdir()} == pages


# --- the Kubernetes manifests against the batch/v1 Job schema -----------------------

SCHEMAS = "kubernetes-validate==1.37.0"  # its wheel holds Kubernetes' JSON schemas
SCHEMAS_SHA256 = "85136d018a27b50ec7fc049d902bfa5193f5976807e6c0f408e3ab6fe078cad9"
SCHEMA_DIR = "kubernetes_validate/kubernetes-json-schema/v1.37.0-local-strict/"


@pytest.fixture(scope="module")
def job_schema():
    """A validator of batch/v1 Job (Kubernetes 1.37, strict), from the checked
    wheel of kubernetes-validate, fetched once into .site-cache/."""
    name, version = SCHEMAS.split("==")
    wheel = CACHE / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    if not wheel.exists():
        CACHE.mkdir(exist_ok=True)
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet"]
        command += ["--only-binary", ":all:", "-d", str(CACHE), SCHEMAS]
        subprocess.run(command, check=True)
    if hashlib.sha256(wheel.read_bytes()).hexdigest() != SCHEMAS_SHA256:
        wheel.unlink()
        pytest.fail(f"{wheel.name} is not the one checked: removed it, run again")
    with zipfile.ZipFile(wheel) as archive:
        job = json.loads(archive.read(SCHEMA_DIR + "job-batch-v1.json"))
        definitions = json.loads(archive.read(SCHEMA_DIR + "_definitions.json"))
    registry = Resource.from_contents(definitions) @ Registry()
    return Draft202012Validator(job, registry=registry)


def _errors(validator, manifest):
    return sorted(
        f"{'.'.join(map(str, e.path))}: {e.message}"
        for e in validator.iter_errors(manifest)
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", ["grade-job.yaml", "merge-job.yaml", "misspelt"])
def test_the_manifests_are_valid_batch_v1_jobs(job_schema, name):
    """... and the schema would catch a misspelt field."""
    manifest = _yaml(RECIPES / name.replace("misspelt", "grade-job.yaml"))
    if name == "misspelt":
        manifest["spec"]["completion"] = manifest["spec"].pop("completions")
    assert (_errors(job_schema, manifest) == []) == (name != "misspelt")


def test_the_job_is_indexed_never_restarted_and_not_wider_than_its_shards():
    """(One shard per completion index: test_every_task_grades_its_own_shard.)"""
    spec = _yaml(RECIPES / "grade-job.yaml")["spec"]
    assert spec["completionMode"] == "Indexed"
    assert spec["completions"] >= spec["parallelism"]
    assert spec["template"]["spec"]["restartPolicy"] == "Never"
