"""The HTML report in headless Chromium: no console errors, and clicking a finding
highlights its hex (and clicking the hex brings its finding back).

The page tests itself when opened as ``report.html#selftest`` and writes the outcome into
``#selftest-result``; ``--dump-dom`` prints the DOM after load and ``--enable-logging=stderr``
prints every console message as a ``:CONSOLE`` line. No Python browser package is needed.
Skipped only when Chromium is missing and CI is not set; under CI a missing Chromium fails.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from pipeline.validate import validate_data, write_html_report
from tests.needs import missing

from .conftest import DEMO

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)


def _chromium() -> str:
    if CHROMIUM is None:
        missing("Chromium (apt-get install chromium)")
    return CHROMIUM


def _open(page: Path, profile: Path) -> tuple[str, str]:
    """(DOM after load, console lines) of a page in headless Chromium."""
    command = [
        _chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
        "--dump-dom", f"{page.as_uri()}#selftest",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=90, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return done.stdout, "\n".join(console)


def test_the_harness_sees_console_errors(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text("<html><body><script>undefinedFunction();</script></body></html>")
    _, console = _open(page, tmp_path / "profile")
    assert "Uncaught ReferenceError" in console


def test_the_report_loads_cleanly_and_a_click_highlights_the_hex(tmp_path, demo_data,
                                                                  demo_map):
    from .conftest import side_entry

    demo_data["hexes"]["1010"] = {"terrain": ["marsh"], "confidence": 0.99}
    side_entry(demo_data, "0804", "0805")["features"] = ["road"]  # drawn on its side
    result = validate_data(demo_data, file="typed.json", against=demo_map)
    page = tmp_path / "report.html"
    write_html_report(result, page)
    dom, console = _open(page, tmp_path / "profile")
    assert console == ""
    found = re.search(r'<div id="selftest-result" data-hex="([^"]+)" data-side="([^"]+)">'
                      r"([^<]*)</div>", dom)
    assert found is not None, dom[-500:]
    # Clicking the hexside finding lit its side, and clicking the side lit the finding.
    assert found.group(3) == "PASS"
    # The list goes by place: the first finding on the page is at the first place.
    assert found.group(1) == min(f.hexes[0] for f in result.findings if f.hexes)
    assert found.group(2) == "0804/0805"
    # The selftest ticked the first finding as checked: the list the page saves names it,
    # and the next run, reading it beside the map, hides that finding.
    import html as html_module
    import json

    from pipeline.validate import validate_files

    saved = re.search(r'<pre id="checked-export">([^<]*)</pre>', dom)
    assert saved is not None
    listed = json.loads(html_module.unescape(saved.group(1)))["checked"]
    typed = tmp_path / "typed.json"
    typed.write_text(json.dumps(demo_data))
    (tmp_path / "typed.checked.json").write_text(json.dumps({"checked": listed}))
    again = validate_files(typed, against=DEMO / "map.json")
    assert len(listed) == 1
    assert [(f.kind, f.where) for f in again.hidden] == [(listed[0]["kind"], listed[0]["where"])]
    assert (listed[0]["kind"], listed[0]["where"]) not in {(f.kind, f.where)
                                                         for f in again.findings}
    assert len(again.findings) == len(result.findings) - 1
