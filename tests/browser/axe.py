"""axe-core, the accessibility engine, run in the browser tests' pages.

axe-core is pinned (``AXE_VERSION``, its npm tarball checked by ``AXE_SHA256``) and fetched
once from the npm registry with ``npm pack`` into ``build/axe-cache`` (``make axe`` does it;
so does the first browser test that needs it); the tests read ``axe.min.js`` from there, so
they run offline. :func:`check` injects it into a page and runs the WCAG 2.0/2.1 A and AA
rules: any violation, at any impact, fails the test, and so does a ``duplicate-id*`` result
in axe's "incomplete" list (the ones it asks a person to review: two widgets on one page that
share an id are a real bug). The failure names the rule, the element and the fix axe suggests.

Run alone (``python tests/browser/axe.py``) it fetches and checks the tarball and prints the
path of ``axe.min.js``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
CACHE = ROOT / "build" / "axe-cache"
AXE_VERSION = "4.14.1"
AXE_SHA256 = "e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745"  # npm tarball
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
"""The rules run: WCAG 2.0 and 2.1, levels A and AA (axe's tags)."""


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch(cache: Path = CACHE) -> Path:
    """``axe.min.js`` of axe-core ``AXE_VERSION``, fetched with ``npm pack`` when missing."""
    script = cache / f"axe-{AXE_VERSION}.min.js"
    if script.exists():
        return script
    tarball = cache / f"axe-core-{AXE_VERSION}.tgz"
    if not tarball.exists():
        if shutil.which("npm") is None:
            raise SystemExit(
                f"axe-core {AXE_VERSION} is fetched once with npm, which is not installed "
                "(apt-get install npm, then make axe)"
            )
        cache.mkdir(parents=True, exist_ok=True)
        package = f"axe-core@{AXE_VERSION}"
        subprocess.run(
            ["npm", "pack", "--loglevel=warn", package, "--pack-destination", str(cache)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    if _sha256(tarball) != AXE_SHA256:
        raise SystemExit(f"{tarball} is not the axe-core {AXE_VERSION} the tests pin: delete it")
    with tarfile.open(tarball) as tar:
        member = tar.extractfile("package/axe.min.js")
        assert member is not None
        partial = script.with_suffix(".partial")
        partial.write_bytes(member.read())
    partial.replace(script)  # whole or not at all
    return script


RUN = """async ([context, tags]) => {
  const results = await axe.run(context, {
    runOnly: { type: 'tag', values: tags },
    resultTypes: ['violations', 'incomplete'],
  });
  const shown = (list) => list.map((r) => ({
    id: r.id, impact: r.impact, help: r.help, url: r.helpUrl,
    nodes: r.nodes.map((n) => ({
      target: n.target.join(' '), html: n.html.slice(0, 300), fix: n.failureSummary || '',
    })),
  }));
  return {
    version: axe.version,
    violations: shown(results.violations),
    incomplete: shown(results.incomplete.filter((r) => r.id.startsWith('duplicate-id'))),
  };
}"""


def findings(page: Any, context: Any = None) -> dict[str, Any]:
    """axe's violations and ``duplicate-id*`` reviews in ``page`` (or in the part of it that
    ``context`` names: a selector, or axe's ``{"include": …, "exclude": …}``)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=fetch().read_text(encoding="utf-8"))
    found: dict[str, Any] = page.evaluate(RUN, [context or "html", TAGS])
    assert found["version"] == AXE_VERSION, found["version"]
    return found


def report(found: dict[str, Any]) -> str:
    """Each problem: the rule, its impact, what it asks, the element and axe's fix."""
    lines = []
    for kind in ("violations", "incomplete"):
        for rule in found[kind]:
            lines.append(f"{rule['id']} ({rule['impact']}, {kind}): {rule['help']} {rule['url']}")
            for node in rule["nodes"]:
                lines.append(f"  at {node['target']}: {node['html']}")
                fix = " ".join(node["fix"].split())
                if fix:
                    lines.append(f"    fix: {fix}")
    return "\n".join(lines)


def check(page: Any, where: str, context: Any = None) -> None:
    """No violation at any impact and no ``duplicate-id*`` to review, or fail naming each."""
    found = findings(page, context)
    if found["violations"] or found["incomplete"]:
        raise AssertionError(f"axe-core {AXE_VERSION} on {where}:\n{report(found)}")


if __name__ == "__main__":
    path = fetch()
    print(json.dumps({"axe-core": AXE_VERSION, "script": str(path.relative_to(ROOT))}))
    sys.exit(0)
