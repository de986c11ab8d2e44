"""Reports of a validation: a self-contained HTML page, plain text, JSON.

The HTML page needs nothing from the network: the map picture is inline (a
``data:`` URI), the script and the styles are in the page. An SVG overlay
lays every hex that has a finding over the picture; a finding and its hexes
are linked both ways (click a finding: its hexes light up; click a lit hex:
its findings scroll into view and light up), and the list filters by severity
and kind. Opened as ``report.html#selftest`` the page clicks its first
finding and its first hex by itself and writes the outcome into the element
``#selftest-result`` (the browser test reads it with ``--dump-dom``).

The picture zooms (buttons, Ctrl+wheel) and pans (drag). A hexside finding is
drawn on its side (a line between the side's two corners),
not as its two hexes; the list is grouped and sorted by place (a hex, or the
first hex of a hexside), the most serious first within a place, so a builder
works through the map once.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import json
import math
import os
from pathlib import Path

from pipeline.model.documents import write_text_atomic
from pipeline.model.folder import MAP_FILE
from pipeline.validate.accepted import SUFFIX
from pipeline.validate.findings import SEVERITIES, Finding, count_by
from pipeline.validate.picture import Picture, ScanView, draw_map, draw_scan
from pipeline.validate.validation import Validation

__all__ = ["html_report", "text_report", "write_html_report"]

Point = tuple[float, float]
_CROPS = 400  # findings given a crop of the scan (most serious first): the page stays light

_STYLE = """
body{font:14px system-ui,sans-serif;margin:1em;color:#222}
h1{font-size:1.3em;margin:0 0 .3em}
#layout{display:flex;gap:1em;align-items:flex-start}
#viewport{flex:none;overflow:auto;max-width:68vw;max-height:92vh;cursor:grab;
 border:1px solid #ccc}
#zoom{margin:.2em 0}#zoom button{min-width:2.2em}
#map{position:relative;transform-origin:0 0}
#map img{display:block}
#map svg{position:absolute;left:0;top:0}
.mark{fill:transparent;stroke-width:3;cursor:pointer}
.mark.sev-error{stroke:#d40000}.mark.sev-warning{stroke:#e08a00}.mark.sev-check{stroke:#2a6fd6}
.mark.selected{fill:rgba(255,230,0,.55);stroke:#000;stroke-width:4}
line.mark{stroke-width:5;stroke-linecap:round}
line.mark.selected{stroke:#ffd400;stroke-width:8}
.place{font-weight:bold;margin-top:.5em;list-style:none}
.finding.accepted{opacity:.45}
img.crop{float:left;margin:0 .5em .2em 0;border:1px solid #999}
.finding::after{content:"";display:block;clear:both}
label.accept{float:right;font-size:12px}
#checked-export{display:none}
.mark.hidden{display:none}
#side{max-height:95vh;overflow:auto;flex:1;min-width:22em}
#findings{list-style:none;padding:0;margin:0}
.finding{padding:.3em .5em;margin:.2em 0;border-left:5px solid #999;cursor:pointer}
.finding.sev-error{border-color:#d40000}.finding.sev-warning{border-color:#e08a00}
.finding.sev-check{border-color:#2a6fd6}
.finding.selected{background:#fff3a0}
.finding.hidden{display:none}
.tag{font:12px monospace;color:#555}
.cite{color:#555;font-style:italic}
fieldset{margin:.3em 0;padding:.3em .6em}
label{margin-right:.8em;white-space:nowrap}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:1px 8px;text-align:right}
"""

_SCRIPT = """
(function () {
  "use strict";
  var marks = Array.prototype.slice.call(document.querySelectorAll(".mark"));
  var items = Array.prototype.slice.call(document.querySelectorAll(".finding"));
  function hexesOf(el) { return (el.getAttribute("data-hexes") || "").split(" ").filter(Boolean); }
  function sideOf(el) { return el.getAttribute("data-side"); }
  function clear() {
    marks.concat(items).forEach(function (el) { el.classList.remove("selected"); });
  }
  function selectFinding(item) {
    clear();
    item.classList.add("selected");
    var hexes = hexesOf(item), side = sideOf(item);
    marks.forEach(function (m) {
      var hit = side ? sideOf(m) === side : hexes.indexOf(m.getAttribute("data-hex")) >= 0;
      if (hit) { m.classList.add("selected"); }
    });
    var first = document.querySelector(".mark.selected");
    if (first && first.scrollIntoView) { first.scrollIntoView({block: "nearest"}); }
  }
  function selectHex(mark) {
    clear();
    var hex = mark.getAttribute("data-hex"), side = sideOf(mark);
    mark.classList.add("selected");
    var shown = items.filter(function (it) {
      var hit = side ? sideOf(it) === side : hexesOf(it).indexOf(hex) >= 0;
      return hit && !it.classList.contains("hidden");
    });
    shown.forEach(function (it) { it.classList.add("selected"); });
    if (shown.length) { shown[0].scrollIntoView({block: "nearest"}); }
  }
  items.forEach(function (it) {
    it.addEventListener("click", function () { selectFinding(it); });
  });
  marks.forEach(function (m) { m.addEventListener("click", function () { selectHex(m); }); });
  function applyFilters() {
    var off = {};
    document.querySelectorAll("input[data-filter]").forEach(function (box) {
      if (!box.checked) { off[box.getAttribute("data-filter") + ":" + box.value] = true; }
    });
    var visible = {};
    items.forEach(function (it) {
      var hide = off["severity:" + it.getAttribute("data-severity")] ||
                 off["kind:" + it.getAttribute("data-kind")];
      it.classList.toggle("hidden", !!hide);
      if (!hide) {
        hexesOf(it).forEach(function (h) { visible[h] = true; });
        if (sideOf(it)) { visible["side:" + sideOf(it)] = true; }
      }
    });
    marks.forEach(function (m) {
      var key = sideOf(m) ? "side:" + sideOf(m) : m.getAttribute("data-hex");
      m.classList.toggle("hidden", !visible[key]);
    });
  }
  document.querySelectorAll("input[data-filter]").forEach(function (box) {
    box.addEventListener("change", applyFilters);
  });
  var view = document.getElementById("viewport"), map = document.getElementById("map");
  var sizer = document.getElementById("sizer"), zoom = 1;
  var picture = map.querySelector("img");
  function setZoom(z) {
    zoom = Math.min(6, Math.max(0.25, z));
    map.style.transform = "scale(" + zoom + ")";
    sizer.style.width = (picture.width * zoom) + "px";
    sizer.style.height = (picture.height * zoom) + "px";
  }
  document.getElementById("zoom-in").addEventListener("click",
                                                      function () { setZoom(zoom * 1.5); });
  document.getElementById("zoom-out").addEventListener("click",
                                                       function () { setZoom(zoom / 1.5); });
  view.addEventListener("wheel", function (e) {
    if (!e.ctrlKey) { return; }
    e.preventDefault();
    setZoom(zoom * (e.deltaY < 0 ? 1.25 : 0.8));
  }, {passive: false});
  var drag = null;
  view.addEventListener("mousedown", function (e) {
    drag = {x: e.clientX, y: e.clientY, left: view.scrollLeft, top: view.scrollTop};
  });
  window.addEventListener("mouseup", function () { drag = null; });
  window.addEventListener("mousemove", function (e) {
    if (!drag) { return; }
    view.scrollLeft = drag.left - (e.clientX - drag.x);
    view.scrollTop = drag.top - (e.clientY - drag.y);
  });
  setZoom(1);
  var earlier = JSON.parse(document.getElementById("accepted").textContent);
  var save = document.getElementById("save-checked");
  function exportChecked() {
    var list = earlier.slice();
    items.forEach(function (it) {
      var box = it.querySelector("input.accept");
      it.classList.toggle("accepted", box.checked);
      if (box.checked) {
        list.push({kind: it.getAttribute("data-kind"), where: it.getAttribute("data-where")});
      }
    });
    var text = JSON.stringify({checked: list}, null, 1) + "\\n";
    document.getElementById("checked-export").textContent = text;
    save.setAttribute("href", "data:application/json;charset=utf-8," + encodeURIComponent(text));
    document.getElementById("to-look-at").textContent =
      String(items.length - items.filter(function (it) {
        return it.querySelector("input.accept").checked; }).length);
  }
  items.forEach(function (it) {
    var box = it.querySelector("input.accept");
    box.addEventListener("click", function (e) { e.stopPropagation(); });
    box.addEventListener("change", exportChecked);
  });
  exportChecked();
  if (window.location.hash === "#selftest") {
    var out = document.getElementById("selftest-result");
    var result = "PASS";
    var item = items.filter(function (it) { return hexesOf(it).length > 0; })[0];
    if (item) {
      item.dispatchEvent(new MouseEvent("click", {bubbles: true}));
      var hex = hexesOf(item)[0];
      var mark = document.querySelector('.mark[data-hex="' + hex + '"]');
      if (!mark || !mark.classList.contains("selected")) {
        result = "FAIL finding->hex " + hex;
      } else {
        clear();
        mark.dispatchEvent(new MouseEvent("click", {bubbles: true}));
        if (!item.classList.contains("selected")) { result = "FAIL hex->finding " + hex; }
        item.dispatchEvent(new MouseEvent("click", {bubbles: true}));
      }
      out.setAttribute("data-hex", hex);
    } else {
      result = "PASS no findings";
    }
    var sided = items.filter(function (it) { return sideOf(it); })[0];
    if (sided && result === "PASS") {
      sided.dispatchEvent(new MouseEvent("click", {bubbles: true}));
      var line = document.querySelector('line.mark[data-side="' + sideOf(sided) + '"]');
      if (!line || !line.classList.contains("selected")) {
        result = "FAIL finding->side " + sideOf(sided);
      } else {
        clear();
        line.dispatchEvent(new MouseEvent("click", {bubbles: true}));
        if (!sided.classList.contains("selected")) { result = "FAIL side->finding"; }
      }
      out.setAttribute("data-side", sideOf(sided));
    }
    document.getElementById("zoom-in").dispatchEvent(new MouseEvent("click", {bubbles: true}));
    if (map.style.transform !== "scale(1.5)"
        || sizer.style.width !== (picture.width * 1.5) + "px") {
      result = "FAIL zoom " + map.style.transform;
    }
    view.dispatchEvent(new MouseEvent("mousedown", {bubbles: true, clientX: 200, clientY: 200}));
    window.dispatchEvent(new MouseEvent("mousemove", {bubbles: true, clientX: 150, clientY: 170}));
    window.dispatchEvent(new MouseEvent("mouseup", {bubbles: true}));
    if (result === "PASS" && view.scrollLeft !== 50 && view.scrollWidth > view.clientWidth + 50) {
      result = "FAIL pan " + view.scrollLeft;
    }
    var first = items[0];
    if (first && result === "PASS") {
      var tick = first.querySelector("input.accept");
      tick.checked = true;
      tick.dispatchEvent(new Event("change"));
      var saved = JSON.parse(document.getElementById("checked-export").textContent).checked;
      var last = saved[saved.length - 1];
      if (!last || last.kind !== first.getAttribute("data-kind") ||
          !first.classList.contains("accepted")) { result = "FAIL mark as checked"; }
    }
    out.textContent = result;
  }
}());
"""


def _points(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _side_of(f: Finding, picture: Picture) -> tuple[str, Point, Point] | None:
    """A hexside finding between two drawn hexes: its name and the side's two corners."""
    if len(f.hexes) != 2 or "/".join(sorted(f.hexes)) != f.where:
        return None
    a, b = (picture.outlines.get(h) for h in f.hexes)
    if a is None or b is None:
        return None
    shared = [p for p in a if any(math.dist(p, q) < 1.0 for q in b)]
    return (f.where, shared[0], shared[1]) if len(shared) == 2 else None


def _worst(findings: list[Finding], picture: Picture) -> dict[str, str]:
    worst: dict[str, str] = {}
    for f in findings:  # findings come most serious first
        key = _side_of(f, picture)
        for h in ((f"side:{key[0]}",) if key is not None else f.hexes):
            worst.setdefault(h, f.severity)
    return worst


def _overlay(picture: Picture, findings: list[Finding]) -> str:
    marks = []
    sides = {key[0]: key for f in findings if (key := _side_of(f, picture)) is not None}
    for place, severity in sorted(_worst(findings, picture).items()):
        if place.startswith("side:"):
            name, (x1, y1), (x2, y2) = sides[place[5:]]
            marks.append(f'<line class="mark sev-{severity}" data-side="{html.escape(name)}"'
                         f' x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}">'
                         f"<title>{html.escape(name)}</title></line>")
        elif place in picture.outlines:
            marks.append(f'<polygon class="mark sev-{severity}" data-hex="{html.escape(place)}"'
                         f' points="{_points(picture.outlines[place])}">'
                         f"<title>{html.escape(place)}</title></polygon>")
    return (f'<svg width="{picture.width}" height="{picture.height}"'
            f' viewBox="0 0 {picture.width} {picture.height}"'
            f' xmlns="http://www.w3.org/2000/svg">{"".join(marks)}</svg>')


def _place(f: Finding) -> str:
    return f.hexes[0] if f.hexes else (f.where.split("/")[0] if f.where else "")


def _by_place(findings: list[Finding]) -> list[tuple[str, list[tuple[int, Finding]]]]:
    """Findings grouped by place, places in id order (the whole map last), each group in
    report order (most serious first); each finding keeps its index in the report."""
    groups: dict[str, list[tuple[int, Finding]]] = {}
    for i, f in enumerate(findings):
        groups.setdefault(_place(f), []).append((i, f))
    return sorted(groups.items(), key=lambda kv: (kv[0] == "", kv[0]))


def _crop(f: Finding, view: ScanView | None) -> str:
    shot = view.crop(f.hexes) if view is not None else None
    if shot is None:
        return ""
    return (f'<img class="crop" alt="the scan at {html.escape(f.where)}"'
            f' src="data:image/jpeg;base64,{base64.b64encode(shot).decode("ascii")}">')


def _finding_item(i: int, f: Finding, picture: Picture, view: ScanView | None = None) -> str:
    cite = f' <span class="cite">({html.escape(f.cite)})</span>' if f.cite else ""
    conf = f" confidence {f.confidence:.2f}" if f.confidence is not None else ""
    key = _side_of(f, picture)
    side = f' data-side="{html.escape(key[0])}"' if key is not None else ""
    return (f'<li class="finding sev-{f.severity}" id="finding-{i}"'
            f' data-severity="{f.severity}" data-kind="{html.escape(f.kind)}"'
            f' data-hexes="{html.escape(" ".join(f.hexes))}"{side}'
            f' data-where="{html.escape(f.where)}">'
            f'<label class="accept"><input type="checkbox" class="accept"> checked</label>'
            f"{_crop(f, view)}"
            f'<span class="tag">{f.severity} · {html.escape(f.kind)}{conf}</span><br>'
            f"{html.escape(f.message)}{cite}</li>")


def _filters(findings: list[Finding]) -> str:
    boxes = []
    for field, values in (("severity", list(SEVERITIES)),
                          ("kind", sorted({f.kind for f in findings}))):
        counts = count_by(findings, field)
        labels = "".join(
            f'<label><input type="checkbox" checked data-filter="{field}"'
            f' value="{html.escape(v)}"> {html.escape(v)} ({counts.get(v, 0)})</label>'
            for v in values)
        boxes.append(f"<fieldset><legend>{field}</legend>{labels}</fieldset>")
    return "".join(boxes)


def _diff_table(result: Validation) -> str:
    if result.diff is None:
        return ""
    rows = "".join(
        f"<tr><th>{html.escape(n)}</th><td>{a.hand}</td><td>{a.digitized}</td>"
        f"<td>{a.both}</td><td>{a.agreement:.0%}</td></tr>"
        for table in (result.diff.terrain, result.diff.features)
        for n, a in table.items() if a.hand or a.digitized)
    return (f"<h2>Agreement with {html.escape(result.inputs.get('against', 'the other map'))}"
            f"</h2><p>{result.diff.hexes_agreeing} of {result.diff.hexes} hexes agree.</p>"
            "<table><tr><th></th><th>by hand</th><th>digitized</th><th>both</th>"
            f"<th>agreement</th></tr>{rows}</table>")


def _view(result: Validation) -> ScanView | None:
    scan = result.inputs.get("scan")
    if scan is None or result.reference is None or not Path(scan).is_file():
        return None
    return draw_scan(scan, result.reference)


def html_report(result: Validation, names: dict[str, str] | None = None) -> str:
    """The report page as one string (deterministic for the same validation).

    With a scan (``--scan``) the scan itself is under the findings, with the fitted grid
    and the hex ids drawn, and each finding on it has a crop of the scan beside it;
    otherwise the typed map is drawn. ``names`` are the input names the page shows
    (the files as given, by default).
    """
    view = _view(result)
    picture = view.picture if view is not None else draw_map(result.the_map)
    png = base64.b64encode(picture.png).decode("ascii")
    if names is not None:
        result = dataclasses.replace(result, inputs=names)
    counts = count_by(result.findings, "severity")
    summary = ", ".join(f"{counts.get(s, 0)} {s}" for s in SEVERITIES)
    items = "".join(
        f'<li class="place">{html.escape(place or "the whole map")}</li>'
        + "".join(_finding_item(i, f, picture, view if i < _CROPS else None)
                  for i, f in group)
        for place, group in _by_place(result.findings))
    title = f"bocage validate: {result.inputs.get('map', result.the_map.title)}"
    earlier = json.dumps([{"kind": f.kind, "where": f.where} for f in result.hidden])
    sidecar = Path(result.inputs.get("map", MAP_FILE)).name.removesuffix(".json") + SUFFIX
    data = html.escape(json.dumps(result.inputs, sort_keys=True))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>{_STYLE}</style></head>
<body data-inputs="{data}">
<h1>{html.escape(title)}</h1>
<p>{html.escape(result.the_map.title)}: {summary};
<b id="to-look-at">{len(result.findings)}</b> to look at{_hidden_note(result)}.
Tick what you checked and <a id="save-checked" download="{html.escape(sidecar)}"
href="data:application/json,%7B%22checked%22%3A%5B%5D%7D">save the checked list</a>
beside the map as {html.escape(sidecar)}: the next run hides those findings.</p>
<script type="application/json" id="accepted">{html.escape(earlier, quote=False)}</script>
<pre id="checked-export"></pre>
<div id="layout">
<div><div id="zoom"><button id="zoom-in" title="zoom in">+</button>
<button id="zoom-out" title="zoom out">&minus;</button> drag to pan, Ctrl+wheel to zoom</div>
<div id="viewport"><div id="sizer"><div id="map"><img alt="map" width="{picture.width}"
 height="{picture.height}" src="data:{picture.mime};base64,{png}">{_overlay(picture,
 result.findings)}</div></div></div></div>
<div id="side">{_filters(result.findings)}
<ul id="findings">{items}</ul>
{_diff_table(result)}
</div></div>
<div id="selftest-result"></div>
<script>{_SCRIPT}</script>
</body></html>
"""


def _hidden_note(result: Validation) -> str:
    n = len(result.hidden)
    return f" ({n} marked as checked earlier, hidden)" if n else ""


def write_html_report(result: Validation, path: str | Path) -> None:
    """Write the HTML report atomically (a temporary file renamed over ``path``).

    The input files are named relative to the report's folder (to the current
    folder for ``-``, standard output), so the page says where they lie beside
    it, not where they were on the machine that made it.
    """
    folder = Path.cwd() if str(path) == "-" else Path(os.path.abspath(path)).parent
    inputs = {role: _relative(name, folder) for role, name in result.inputs.items()}
    write_text_atomic(path, html_report(result, names=inputs))


def _relative(name: str, folder: Path) -> str:
    try:
        return Path(os.path.relpath(os.path.abspath(name), folder)).as_posix()
    except ValueError:  # another drive (Windows): no relative path exists
        return name


def text_report(result: Validation) -> str:
    """One line a finding (severity, kind, place, message, citation), then a summary."""
    lines = []
    for f in result.findings:
        cite = f"  [{f.cite}]" if f.cite else ""
        conf = f" (confidence {f.confidence:.2f})" if f.confidence is not None else ""
        lines.append(f"{f.severity:<7} {f.kind:<26} {f.where or '-':<10} {f.message}{conf}{cite}")
    counts = count_by(result.findings, "severity")
    lines.append(f"{result.inputs.get('map', 'map')}: "
                 + ", ".join(f"{counts.get(s, 0)} {s}" for s in SEVERITIES))
    if result.diff is not None:
        lines.append(f"agreement: {result.diff.hexes_agreeing} of {result.diff.hexes} hexes")
    for kind, reason in sorted(result.the_map.lint_off.items()):
        lines.append(f"lint {kind} switched off by the map: {reason}")
    if result.hidden:
        lines.append(f"{len(result.hidden)} finding{'s' if len(result.hidden) > 1 else ''}"
                     f" marked as checked, hidden ({result.inputs.get('checked', '')})")
    if not result.loads:
        slips = sum(f.source == "screen" for f in result.findings)
        lines.append(f"{result.inputs.get('map', 'the map')} does not load for the other bocage"
                     f" commands until the {slips} slip{'s' if slips > 1 else ''} above"
                     f" {'are' if slips > 1 else 'is'} fixed (source 'screen')")
    return "\n".join(lines) + "\n"
