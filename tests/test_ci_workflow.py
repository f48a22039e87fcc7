"""The GitHub Actions workflow a fork runs: ``.github/workflows/ci.yml``.

GitHub Actions cannot be reached from where the course is built, so the
workflow is checked against GitHub's workflow schema (SchemaStore's, in the copy
check-jsonschema ships, which GitHub's own editor tooling also uses) and read for
what it must do: run ``.ci/run`` in a Debian container where ``apt-get install
chromium`` works, and publish ``make site`` to GitHub Pages from main only.
"""

import json
import re
from importlib import resources
from pathlib import Path

from jsonschema.validators import validator_for
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"
ON_MAIN = "github.event_name == 'push' && github.ref == 'refs/heads/main'"


def _validator():
    vendored = resources.files("check_jsonschema.builtin_schemas.vendor")
    schema = json.loads((vendored / "github-workflows.json").read_text())
    validator = validator_for(schema)
    validator.check_schema(schema)
    return validator(schema)


def _workflow():
    # YAML 1.2 (ruamel), as GitHub reads it: `on:` is a key, not the boolean true
    return YAML(typ="safe", pure=True).load(WORKFLOW.read_text())


def _errors(workflow):
    return sorted(error.message for error in _validator().iter_errors(workflow))


def test_the_workflow_is_valid_for_github():
    workflow = _workflow()
    assert set(workflow) >= {"name", "on", "jobs"}
    assert _errors(workflow) == []


def _without_runs_on(workflow):
    del workflow["jobs"]["test"]["runs-on"]


def _misspelt_steps(workflow):
    workflow["jobs"]["test"]["step"] = workflow["jobs"]["test"].pop("steps")


def _unknown_trigger(workflow):
    workflow["on"]["pushed"] = workflow["on"].pop("push")


def _steps(job):
    """``[(name or uses, run or uses)]`` of a job's steps."""
    return [
        (step.get("name", step.get("uses")), step.get("run", step.get("uses")))
        for step in job["steps"]
    ]


def test_the_test_job_runs_ci_run_in_a_debian_python_container():
    job = _workflow()["jobs"]["test"]
    image = re.fullmatch(r"python:(3\.1[01])-(bookworm|trixie)", job["container"])
    assert image, "a Debian-based python image (apt-get install chromium works)"
    runs = [run for _, run in _steps(job)]
    assert runs.index("bash .ci/run") < runs.index("make site")
    assert runs[0] == "actions/checkout@v4"


def test_the_site_is_published_to_pages_from_main_only():
    jobs = _workflow()["jobs"]
    (upload,) = [
        s for s in jobs["test"]["steps"] if "upload-pages" in s.get("uses", "")
    ]
    assert upload["with"]["path"] == "site" and upload["if"] == ON_MAIN
    pages = jobs["pages"]
    assert pages["needs"] == "test" and pages["if"] == ON_MAIN
    assert pages["permissions"] == {"pages": "write", "id-token": "write"}
    assert [run for _, run in _steps(pages)] == ["actions/deploy-pages@v4"]
    assert _workflow()["permissions"] == {"contents": "read"}  # nothing more elsewhere
