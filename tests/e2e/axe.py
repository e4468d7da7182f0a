"""axe-core in the browser tests: pinned in package.json (installed by `npm ci`), injected
into a page through the browser's debugging protocol (Playwright's init scripts), which the
page's Content-Security-Policy does not govern, so the page under test is served unchanged."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AXE_SOURCE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")

RUN_AXE = """async (blocking) => {
  const result = await window.axe.run(document, { resultTypes: ["violations"] });
  return result.violations.filter(v => blocking.includes(v.impact)).map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + " — " + n.failureSummary.replace(/\\s+/g, " "))
  }));
}"""


def install_axe(page) -> None:
    """Load axe-core into every document this page opens from now on."""
    page.add_init_script(path=str(AXE_SOURCE))


def serious_violations(page) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now."""
    return page.evaluate(RUN_AXE, list(BLOCKING))


def describe(found: dict[str, list[dict]]) -> str:
    lines = []
    for where, violations in found.items():
        for v in violations:
            lines.append(f"{where}: [{v['impact']}] {v['id']}: {v['help']}")
            lines.extend(f"    {node}" for node in v["nodes"])
    return "\n".join(lines)
