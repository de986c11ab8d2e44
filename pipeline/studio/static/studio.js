// bocage studio: the scan in OpenSeadragon, bocage's reading drawn over it on a canvas,
// and the edits sent to the studio's server. Everything is in scan pixels; the canvas is
// redrawn with the viewer's transform on every frame, showing only the hexes in view.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token") || "";
  const studio = {
    state: null, viewer: null, selected: null, mode: "terrain", feature: null,
    scanLoaded: false, drag: null, unsureAt: -1, highlight: null,
  };
  window.studio = studio;

  // -- talking to the server ----------------------------------------------------------
  async function api(path, body) {
    const init = { headers: { "X-Bocage-Token": token } };
    if (body !== undefined) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    const data = await response.json();
    if (!response.ok) {
      const error = new Error(data.error || response.statusText);
      error.data = data;
      throw error;
    }
    return data;
  }

  async function change(path, body) {
    if (!studio.state) return;
    document.body.dataset.busy = "1";
    try {
      const next = await api(path, Object.assign({ version: studio.state.version }, body));
      setState(next);
      return next;
    } catch (error) {
      if (error.data && error.data.conflict) setState(error.data.state);
      say(error.message, true);
    } finally {
      document.body.dataset.busy = "0";
    }
  }

  function say(text, isError) {
    const box = document.getElementById("message");
    box.textContent = text || "";
    box.className = isError ? "error" : "";
  }

  // -- state -------------------------------------------------------------------------
  function setState(state) {
    studio.state = state;
    studio.byId = new Map(state.hexes.map((h, i) => [h.id, i]));
    studio.terrainColour = new Map(state.terrainTypes.map(t => [t.name, t.colour]));
    studio.featureColour = new Map(state.hexsideFeatures.map(f => [f.name, f.colour]));
    studio.featureKind = new Map(state.hexsideFeatures.map(f => [f.name, f.kind]));
    studio.findingHexes = new Map();
    for (const f of state.findings) {
      for (const id of f.hexes) if (!studio.findingHexes.has(id)) studio.findingHexes.set(id, f.severity);
    }
    if (!studio.feature && state.hexsideFeatures.length) studio.feature = state.hexsideFeatures[0].name;
    renderSide();
    draw();
    // No reading yet: the page says what the learner waits for, and labels are taken.
    const r = state.reading;
    if (r.missing) say(`No reading yet: ${r.missing}`);
    else if (document.body.dataset.reading === "missing") say(`${state.hexes.length} hexes read; ${r.unsure} unsure.`);
    document.body.dataset.reading = r.missing ? "missing" : "read";
    document.body.dataset.version = String(state.version);
  }

  function renderSide() {
    const s = studio.state;
    document.getElementById("file").textContent = `${s.file} on ${s.scan} · grid ${s.grid.method}`
      + (s.unsaved ? " · unsaved changes" : "");
    const undo = document.getElementById("undo"), redo = document.getElementById("redo");
    undo.disabled = !s.undo; undo.title = s.undo ? `undo ${s.undo} (Ctrl+Z)` : "nothing to undo";
    redo.disabled = !s.redo; redo.title = s.redo ? `redo ${s.redo} (Ctrl+Y)` : "nothing to redo";
    const list = document.getElementById("terrain-list");
    list.replaceChildren(...s.terrainTypes.map(t => {
      const li = document.createElement("li");
      li.innerHTML = `<kbd></kbd> <span class="swatch"></span><span></span>`;
      li.children[0].textContent = t.key || "";
      li.children[1].style.background = t.colour;
      li.children[2].textContent = t.name;
      return li;
    }));
    const features = document.getElementById("features");
    features.replaceChildren(...s.hexsideFeatures.map(f => {
      const label = document.createElement("label");
      label.innerHTML = `<input type="radio" name="feature"> <span class="swatch"></span><span></span>`;
      const input = label.children[0];
      input.value = f.name; input.checked = f.name === studio.feature;
      input.addEventListener("change", () => { studio.feature = f.name; });
      label.children[1].style.background = f.colour;
      label.children[2].textContent = f.name;
      return label;
    }));
    renderSuggested();
    const findings = document.getElementById("findings");
    document.getElementById("finding-count").textContent = `(${s.findings.length})`;
    findings.replaceChildren(...s.findings.slice(0, 500).map((f, i) => {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.dataset.where = f.where;
      button.innerHTML = `<span class="sev"></span> <span></span>`;
      button.children[0].textContent = f.severity;
      button.children[0].classList.add(`sev-${f.severity}`);
      button.children[1].textContent = f.message;
      if (studio.highlight === i) button.classList.add("current");
      button.addEventListener("click", () => {
        studio.highlight = i;
        if (f.hexes.length) flyTo(f.hexes[0]);
        renderSide();
      });
      li.appendChild(button);
      return li;
    }));
    renderHexInfo();
  }

  function renderSuggested() {
    const s = studio.state, r = s.reading;
    document.getElementById("confidence").textContent = r.confidence === null ? ""
      : `mean confidence ${r.confidence.toFixed(2)} · ${r.unsure} unsure · ${r.taught} given by you`;
    const list = document.getElementById("suggested");
    list.replaceChildren(...s.suggested.map(id => {
      const hx = s.hexes[studio.byId.get(id)];
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.dataset.hex = id;
      button.textContent = `${id} · ${hx.terrain[0]} ${hx.confidence === null ? "" : hx.confidence.toFixed(2)}`;
      if (studio.selected === id) button.classList.add("current");
      button.addEventListener("click", () => flyTo(id));
      li.appendChild(button);
      return li;
    }));
  }

  function renderHexInfo() {
    const box = document.getElementById("hex-info");
    const s = studio.state;
    const i = studio.selected === null ? undefined : studio.byId.get(studio.selected);
    if (i === undefined) { box.textContent = "Click a hex."; return; }
    const h = s.hexes[i];
    const sure = h.confidence === null ? "" : ` · confidence ${h.confidence.toFixed(2)}`;
    // The classifier's odds of each terrain being the main one, the likeliest first: the
    // terrains a label would choose between.
    const odds = Object.entries(h.odds || {}).filter(([, p]) => p >= 0.05)
      .sort((a, b) => b[1] - a[1]).slice(0, 3)
      .map(([name, p]) => `${name} ${Math.round(100 * p)}%`);
    const likely = odds.length > 1 ? ` · odds ${odds.join(", ")}` : "";
    const named = h.name ? ` · ${h.name}` : "";
    const marks = h.features.length ? ` · ${h.features.join(", ")}` : "";
    box.innerHTML = "<strong></strong> <span></span>";
    box.children[0].textContent = h.id;
    const terrain = h.terrain.length ? `${h.terrain.join(" + ")} (${h.provenance})` : "not read yet";
    box.children[1].textContent = `${terrain}${sure}${likely}${named}${marks}`;
    box.dataset.hex = h.id;
    box.dataset.terrain = h.terrain[0] || "";
  }

  // -- the map -------------------------------------------------------------------------
  function transform() {
    const vp = studio.viewer.viewport;
    const a = vp.imageToViewerElementCoordinates(new OpenSeadragon.Point(0, 0));
    const b = vp.imageToViewerElementCoordinates(new OpenSeadragon.Point(1000, 0));
    return { x: a.x, y: a.y, s: (b.x - a.x) / 1000 };
  }

  function toImage(position) {
    const t = transform();
    return { x: (position.x - t.x) / t.s, y: (position.y - t.y) / t.s };
  }

  studio.imageToScreen = function (x, y) {
    const t = transform();
    const box = studio.viewer.element.getBoundingClientRect();
    return { x: box.left + t.x + x * t.s, y: box.top + t.y + y * t.s };
  };

  function layer(name) { return document.getElementById(`layer-${name}`).checked; }

  function draw() {
    const canvas = studio.canvas;
    if (!canvas || !studio.viewer) return;
    const element = studio.viewer.element;
    const dpr = window.devicePixelRatio || 1;
    const w = element.clientWidth, h = element.clientHeight;
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
      canvas.style.width = `${w}px`; canvas.style.height = `${h}px`;
    }
    const ctx = canvas.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    const s = studio.state;
    if (!s) return;
    const t = transform();
    ctx.setTransform(dpr * t.s, 0, 0, dpr * t.s, dpr * t.x, dpr * t.y);
    const px = 1 / t.s;  // one screen pixel, in scan pixels
    const hw = s.grid.hexWidth;
    const view = { x0: -t.x / t.s - hw, y0: -t.y / t.s - hw, x1: (w - t.x) / t.s + hw, y1: (h - t.y) / t.s + hw };
    const shown = s.hexes.filter(hx => hx.centre[0] >= view.x0 && hx.centre[0] <= view.x1
      && hx.centre[1] >= view.y0 && hx.centre[1] <= view.y1);
    const path = (hx, k) => {
      ctx.beginPath();
      hx.corners.forEach(([x, y], i) => {
        const cx = hx.centre[0] + (x - hx.centre[0]) * k, cy = hx.centre[1] + (y - hx.centre[1]) * k;
        if (i) ctx.lineTo(cx, cy); else ctx.moveTo(cx, cy);
      });
      ctx.closePath();
    };
    if (layer("terrain")) {
      // The surer the reading, the stronger its colour (a person's word counts as sure).
      for (const hx of shown) {
        if (!hx.terrain.length) continue;  // not read yet
        ctx.globalAlpha = 0.2 + 0.3 * (hx.confidence === null ? 1 : hx.confidence);
        ctx.fillStyle = studio.terrainColour.get(hx.terrain[0]) || "#888";
        path(hx, 0.82); ctx.fill();
      }
      ctx.globalAlpha = 1;
    }
    if (layer("grid")) {
      ctx.strokeStyle = "rgba(20,20,20,0.7)"; ctx.lineWidth = px;
      for (const hx of shown) { path(hx, 1); ctx.stroke(); }
      if (hw * t.s > 42) {
        // At the foot of the hex: maps print their own ids at the top.
        ctx.fillStyle = "#111"; ctx.textAlign = "center"; ctx.textBaseline = "bottom";
        ctx.font = `${Math.min(13 * px, hw * 0.2)}px sans-serif`;
        for (const hx of shown) ctx.fillText(hx.id, hx.centre[0], hx.centre[1] + hw * 0.45);
      }
    }
    if (layer("symbols")) {
      for (const hx of shown) {
        hx.features.forEach((f, k) => {
          ctx.fillStyle = s.hexFeatures[f] || "#e0b000";
          ctx.strokeStyle = "#222"; ctx.lineWidth = px;
          star(ctx, hx.centre[0] + (k - (hx.features.length - 1) / 2) * hw * 0.22,
            hx.centre[1] - hw * 0.1, hw * 0.09);
        });
        if (hx.name && hw * t.s > 60) {
          ctx.fillStyle = "#111"; ctx.textAlign = "center"; ctx.textBaseline = "top";
          ctx.font = `italic ${Math.min(12 * px, hw * 0.16)}px sans-serif`;
          ctx.fillText(hx.name, hx.centre[0], hx.centre[1] + hw * 0.05);
        }
      }
    }
    if (layer("hexsides")) {
      ctx.lineCap = "round";
      for (const side of s.hexsides) {
        const hx = s.hexes[side.hex];
        const a = hx.corners[(side.direction + 5) % 6], b = hx.corners[side.direction];
        for (const f of side.features) {
          ctx.strokeStyle = studio.featureColour.get(f) || "#000";
          ctx.setLineDash(side.provenance === "corrected" ? [6 * px, 3 * px] : []);
          ctx.beginPath();
          if (studio.featureKind.get(f) === "along") {
            ctx.lineWidth = Math.max(3 * px, hw * 0.07);
            ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]);
          } else {
            ctx.lineWidth = Math.max(2.5 * px, hw * 0.05);
            const end = side.other === null ? [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] : s.hexes[side.other].centre;
            ctx.moveTo(hx.centre[0], hx.centre[1]); ctx.lineTo(end[0], end[1]);
          }
          ctx.stroke();
        }
      }
      ctx.setLineDash([]);
    }
    if (layer("unsure")) {
      ctx.strokeStyle = "#e600c8"; ctx.lineWidth = Math.max(2 * px, hw * 0.04);
      for (const hx of shown) {
        if (hx.provenance === "read" && hx.confidence !== null && hx.confidence < studio.state.reading.unsureBelow) {
          ctx.beginPath(); ctx.arc(hx.centre[0], hx.centre[1], hw * 0.3, 0, 2 * Math.PI); ctx.stroke();
        }
      }
      // The hexes the reading asks about: a blue ring, thicker.
      const asked = new Set(studio.state.suggested);
      ctx.strokeStyle = "#0090e0"; ctx.lineWidth = Math.max(3 * px, hw * 0.07);
      for (const hx of shown) {
        if (asked.has(hx.id)) {
          ctx.beginPath(); ctx.arc(hx.centre[0], hx.centre[1], hw * 0.38, 0, 2 * Math.PI); ctx.stroke();
        }
      }
    }
    for (const hx of shown) {  // what a person said, always shown
      if (hx.provenance === "read") continue;
      ctx.fillStyle = hx.provenance === "labelled" ? "#1a8a2a" : "#d46a00";
      ctx.beginPath(); ctx.arc(hx.centre[0] + hw * 0.28, hx.centre[1] + hw * 0.22, hw * 0.07, 0, 2 * Math.PI); ctx.fill();
    }
    if (layer("findings")) {
      ctx.lineWidth = Math.max(2 * px, hw * 0.035);
      for (const hx of shown) {
        const severity = studio.findingHexes.get(hx.id);
        if (!severity) continue;
        ctx.strokeStyle = severity === "error" ? "#d00" : severity === "warning" ? "#e08000" : "#2060c0";
        path(hx, 0.93); ctx.stroke();
      }
    }
    if (studio.selected !== null && studio.byId.has(studio.selected)) {
      const hx = s.hexes[studio.byId.get(studio.selected)];
      ctx.strokeStyle = "#ffd400"; ctx.lineWidth = Math.max(3 * px, hw * 0.05);
      path(hx, 1); ctx.stroke();
    }
    if (layer("anchors") || studio.mode === "grid") {
      for (const anchor of s.anchors) {
        const at = studio.drag && studio.drag.hex === anchor.hex ? studio.drag : anchor;
        ctx.strokeStyle = "#00c8ff"; ctx.fillStyle = anchor.pinned ? "rgba(0,200,255,0.55)" : "rgba(0,200,255,0.15)";
        ctx.lineWidth = 2 * px;
        ctx.beginPath(); ctx.arc(at.x, at.y, 9 * px, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
        ctx.beginPath(); ctx.moveTo(at.x - 14 * px, at.y); ctx.lineTo(at.x + 14 * px, at.y);
        ctx.moveTo(at.x, at.y - 14 * px); ctx.lineTo(at.x, at.y + 14 * px); ctx.stroke();
      }
    }
  }

  function star(ctx, x, y, r) {
    ctx.beginPath();
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + i * Math.PI / 5, rr = i % 2 ? r * 0.45 : r;
      const px = x + rr * Math.cos(a), py = y + rr * Math.sin(a);
      if (i) ctx.lineTo(px, py); else ctx.moveTo(px, py);
    }
    ctx.closePath(); ctx.fill(); ctx.stroke();
  }

  function hexAt(point) {
    const s = studio.state;
    let best = null, bestD = Infinity;
    for (const hx of s.hexes) {
      const d = (hx.centre[0] - point.x) ** 2 + (hx.centre[1] - point.y) ** 2;
      if (d < bestD) { best = hx; bestD = d; }
    }
    return best && Math.sqrt(bestD) <= s.grid.hexWidth * 0.62 ? best : null;
  }

  function sideAt(hx, point) {
    let best = 0, bestD = Infinity;
    for (let d = 0; d < 6; d++) {
      const a = hx.corners[(d + 5) % 6], b = hx.corners[d];
      const dist = ((a[0] + b[0]) / 2 - point.x) ** 2 + ((a[1] + b[1]) / 2 - point.y) ** 2;
      if (dist < bestD) { best = d; bestD = dist; }
    }
    return best;
  }

  function select(id) {
    studio.selected = id;
    renderHexInfo();
    renderSuggested();
    draw();
  }

  function flyTo(id) {
    const i = studio.byId.get(id);
    if (i === undefined) return;
    const hx = studio.state.hexes[i];
    const vp = studio.viewer.viewport;
    const hw = studio.state.grid.hexWidth;
    const rect = vp.imageToViewportRectangle(hx.centre[0] - 6 * hw, hx.centre[1] - 4 * hw, 12 * hw, 8 * hw);
    vp.fitBounds(rect);
    select(id);
  }

  // The learner's suggestions (bocage digitize --suggest): the hexes whose label would
  // help the reading most, best first; each label makes a new list.
  function nextSuggested() {
    const list = studio.state.suggested;
    if (!list.length) { say("No hex to suggest: every hex is read surely or checked."); return; }
    const at = list.indexOf(studio.selected);
    const id = list[at >= 0 ? (at + 1) % list.length : 0];
    flyTo(id);
    say(`${id}: suggested for a label; press its terrain's key.`);
  }

  function onClick(event) {
    if (!event.quick || !studio.state) return;
    const point = toImage(event.position);
    const hx = hexAt(point);
    if (!hx) return;
    if (studio.mode === "hexside") {
      event.preventDefaultAction = true;
      if (!studio.feature) { say("This map has no hexside features."); return; }
      select(hx.id);
      change("api/hexside", { hex: hx.id, direction: sideAt(hx, point), feature: studio.feature })
        .then(next => { if (next) say(`${next.done}: ${studio.feature} toggled`); });
      return;
    }
    select(hx.id);
  }

  function anchorAt(position) {
    const s = studio.state, t = transform();
    for (const anchor of s.anchors) {
      const x = t.x + anchor.x * t.s, y = t.y + anchor.y * t.s;
      if ((x - position.x) ** 2 + (y - position.y) ** 2 <= 16 * 16) return anchor;
    }
    return null;
  }

  function onPress(event) {
    if (studio.mode !== "grid" || !studio.state) return;
    const anchor = anchorAt(event.position);
    if (anchor) {
      const p = toImage(event.position);
      studio.drag = { hex: anchor.hex, x: p.x, y: p.y };
      studio.viewer.panHorizontal = studio.viewer.panVertical = false;
    }
  }

  function onDrag(event) {
    if (!studio.drag) return;
    event.preventDefaultAction = true;
    const p = toImage(event.position);
    studio.drag.x = p.x; studio.drag.y = p.y;
    draw();
  }

  function onRelease(event) {
    if (!studio.drag) return;
    const drag = studio.drag;
    studio.viewer.panHorizontal = studio.viewer.panVertical = true;
    say(`fitting the grid to ${drag.hex} at ${drag.x.toFixed(0)}, ${drag.y.toFixed(0)} ...`);
    change("api/anchor", { hex: drag.hex, x: drag.x, y: drag.y }).then(next => {
      if (next) say(`grid fitted (${next.grid.method}); ${drag.hex} pinned`);
    }).finally(() => { studio.drag = null; draw(); });
  }

  function onKey(event) {
    if (!studio.state || event.target.matches("input[type=text], textarea, select")) return;
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && key === "z") {
      event.preventDefault(); change(event.shiftKey ? "api/redo" : "api/undo", {}); return;
    }
    if ((event.ctrlKey || event.metaKey) && key === "y") { event.preventDefault(); change("api/redo", {}); return; }
    if ((event.ctrlKey || event.metaKey) && key === "s") { event.preventDefault(); save(); return; }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (key === "n") { nextSuggested(); return; }
    if (studio.selected === null) return;
    const terrain = studio.state.terrainTypes.find(t => t.key === key);
    if (terrain) {
      const id = studio.selected;
      change("api/terrain", { hex: id, terrain: terrain.name }).then(next => {
        if (next && next.reading.missing) say(`${id}: ${terrain.name}. No reading yet: ${next.reading.missing}`);
        else if (next) say(`${id}: ${terrain.name}; the reading has learnt it (${next.hexes.length} hexes read)`);
      });
    } else if (key === "delete" || key === "backspace" || key === "0") {
      const id = studio.selected;
      change("api/terrain", { hex: id, terrain: null }).then(next => {
        if (next) say(`${id}: back to the reading`);
      });
    }
  }

  function save() {
    change("api/save", {}).then(next => { if (next) say(`saved ${next.done} (the previous one is kept as .bak)`); });
  }

  function setMode(mode) {
    studio.mode = mode;
    const help = {
      terrain: "Click a hex, then press its terrain's key (Delete: back to the reading). N: the next hex the reading asks about.",
      hexside: "Pick a feature, then click near a hexside to add or remove it.",
      grid: "Drag an anchor onto the centre of its printed hex: one moves the grid, two or more fit it.",
    };
    document.getElementById("mode-help").textContent = help[mode];
    document.getElementById("features").hidden = mode !== "hexside";
    draw();
  }

  async function main() {
    const scan = await api("api/scan");
    const viewer = OpenSeadragon({
      element: document.getElementById("viewer"),
      showNavigationControl: false,
      drawer: "canvas",  // the 2D canvas: no GPU needed (WebGL falls back to software here)
      animationTime: 0.5,
      maxZoomPixelRatio: 4,
      visibilityRatio: 0.3,
      gestureSettingsMouse: { clickToZoom: false, dblClickToZoom: true },
      tileSources: {
        width: scan.width, height: scan.height, tileSize: scan.tileSize,
        tileOverlap: scan.tileOverlap, minLevel: 0, maxLevel: scan.maxLevel,
        getTileUrl: (level, x, y) => `tiles/${level}/${x}_${y}.jpg?token=${encodeURIComponent(token)}`,
      },
    });
    studio.viewer = viewer;
    const canvas = document.createElement("canvas");
    canvas.id = "overlay";
    viewer.element.appendChild(canvas);
    studio.canvas = canvas;
    // The reading is asked for once the scan is on screen (or after a few seconds):
    // the scan first, then the reading, never the two fighting over the machine.
    const shown = new Promise(resolve => {
      viewer.world.addHandler("add-item", event => {
        event.item.addHandler("fully-loaded-change", e => {
          if (e.fullyLoaded && !studio.scanLoaded) {
            studio.scanLoaded = true;
            document.body.dataset.scan = "shown";
            resolve();
          }
        });
      });
      setTimeout(resolve, 5000);
    });
    viewer.addHandler("update-viewport", draw);
    viewer.addHandler("resize", draw);
    viewer.addHandler("canvas-click", onClick);
    viewer.addHandler("canvas-press", onPress);
    viewer.addHandler("canvas-drag", onDrag);
    viewer.addHandler("canvas-release", onRelease);
    document.addEventListener("keydown", onKey);
    for (const input of document.querySelectorAll("input[name=mode]")) {
      input.addEventListener("change", () => setMode(input.value));
    }
    for (const input of document.querySelectorAll("#layers input")) input.addEventListener("change", draw);
    document.getElementById("next").addEventListener("click", nextSuggested);
    document.getElementById("undo").addEventListener("click", () => change("api/undo", {}));
    document.getElementById("redo").addEventListener("click", () => change("api/redo", {}));
    document.getElementById("save").addEventListener("click", save);
    document.getElementById("export").addEventListener("click", () => {
      change("api/export", {}).then(next => { if (next) say(`wrote ${next.done.join(", ")}`); });
    });
    setMode("terrain");
    say("reading the scan ...");
    await shown;
    setState(await api("api/state"));
    const r = studio.state.reading;
    if (!r.missing) say(`${studio.state.hexes.length} hexes read; ${r.unsure} unsure.`);
  }

  main().catch(error => say(`could not start: ${error.message}`, true));
})();
