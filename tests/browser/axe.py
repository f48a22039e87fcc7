"""axe-core in a Playwright page: the accessibility rules the site and slides pass.

axe-core comes from the npm registry (``npm pack``, checked against its registry
integrity) into ``.site-cache/``, beside MathJax, by the site's own fetcher; it is
injected into the page under test and run there, offline.
"""

import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
AXE = "axe-core@4.14.1"
AXE_INTEGRITY = (
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFoo"
    "JpZe37OgudVGtQ=="
)
IMPACTS = ("critical", "serious", "moderate", "minor")
#: The impacts the course allows none of: every one (issue 40).
BLOCKING = IMPACTS


def _build_site():
    from posenc_tools import build_site

    return build_site


def axe_source():
    """The text of ``axe.min.js`` from axe-core's npm tarball (fetched once)."""
    tarball = _build_site().npm_tarball(AXE, AXE_INTEGRITY, why="the axe tests")
    with tarfile.open(tarball) as tar:
        return tar.extractfile("package/axe.min.js").read().decode()


def run_axe(page, source):
    """axe's violations on ``page`` (its default rules: WCAG 2 A/AA and best
    practices), as a list of ``{"id", "impact", "help", "nodes": [selectors]}``."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=source)
    return page.evaluate(
        """async () => {
          const result = await axe.run(document, {resultTypes: ['violations']});
          return result.violations.map(v => ({id: v.id, impact: v.impact,
            help: v.help, nodes: v.nodes.map(n => n.target.join(' '))}));
        }"""
    )


def counts(violations):
    """``{impact: number of failing nodes}`` for every impact."""
    found = dict.fromkeys(IMPACTS, 0)
    for violation in violations:
        found[violation["impact"]] += len(violation["nodes"])
    return found


def blocking(violations):
    """The violations of any impact, one line each, for an assertion."""
    return [
        f"{v['impact']} {v['id']} ({v['help']}): {len(v['nodes'])} nodes, e.g. "
        f"{v['nodes'][:3]}"
        for v in violations
        if v["impact"] in BLOCKING
    ]
