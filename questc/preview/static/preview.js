// questc preview: the page. The map is the printed sheet's drawing (an SVG the server
// sends); this script only lays its interaction layer over it: squares to point at and
// click, sight, reach, fog, pins, doors. Live, it asks the server (/api/state,
// /api/sight, /events); exported, it reads the data embedded in the page.
"use strict";
(function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  const embedded = document.getElementById("questc-data");
  const offline = embedded ? JSON.parse(embedded.textContent) : null;
  const $ = (id) => document.getElementById(id);

  // What the writer is looking at: kept across updates of the quest.
  const ui = {
    view: "overlord", wave: null, showReach: true, selected: null, open: new Set(),
    diag: null, diagKey: null, zoom: null, hover: null, focus: null, cursor: [], cursorOff: [],
  };
  let state = null;          // the last state from the server
  let scene = null;          // state.scene, with lookups
  let sceneVersion = null;
  let svg = null, stage = null, overlay = null, layers = {};
  const sightCache = new Map();
  const pending = new Map();   // sight asked of the server, not yet answered

  // ---- data ------------------------------------------------------------------------
  function decodeBits(text, size) {
    const raw = atob(text), out = [];
    for (let i = 0; i < size; i++) if (raw.charCodeAt(i >> 3) & (1 << (i & 7))) out.push(i);
    return out;
  }

  function prepare(sc) {
    sc.index = new Map();
    sc.cells.forEach((c, i) => sc.index.set(c[0] + "," + c[1], i));
    sc.areaById = new Map(sc.areas.map((a, i) => [a.id, i]));
    sc.waves.forEach((w) => { w.reachedCells = decodeBits(w.reached, sc.cells.length); });
    sc.doorById = new Map(sc.doors.map((d) => [d.id, d]));
    return sc;
  }

  async function loadState() {
    if (offline) return offline.state;
    const reply = await fetch("/api/state", { cache: "no-store" });
    if (!reply.ok) throw new Error("state: HTTP " + reply.status);
    return reply.json();
  }

  async function sightOf(i) {
    const cell = scene.cells[i];
    const doors = [...ui.open].sort().join(",");
    const key = sceneVersion + "|" + i + "|" + doors;
    if (sightCache.has(key)) return sightCache.get(key);
    if (pending.has(key)) return pending.get(key);   // already asked (a hover's prefetch)
    const answer = askSight(i, cell, doors, key);
    pending.set(key, answer);
    try { return await answer; } finally { pending.delete(key); }
  }

  async function askSight(i, cell, doors, key) {
    let seen;
    if (offline) {
      const table = offline.sight.states[doors];
      if (table === undefined) return null;
      seen = decodeBits(offline.sight.rows[table[i]], scene.cells.length);
    } else {
      const q = "/api/sight?cell=" + cell[0] + "," + cell[1] + (doors ? "&open=" + encodeURIComponent(doors) : "");
      const reply = await fetch(q, { cache: "no-store" });
      if (!reply.ok) return null;
      const answer = await reply.json();
      if (answer.scene_version !== sceneVersion) return null;
      seen = answer.seen;
    }
    if (sightCache.size > 4000) sightCache.clear();
    sightCache.set(key, seen);
    return seen;
  }

  // ---- the map and its layer ---------------------------------------------------------
  function el(name, attrs, parent) {
    const node = document.createElementNS(SVGNS, name);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(node);
    return node;
  }

  function cellRect(i, cls, parent, extra) {
    const c = scene.cells[i];
    return el("rect", Object.assign({ x: c[0], y: c[1], width: 1, height: 1, class: cls }, extra || {}), parent);
  }

  function outlinePath(indexes) {
    // The outer edges of a group of cells, as one path in cell units.
    const set = new Set(indexes.map((i) => scene.cells[i][0] + "," + scene.cells[i][1]));
    let d = "";
    for (const i of indexes) {
      const [x, y] = scene.cells[i];
      if (!set.has(x + "," + (y - 1))) d += `M${x} ${y}h1`;
      if (!set.has(x + "," + (y + 1))) d += `M${x} ${y + 1}h1`;
      if (!set.has((x - 1) + "," + y)) d += `M${x} ${y}v1`;
      if (!set.has((x + 1) + "," + y)) d += `M${x + 1} ${y}v1`;
    }
    return d;
  }

  function squaresPath(indexes) {
    // Squares joined into runs along each row: far fewer edges for the browser to fill
    // (a 2,000-square map rasterises in a fraction of the time of one square each).
    const rows = new Map();
    for (const i of indexes) {
      const [x, y] = scene.cells[i];
      if (!rows.has(y)) rows.set(y, []);
      rows.get(y).push(x);
    }
    let d = "";
    for (const [y, xs] of rows) {
      xs.sort((a, b) => a - b);
      let start = xs[0], end = xs[0];
      for (let k = 1; k <= xs.length; k++) {
        if (k < xs.length && xs[k] === end + 1) { end = xs[k]; continue; }
        d += `M${start} ${y}h${end - start + 1}v1h${start - end - 1}z`;
        if (k < xs.length) start = end = xs[k];
      }
    }
    return d;
  }

  function buildMap() {
    // Two pictures stacked on a stage: the map drawing, then the page's own layer in a
    // composited layer of its own, so sight, hover and waves repaint the layer alone and
    // never the drawing. Zoom and pan move the stage (a CSS transform).
    const box = $("map");
    const L = scene.map.layout;
    const sameSize = stage && stage.dataset.size === L.width + "x" + L.height;
    const fresh = document.createElement("div");
    fresh.id = "stage";
    fresh.dataset.size = L.width + "x" + L.height;
    fresh.style.width = L.width + "px";
    fresh.style.height = L.height + "px";
    // Parsed once by the HTML parser, in place (no second copy of thousands of elements).
    fresh.innerHTML = scene.map.svg;
    const drawing = fresh.firstElementChild;
    drawing.setAttribute("width", L.width); drawing.setAttribute("height", L.height);
    drawing.setAttribute("id", "pv-drawing");
    // The map's own title would be a tooltip over every square; the page says it in its bar.
    for (const t of drawing.querySelectorAll(":scope > title")) t.remove();
    const layer = el("svg", { id: "pv-layer", viewBox: `0 0 ${L.width} ${L.height}`, width: L.width, height: L.height,
      "aria-label": "quest map" });
    fresh.appendChild(layer);
    const defs = el("defs", {}, layer);
    const pattern = el("pattern", { id: "pv-reach-pattern", width: 0.25, height: 0.25, patternUnits: "userSpaceOnUse" }, defs);
    el("circle", { cx: 0.125, cy: 0.125, r: 0.045, fill: "#1e8449", "fill-opacity": 0.8 }, pattern);
    const ox = L.left - L.origin[0] * L.cell, oy = L.top - L.origin[1] * L.cell;
    overlay = el("g", { id: "pv-overlay", transform: `translate(${ox} ${oy}) scale(${L.cell})` }, layer);
    layers = {};
    // The heroes' fog: everything but the revealed squares, drawn as a mask so the walls and
    // labels of unrevealed rooms (which reach past their squares) are covered too.
    const bounds = { x: L.origin[0] - 2, y: L.origin[1] - 2, w: L.columns + 4, h: L.rows + 4 };
    const mask = el("mask", { id: "pv-fog-mask", maskUnits: "userSpaceOnUse", x: bounds.x, y: bounds.y,
      width: bounds.w, height: bounds.h }, defs);
    el("rect", { x: bounds.x, y: bounds.y, width: bounds.w, height: bounds.h, fill: "#fff" }, mask);
    layers.fogHoles = el("g", { fill: "#000" }, mask);
    mask.setAttribute("transform", "");
    for (const name of ["dim", "reach", "seen", "fog", "news", "diag", "cursor", "from", "hover", "focus", "doors", "pins"]) {
      layers[name] = el("g", { class: "pv-layer-" + name }, overlay);
    }
    layers.bounds = bounds;
    for (const door of scene.doors) {
      // A hit area over the door's two edges, a third of a cell thick.
      const xs = door.edges.flatMap((e) => [e[0], e[2]]), ys = door.edges.flatMap((e) => [e[1], e[3]]);
      const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
      const t = 0.18;
      el("rect", { x: x0 - (x0 === x1 ? t : 0), y: y0 - (y0 === y1 ? t : 0),
        width: (x1 - x0) + (x0 === x1 ? 2 * t : 0), height: (y1 - y0) + (y0 === y1 ? 2 * t : 0),
        class: "pv-door", "data-door": door.id, tabindex: "0", role: "button",
        "aria-label": "door " + door.id + ": open or close" }, layers.doors).appendChild(title("door " + door.id + " (click: open or close)"));
    }
    if (stage) box.replaceChild(fresh, stage); else box.appendChild(fresh);
    stage = fresh;
    svg = layer;
    $("no-map").hidden = true;
    if (sameSize && ui.zoom) setZoom(ui.zoom); else fit();
  }

  function showLegend() {
    const list = $("legend-list");
    list.textContent = "";
    for (const entry of scene.legend || []) {
      // The heroes' legend names only what they have seen: an entry shows from its first wave.
      if (ui.view === "heroes" && ui.wave !== null && ui.wave < scene.waves.length - 1 &&
          (entry.wave === null || entry.wave === undefined || entry.wave > ui.wave)) continue;
      if (ui.view === "heroes" && (entry.wave === null || entry.wave === undefined) && ui.wave !== null &&
          scene.never_revealed.length) continue;
      const li = document.createElement("li");
      const symbol = new DOMParser().parseFromString(entry.svg, "image/svg+xml").documentElement;
      if (symbol.tagName === "svg") {
        for (const t of symbol.querySelectorAll(":scope > title")) t.remove();
        li.appendChild(document.importNode(symbol, true));
      }
      const words = document.createElement("span");
      words.textContent = entry.label;
      li.appendChild(words);
      list.appendChild(li);
    }
  }

  function title(text) { const t = el("title", {}); t.textContent = text; return t; }

  function clear(layer) { while (layer.firstChild) layer.removeChild(layer.firstChild); }

  // ---- what the layer shows -----------------------------------------------------------
  function waveOf(areaIndex) {
    return areaIndex < 0 ? null : scene.areas[areaIndex].wave;
  }

  function hidden(i) {
    // For the heroes, a square is hidden until its area is revealed (by the current wave).
    if (ui.view !== "heroes" || ui.wave === null) return false;
    const w = waveOf(scene.cells[i][2]);
    return w === null || w === undefined || w > ui.wave;
  }

  function drawWave() {
    clear(layers.dim); clear(layers.reach); clear(layers.fog); clear(layers.news); clear(layers.fogHoles);
    const n = scene.waves.length;
    $("wave-prev").disabled = ui.wave === null || ui.wave <= 0;
    $("wave-next").disabled = ui.wave === null || ui.wave >= n - 1;
    if (ui.wave === null) {
      $("wave-label").textContent = "no waves";
      $("wave-body").textContent = "Nothing is revealed: the quest has no start area.";
      return;
    }
    $("wave-label").textContent = `wave ${ui.wave} of ${n - 1}`;
    const hiddenCells = [], dimCells = [];
    scene.cells.forEach((c, i) => {
      const w = waveOf(c[2]);
      const unrevealed = w === null || w === undefined || w > ui.wave;
      if (unrevealed) (ui.view === "heroes" ? hiddenCells : dimCells).push(i);
    });
    if (dimCells.length) el("path", { d: squaresPath(dimCells), class: "pv-dim" }, layers.dim);
    if (hiddenCells.length) {
      // Holes in the fog: each revealed square, grown by a little so its own walls show.
      const shown = [];
      scene.cells.forEach((c, i) => { if (!hidden(i)) shown.push(i); });
      const g = 0.12;
      let d = "";
      for (const i of shown) { const [x, y] = scene.cells[i]; d += `M${x - g} ${y - g}h${1 + 2 * g}v${1 + 2 * g}h${-1 - 2 * g}z`; }
      if (d) el("path", { d }, layers.fogHoles);
      const b = layers.bounds;
      const fog = el("rect", { x: b.x, y: b.y, width: b.w, height: b.h, class: "pv-fog", mask: "url(#pv-fog-mask)" }, layers.fog);
      fog.dataset.count = hiddenCells.length;
    }
    const wave = scene.waves[ui.wave];
    showLegend();
    if (ui.showReach && wave.reachedCells.length) {
      const reach = el("path", { d: squaresPath(wave.reachedCells), class: "pv-reach" }, layers.reach);
      reach.dataset.count = wave.reachedCells.length;
    }
    const newCells = [];
    scene.cells.forEach((c, i) => { if (c[2] >= 0 && !hidden(i) && wave.areas.includes(scene.areas[c[2]].id)) newCells.push(i); });
    if (newCells.length) el("path", { d: outlinePath(newCells), class: "pv-new" }, layers.news);
    // The words: which areas this wave reveals, from where; how far the heroes walk.
    const body = $("wave-body");
    body.classList.remove("muted");
    body.textContent = "";
    const list = document.createElement("ul");
    list.className = "things";
    for (const id of wave.areas) {
      const area = scene.areas[scene.areaById.get(id)];
      const li = document.createElement("li");
      let from = "";
      if (ui.wave === 0) from = area.start ? "the start area" : "revealed at the start";
      else {
        const sources = area.from.filter((s) => s !== "effect");
        const verb = scene.reveal === "sight" ? "seen from " : "entered from ";
        from = [sources.length ? verb + sources.join(", ") : "", area.from.includes("effect") ? "revealed by an effect" : ""]
          .filter(Boolean).join("; ");
      }
      li.textContent = `${id} “${area.name}”` + (from ? ": " + from : "");
      list.appendChild(li);
    }
    const head = document.createElement("div");
    head.textContent = `Wave ${ui.wave} reveals:`;
    const reach = document.createElement("div");
    reach.id = "reach-count";
    reach.textContent = `The heroes can reach ${wave.reachedCells.length} of ${scene.cells.length} squares.`;
    body.append(head, list, reach);
    if (ui.wave === n - 1 && scene.never_revealed.length) {
      const never = document.createElement("div");
      never.textContent = "Never revealed: " + scene.never_revealed.join(", ");
      body.appendChild(never);
    }
    drawPins();
  }

  async function drawSight() {
    // Every call is the newest: a sight still on its way for an earlier one is dropped, even when
    // this one answers at once (no square, or a square the heroes cannot see).
    const token = {};
    drawSight.token = token;
    clear(layers.seen); clear(layers.from);
    const body = $("selection-body");
    const doorsText = ui.open.size ? "open doors: " + [...ui.open].sort().join(", ") : "every door closed";
    for (const rect of layers.doors.children) rect.classList.toggle("open", ui.open.has(rect.dataset.door));
    if (ui.selected === null) {
      body.className = "muted";
      body.textContent = "Click a square to see what it sees; click a door to open or close it. (" + doorsText + ")";
      return;
    }
    const i = ui.selected, c = scene.cells[i];
    if (hidden(i)) {   // the heroes know nothing of a covered square, nor of what it sees
      body.className = "muted";
      body.textContent = `${c[0]},${c[1]} is not revealed yet at this wave.`;
      return;
    }
    let seen = null;
    try { seen = await sightOf(i); } catch (e) { seen = null; }   // the server gone: said below
    if (drawSight.token !== token || ui.selected !== i) return;   // a newer click won
    clear(layers.seen); clear(layers.from);
    body.className = "";
    if (seen === null) {
      body.textContent = offline ? "This page holds sight with every door closed or every door open only."
        : "No answer for this square.";
      return;
    }
    seen = seen.filter((j) => !hidden(j));
    for (const j of seen) if (j !== i) cellRect(j, "pv-seen", layers.seen, { "data-cell": scene.cells[j][0] + "," + scene.cells[j][1] });
    el("rect", { x: c[0] + 0.06, y: c[1] + 0.06, width: 0.88, height: 0.88, class: "pv-from", "data-cell": c[0] + "," + c[1] }, layers.from);
    layers.seen.dataset.count = seen.length;
    body.textContent = `From ${c[0]},${c[1]}: ${seen.length - (seen.includes(i) ? 1 : 0)} other squares in sight ` +
      `(${scene.edition} edition; ${doorsText}). Click it again to clear.`;
  }

  function drawPins() {
    clear(layers.pins);
    const byAnchor = new Map();
    const rank = { error: 3, warning: 2, info: 1 };
    if (state && state.stale) { drawDiagCells(); return; }   // the latest diagnostics have no place on the old map
    currentDiagnostics().forEach((d, k) => {
      if (!d.pin) return;
      if (d.anchor !== null && d.anchor !== undefined && hidden(d.anchor)) return;
      if (d.off_map && ui.view === "heroes") return;
      const key = d.pin[0] + "," + d.pin[1] + (d.off_map ? ",off" : "");
      if (!byAnchor.has(key)) byAnchor.set(key, { pin: d.pin, off: !!d.off_map, ks: [] });
      byAnchor.get(key).ks.push(k);
    });
    const diags = currentDiagnostics();
    for (const { pin, off, ks } of byAnchor.values()) {
      const worst = ks.map((k) => diags[k].severity).sort((a, b) => rank[b] - rank[a])[0];
      const [x, y] = pin;
      const words = ks.map((k) => diags[k].severity + " " + diags[k].code + ": " + diags[k].message +
        (diags[k].off_map ? ` (off the map, at ${diags[k].off_map[0]},${diags[k].off_map[1]})` : "")).join("\n");
      const g = el("g", { class: "pv-pin " + worst + (off ? " off" : ""), "data-diags": ks.join(","),
        "data-anchor": x + "," + y, tabindex: "0", role: "button", "aria-label": words }, layers.pins);
      el("circle", { cx: x + 0.78, cy: y + 0.22, r: 0.2 }, g);
      const label = el("text", { x: x + 0.78, y: y + 0.23 }, g);
      label.textContent = ks.length > 1 ? String(ks.length) : (off ? "↗" : "!");
      g.appendChild(title(words));
      if (ui.diag !== null && ks.includes(ui.diag)) g.classList.add("on");
    }
    drawDiagCells();
  }

  function drawDiagCells() {
    clear(layers.diag);
    const d = ui.diag === null ? null : currentDiagnostics()[ui.diag];
    if (!d || !d.cells.length || !scene) return;
    el("path", { d: outlinePath(d.cells), class: "pv-diag-cells " + d.severity }, layers.diag);
  }

  // ---- panels ------------------------------------------------------------------------
  function currentDiagnostics() {
    // Fresh: the scene's (pinned); stale: the latest check's, which have no place on the old map.
    return state && state.stale ? state.diagnostics : (scene ? scene.diagnostics : []);
  }

  function showHover(i) {
    const body = $("hover-body");
    if (i === null) { body.className = "muted"; body.textContent = "Point at a square."; return; }
    const c = scene.cells[i];
    body.className = "";
    const dl = document.createElement("dl");
    dl.className = "kv";
    const add = (k, v) => { const dt = document.createElement("dt"), dd = document.createElement("dd"); dt.textContent = k; dd.textContent = v; dl.append(dt, dd); };
    add("square", c[0] + "," + c[1]);
    if (hidden(i)) {
      add("area", "not revealed yet");
    } else {
      const area = c[2] >= 0 ? scene.areas[c[2]] : null;
      add("area", area ? `${area.id} “${area.name}”` + (area.wave === null ? " (never revealed)" : ` (wave ${area.wave})`) : "none");
      add("piece", c[3] >= 0 ? scene.pieces[c[3]] : "none");
      if (c[3] >= 0 && scene.piece_origins) {
        // The form a writer types: the piece's name and the square counted from its corner.
        const o = scene.piece_origins[c[3]];
        const written = `${scene.pieces[c[3]]}:${c[0] - o[0]},${c[1] - o[1]}`;
        add("write", "");
        const code = document.createElement("code"); code.textContent = written; code.id = "hover-written";
        const copy = document.createElement("button"); copy.type = "button"; copy.className = "copy";
        copy.textContent = "copy"; copy.title = "copy " + written;
        copy.onclick = () => copyText(written, copy);
        dl.lastChild.append(code, " ", copy);
      }
      if (c[4].length) {
        const ul = document.createElement("ul");
        ul.className = "things";
        for (const t of c[4]) { const li = document.createElement("li"); li.textContent = t; ul.appendChild(li); }
        add("here", "");
        dl.lastChild.appendChild(ul);
      } else add("here", "nothing");
    }
    body.textContent = "";
    body.appendChild(dl);
    if (state && state.editor && !hidden(i)) {
      const go = document.createElement("button"); go.type = "button"; go.className = "go";
      go.textContent = "go to source"; go.title = "show the statement that placed this in the editor";
      go.onclick = () => showSource({ cell: [c[0], c[1]], focus: true });
      body.appendChild(go);
    }
  }

  function copyText(text, button) {
    const done = () => { button.textContent = "copied"; setTimeout(() => { button.textContent = "copy"; }, 1200); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => {});
    else {
      const area = document.createElement("textarea"); area.value = text; document.body.appendChild(area);
      area.select(); try { document.execCommand("copy"); done(); } catch (e) { /* nothing to copy with */ }
      area.remove();
    }
  }

  // ---- the editor (a preview served by the language server) ---------------------------------
  function showSource(what) {
    if (offline || !state || !state.editor) return;
    fetch("/api/show", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(what) }).catch(() => {});
  }

  function drawCursor() {
    if (!layers.cursor) return;
    clear(layers.cursor);
    // A thing written off the map has no square: its pin at the map's edge lights up instead.
    const off = new Set(ui.cursorOff.map((c) => c[0] + "," + c[1])), diags = currentDiagnostics();
    for (const pin of layers.pins.querySelectorAll(".pv-pin.off")) {
      const lit = pin.dataset.diags.split(",").some((k) => diags[k] && diags[k].off_map &&
        off.has(diags[k].off_map[0] + "," + diags[k].off_map[1]));
      pin.classList.toggle("pv-cursor-pin", lit);
    }
    const cells = ui.cursor.filter((i) => scene.cells[i] && !hidden(i));
    if (!cells.length) return;
    el("path", { d: outlinePath(cells), class: "pv-cursor" }, layers.cursor);
    layers.cursor.dataset.count = cells.length;
    bringIntoView(cells);
  }

  function bringIntoView(cells) {
    // Pan (never zoom) so the squares are on screen when they are not.
    if (!stage || !cells.length) return;
    const L = scene.map.layout, box = $("map"), [zx, zy, k] = ui.zoom;
    const xs = cells.map((i) => scene.cells[i][0]), ys = cells.map((i) => scene.cells[i][1]);
    const px = (x) => zx + (L.left + (x - L.origin[0]) * L.cell) * k, py = (y) => zy + (L.top + (y - L.origin[1]) * L.cell) * k;
    const x0 = px(Math.min(...xs)), x1 = px(Math.max(...xs) + 1), y0 = py(Math.min(...ys)), y1 = py(Math.max(...ys) + 1);
    const W = box.clientWidth, H = box.clientHeight;
    if (x0 >= 0 && y0 >= 0 && x1 <= W && y1 <= H) return;
    setZoom([zx + W / 2 - (x0 + x1) / 2, zy + H / 2 - (y0 + y1) / 2, k]);
  }

  function showDiagnostics() {
    const list = $("diag-list");
    list.textContent = "";
    const diags = currentDiagnostics();
    const counts = { error: 0, warning: 0, info: 0 };
    diags.forEach((d, k) => {
      counts[d.severity]++;
      const li = document.createElement("li");
      li.className = d.severity + (ui.diag === k ? " on" : "");
      li.dataset.index = k;
      li.dataset.code = d.code;
      li.tabIndex = 0;
      li.setAttribute("role", "button");
      li.setAttribute("aria-pressed", ui.diag === k ? "true" : "false");
      const sev = document.createElement("span"); sev.className = "sev " + d.severity; sev.textContent = d.severity;
      const where = document.createElement("span"); where.className = "where";
      where.textContent = ` ${d.code} · line ${d.line}` + (d.anchor !== null && d.anchor !== undefined && scene && !state.stale
        ? ` · at ${scene.cells[d.anchor][0]},${scene.cells[d.anchor][1]}` : "");
      const msg = document.createElement("div"); msg.textContent = d.message;
      li.append(sev, where, msg);
      if (d.off_map) where.textContent += ` · off the map at ${d.off_map[0]},${d.off_map[1]}`;
      list.appendChild(li);
    });
    const n = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;
    $("diag-count").textContent = diags.length ? `(${n(counts.error, "error")}, ${n(counts.warning, "warning")}` +
      (counts.info ? `, ${n(counts.info, "info")})` : ")") : "(none)";
    ui.counts = counts;
    showDiagDetail();
  }

  function showDiagDetail() {
    const box = $("diag-detail");
    const d = ui.diag === null ? null : currentDiagnostics()[ui.diag];
    if (!d) { box.hidden = true; return; }
    box.hidden = false;
    box.textContent = "";
    const head = document.createElement("div");
    head.innerHTML = "";
    const sev = document.createElement("span"); sev.className = "sev " + d.severity; sev.textContent = d.severity + " " + d.code;
    head.append(sev, document.createTextNode(" " + d.message));
    box.appendChild(head);
    if (d.help) { const help = document.createElement("div"); help.className = "help"; help.textContent = "help: " + d.help; box.appendChild(help); }
    const where = document.createElement("div"); where.className = "where muted";
    where.textContent = `${d.file}:${d.line}:${d.column}`;
    box.appendChild(where);
    const links = document.createElement("div"); links.className = "links";
    if (d.page) {
      const docs = document.createElement("a"); docs.href = d.page; docs.target = "_blank"; docs.rel = "noopener noreferrer";
      docs.textContent = `what ${d.code} means`; docs.className = "docs";
      links.appendChild(docs);
    }
    if (state && state.editor) {
      const go = document.createElement("button"); go.type = "button"; go.className = "go"; go.textContent = "go to source";
      go.onclick = () => showSource({ span: [d.line, d.column, d.end_line, d.end_column], focus: true });
      links.appendChild(go);
    }
    if (links.firstChild) box.appendChild(links);
    const excerpt = d.excerpt && d.excerpt.length ? d.excerpt : (d.source !== null && d.source !== undefined ? [d.source] : []);
    if (excerpt.length) {
      // The whole lines (the box scrolls sideways), the carets under the span's first line.
      const first = excerpt[0];
      const width = d.end_line === d.line ? Math.max(1, d.end_column - d.column) : Math.max(1, first.length - d.column + 1);
      const pre = document.createElement("pre");
      const numbered = excerpt.map((text, j) => `${String(d.line + j).padStart(4)} | ${text}`);
      numbered.splice(1, 0, `     | ${" ".repeat(Math.max(0, d.column - 1))}${"^".repeat(width)}` + (d.label ? " " + d.label : ""));
      pre.textContent = numbered.join("\n");
      box.appendChild(pre);
    }
  }

  function selectDiagnostic(k, fromMap) {
    ui.diag = ui.diag === k ? null : k;
    const d = ui.diag === null ? null : currentDiagnostics()[ui.diag];
    ui.diagKey = d ? d.key : null;
    for (const li of $("diag-list").children) {
      const on = Number(li.dataset.index) === ui.diag;
      li.classList.toggle("on", on);
      li.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) li.scrollIntoView({ block: "nearest" });
    }
    showDiagDetail();
    if (scene && svg) {
      drawPins();
      if (d && d.cells.length && !fromMap) bringIntoView(d.cells);
    }
    if (d) showSource({ span: [d.line, d.column, d.end_line, d.end_column], focus: false });
  }

  function showStatus() {
    const status = $("status"), banner = $("banner");
    const mapBox = $("map");
    if (!state) return;
    const diags = currentDiagnostics();
    const errors = diags.filter((d) => d.severity === "error").length;
    const warnings = diags.filter((d) => d.severity === "warning").length;
    const n = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;
    let text = errors || warnings ? [errors ? n(errors, "error") : "", warnings ? n(warnings, "warning") : ""]
      .filter(Boolean).join(", ") : "ok";
    let kind = errors ? "error" : (warnings ? "warning" : "ok");
    if (state.stale) {
      kind = scene ? "stale" : "problem";
      text = (scene ? "stale" : "no map") + (errors ? " · " + n(errors, "error") : "");
    }
    status.dataset.state = kind;
    status.textContent = text;
    mapBox.classList.toggle("stale", !!state.stale && !!scene);
    if (state.stale) {
      const errors = state.diagnostics.filter((d) => d.severity === "error").length;
      banner.hidden = false;
      banner.textContent = (state.problem ? state.problem + ". " : "") +
        (errors ? `${state.file} has ${errors} error${errors === 1 ? "" : "s"} (listed on the right). ` : "") +
        (scene ? "The map shown is the last one that compiled." : "");
    } else banner.hidden = true;
    $("file").textContent = state.file + (scene ? ` · ${scene.edition} edition · reveal ${scene.reveal}` : "");
  }

  // ---- applying a state ----------------------------------------------------------------
  function apply(next) {
    const newScene = next.scene_version !== sceneVersion;
    state = next;
    if (newScene && next.scene) {
      scene = prepare(next.scene);
      sceneVersion = next.scene_version;
      sightCache.clear();
      document.title = scene.title + " · questc preview";
      $("title").textContent = scene.title;
      buildMap();
      showLegend();
      // Keep what the writer was looking at, where it still exists.
      const n = scene.waves.length;
      ui.wave = n === 0 ? null : (ui.wave === null ? n - 1 : Math.min(ui.wave, n - 1));   // first look: the whole reveal
      for (const d of [...ui.open]) if (!scene.doorById.has(d)) ui.open.delete(d);
      if (ui.selected !== null) {
        const key = ui.selectedKey;
        ui.selected = scene.index.has(key) ? scene.index.get(key) : null;
      }
    }
    const diags = currentDiagnostics();
    // The selected diagnostic by what it says, not by its place in the list (which moves as the text does).
    if (ui.diagKey !== null) {
      const k = diags.findIndex((d) => d.key === ui.diagKey);
      ui.diag = k >= 0 ? k : null;
      if (k < 0) ui.diagKey = null;
    } else ui.diag = null;
    showStatus();
    showDiagnostics();
    if (scene) { drawWave(); drawSight(); drawFocus(); drawCursor(); if (ui.hover !== null) showHover(ui.hover); }
    document.body.dataset.version = next.version;
    document.body.dataset.sceneVersion = sceneVersion === null ? "" : sceneVersion;
  }

  async function refresh() {
    try {
      const next = await loadState();
      // The same state again (a reconnection, a second event for one version): nothing to redraw.
      if (state && next.version === state.version && next.session === state.session && !offlineShown) return;
      offlineShown = false;
      apply(next);
    } catch (e) { setOffline(String(e)); }
  }
  let offlineShown = false;

  function setOffline(why) {
    offlineShown = true;
    const status = $("status");
    status.dataset.state = "offline";
    status.textContent = "disconnected";
    status.title = why || "";
  }

  // ---- zoom and pan ---------------------------------------------------------------------
  // ui.zoom = [x, y, k]: the stage's top-left corner in the map box (CSS pixels) and its scale.
  function setZoom(z) {
    ui.zoom = z;
    if (stage) stage.style.transform = `translate(${z[0]}px, ${z[1]}px) scale(${z[2]})`;
  }

  function fit() {
    const L = scene.map.layout, box = $("map");
    const k = Math.min(box.clientWidth / L.width, box.clientHeight / L.height);
    setZoom([(box.clientWidth - L.width * k) / 2, (box.clientHeight - L.height * k) / 2, k]);
  }

  function zoom(factor, cx, cy) {
    // factor < 1 zooms in; about the point (cx, cy) of the map box (its middle by default).
    if (!stage) return;
    const box = $("map"), L = scene.map.layout;
    const [x, y, k] = ui.zoom;
    const fitted = Math.min(box.clientWidth / L.width, box.clientHeight / L.height);
    const next = Math.min(Math.max(k / factor, fitted / 4), 600 / L.cell);   // at most 600 px a square
    if (cx === undefined) { cx = box.clientWidth / 2; cy = box.clientHeight / 2; }
    const f = next / k;
    setZoom([cx - (cx - x) * f, cy - (cy - y) * f, next]);
  }

  function boxPoint(evt) {
    const r = $("map").getBoundingClientRect();
    return [evt.clientX - r.left, evt.clientY - r.top];
  }

  function cellAt(evt) {
    if (!scene || !svg) return null;
    const r = svg.getBoundingClientRect(), L = scene.map.layout;
    const px = (evt.clientX - r.left) * L.width / r.width, py = (evt.clientY - r.top) * L.height / r.height;
    const x = Math.floor((px - L.left) / L.cell) + L.origin[0];
    const y = Math.floor((py - L.top) / L.cell) + L.origin[1];
    const i = scene.index.get(x + "," + y);
    return i === undefined ? null : i;
  }

  // ---- events ------------------------------------------------------------------------
  function wire() {
    const box = $("map");
    let drag = null, prefetch = null;
    box.addEventListener("pointerdown", (evt) => {
      if (!svg || evt.button !== 0) return;
      drag = { x: evt.clientX, y: evt.clientY, moved: false, start: ui.zoom.slice() };
    });
    box.addEventListener("pointermove", (evt) => {
      if (drag && (drag.moved || Math.hypot(evt.clientX - drag.x, evt.clientY - drag.y) > 5)) {
        if (!drag.moved) { drag.moved = true; box.setPointerCapture(evt.pointerId); box.classList.add("panning"); }
        setZoom([drag.start[0] + evt.clientX - drag.x, drag.start[1] + evt.clientY - drag.y, drag.start[2]]);
        return;
      }
      const i = cellAt(evt);
      if (i === ui.hover) return;
      ui.hover = i;
      clear(layers.hover || document.createElement("g"));
      if (i !== null) cellRect(i, "pv-hover", layers.hover);
      showHover(i);
      // Ask for the square's sight while the pointer rests on it: the click that follows
      // finds the answer here instead of waiting for the server.
      if (i !== null && !offline) {
        clearTimeout(prefetch);
        prefetch = setTimeout(() => { if (ui.hover === i) sightOf(i).catch(() => {}); }, 40);
      }
    });
    // Leaving the map keeps the last square's words: the panels below do not jump.
    box.addEventListener("pointerleave", () => { ui.hover = null; if (layers.hover) clear(layers.hover); });
    box.addEventListener("pointerup", (evt) => {
      const wasDrag = drag && drag.moved;
      drag = null;
      box.classList.remove("panning");
      if (wasDrag || !scene) return;
      const target = evt.target;
      if (target.classList && target.classList.contains("pv-door")) {
        toggleDoor(target.dataset.door);
        showSource({ door: target.dataset.door, focus: false });
        return;
      }
      const pin = target.closest && target.closest(".pv-pin");
      if (pin) { activatePin(pin); return; }
      const i = cellAt(evt);
      if (i === null) return;
      selectSquare(i);
    });
    box.addEventListener("dblclick", (evt) => {
      const i = cellAt(evt);
      if (i !== null && !hidden(i)) showSource({ cell: scene.cells[i].slice(0, 2), focus: true });
    });
    box.addEventListener("keydown", mapKey);
    box.addEventListener("wheel", (evt) => {
      if (!svg) return;
      evt.preventDefault();
      const [cx, cy] = boxPoint(evt);
      zoom(evt.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
    }, { passive: false });
    $("zoom-in").onclick = () => zoom(1 / 1.3);
    $("zoom-out").onclick = () => zoom(1.3);
    $("zoom-fit").onclick = () => scene && fit();
    $("wave-prev").onclick = () => stepWave(-1);
    $("wave-next").onclick = () => stepWave(1);
    $("show-reach").onchange = (evt) => { ui.showReach = evt.target.checked; if (scene) drawWave(); };
    $("view-overlord").onclick = () => setView("overlord");
    $("view-heroes").onclick = () => setView("heroes");
    $("diag-list").addEventListener("click", (evt) => {
      const li = evt.target.closest("li");
      if (li) selectDiagnostic(Number(li.dataset.index));
    });
    $("diag-list").addEventListener("keydown", (evt) => {
      const li = evt.target.closest("li");
      if (!li) return;
      if (evt.key === "Enter" || evt.key === " ") { evt.preventDefault(); selectDiagnostic(Number(li.dataset.index)); }
      else if (evt.key === "ArrowDown" && li.nextElementSibling) { evt.preventDefault(); li.nextElementSibling.focus(); }
      else if (evt.key === "ArrowUp" && li.previousElementSibling) { evt.preventDefault(); li.previousElementSibling.focus(); }
    });
    wireSplitter();
    document.addEventListener("keydown", (evt) => {
      if (evt.target.tagName === "INPUT" || evt.defaultPrevented) return;
      if (evt.target.closest && (evt.target.closest("#map") || evt.target.closest("#diag-list") || evt.target.closest("#splitter"))) return;
      if (evt.key === "ArrowLeft") stepWave(-1);
      else if (evt.key === "ArrowRight") stepWave(1);
      else if (evt.key === "+" || evt.key === "=") zoom(1 / 1.3);
      else if (evt.key === "-") zoom(1.3);
      else if (evt.key === "0" && scene) fit();
      else if (evt.key === "Escape") { ui.selected = null; if (scene) drawSight(); }
    });
  }

  function selectSquare(i) {
    ui.selected = ui.selected === i ? null : i;
    ui.selectedKey = ui.selected === null ? null : scene.cells[i][0] + "," + scene.cells[i][1];
    drawSight();
    if (ui.selected !== null && !hidden(i)) showSource({ cell: scene.cells[i].slice(0, 2), focus: false });
  }

  function activatePin(pin) {
    const ks = pin.dataset.diags.split(",").map(Number);
    selectDiagnostic(ks[(ks.indexOf(ui.diag) + 1) % ks.length], true);
  }

  // The keyboard on the map: arrows move a square-sized focus, Enter or Space selects it (sight),
  // g goes to its source in the editor, Tab reaches the doors and pins (Enter works them).
  function mapKey(evt) {
    if (!scene) return;
    const target = evt.target;
    if (target.classList && target.classList.contains("pv-door") && (evt.key === "Enter" || evt.key === " ")) {
      evt.preventDefault(); toggleDoor(target.dataset.door); showSource({ door: target.dataset.door, focus: false }); return;
    }
    const pin = target.closest && target.closest(".pv-pin");
    if (pin && (evt.key === "Enter" || evt.key === " ")) { evt.preventDefault(); activatePin(pin); return; }
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[evt.key]) {
      evt.preventDefault();
      if (ui.focus === null) ui.focus = ui.selected !== null ? ui.selected : 0;
      else {
        const [x, y] = scene.cells[ui.focus], [dx, dy] = moves[evt.key];
        // The next floor square that way (skipping gaps between pieces).
        for (let step = 1; step < 200; step++) {
          const j = scene.index.get((x + dx * step) + "," + (y + dy * step));
          if (j !== undefined) { ui.focus = j; break; }
        }
      }
      drawFocus(); showHover(ui.focus); bringIntoView([ui.focus]);
    } else if ((evt.key === "Enter" || evt.key === " ") && ui.focus !== null) {
      evt.preventDefault(); selectSquare(ui.focus);
    } else if (evt.key === "g" && ui.focus !== null && !hidden(ui.focus)) {
      showSource({ cell: scene.cells[ui.focus].slice(0, 2), focus: true });
    }
  }

  function drawFocus() {
    if (!layers.focus) return;
    clear(layers.focus);
    if (ui.focus === null || !scene.cells[ui.focus]) return;
    cellRect(ui.focus, "pv-focus", layers.focus, { "data-cell": scene.cells[ui.focus][0] + "," + scene.cells[ui.focus][1] });
    $("map").setAttribute("aria-activedescendant", "");
    $("map").setAttribute("aria-label", "map; square " + scene.cells[ui.focus][0] + "," + scene.cells[ui.focus][1]);
  }

  // The side panel's width: drag the bar between map and panel, or focus it and use the arrows.
  function wireSplitter() {
    const bar = $("splitter"), side = $("side");
    if (!bar) return;
    const set = (w) => {
      const max = Math.max(240, window.innerWidth - 200);
      w = Math.min(Math.max(w, 220), max);
      side.style.width = w + "px";
      bar.setAttribute("aria-valuenow", String(Math.round(w)));
      try { localStorage.setItem("questc-preview-side", String(Math.round(w))); } catch (e) { /* private mode */ }
    };
    try { const saved = Number(localStorage.getItem("questc-preview-side")); if (saved) set(saved); } catch (e) { /* none */ }
    let dragging = null;
    bar.addEventListener("pointerdown", (evt) => { dragging = { x: evt.clientX, w: side.offsetWidth }; bar.setPointerCapture(evt.pointerId); });
    bar.addEventListener("pointermove", (evt) => { if (dragging) set(dragging.w - (evt.clientX - dragging.x)); });
    bar.addEventListener("pointerup", () => { dragging = null; if (scene) fit(); });
    bar.addEventListener("keydown", (evt) => {
      if (evt.key === "ArrowLeft") { evt.preventDefault(); set(side.offsetWidth + 20); }
      else if (evt.key === "ArrowRight") { evt.preventDefault(); set(side.offsetWidth - 20); }
    });
  }

  function toggleDoor(id) {
    if (ui.open.has(id)) ui.open.delete(id); else ui.open.add(id);
    drawSight();
  }

  function stepWave(delta) {
    if (!scene || ui.wave === null) return;
    ui.wave = Math.min(Math.max(ui.wave + delta, 0), scene.waves.length - 1);
    drawWave();
    if (ui.view === "heroes") { drawSight(); drawCursor(); }
    if (ui.hover !== null) showHover(ui.hover);
  }

  function setView(view) {
    ui.view = view;
    $("view-overlord").classList.toggle("on", view === "overlord");
    $("view-heroes").classList.toggle("on", view === "heroes");
    $("view-overlord").setAttribute("aria-pressed", view === "overlord");
    $("view-heroes").setAttribute("aria-pressed", view === "heroes");
    if (scene) { drawWave(); drawSight(); drawCursor(); if (ui.hover !== null) showHover(ui.hover); }
  }

  function onEvent(type, data) {
    if (type === "state") {
      const version = JSON.parse(data).version;
      if (!state || version !== state.version) refresh();
    } else if (type === "cursor") {
      const cursor = JSON.parse(data);
      ui.cursor = cursor.scene_version === sceneVersion ? cursor.cells : [];
      ui.cursorOff = cursor.scene_version === sceneVersion ? (cursor.off_map || []) : [];
      if (scene) drawCursor();
    } else if (type === "open") {
      if (state) refresh();
    } else if (type === "error") setOffline("the preview server is not answering");
  }

  function listen() {
    if (offline) return;
    if (window.SharedWorker) {
      // One event stream for the whole browser: every tab of the page shares the worker's.
      try {
        const worker = new SharedWorker("/events-worker.js", { name: "questc-preview" });
        worker.port.onmessage = (msg) => onEvent(msg.data.type, msg.data.data);
        worker.port.start();
        window.addEventListener("pagehide", () => worker.port.postMessage("close"));
        return;
      } catch (e) { /* fall through to polling */ }
    }
    // No shared worker: ask now and then, holding no connection (six tabs of EventSource froze them all).
    let since = -1;
    const poll = async () => {
      try {
        const reply = await fetch("/api/state", { cache: "no-store" });
        if (reply.ok) { const next = await reply.json(); if (next.version !== since) { since = next.version; apply(next); } }
      } catch (e) { setOffline(String(e)); }
      setTimeout(poll, 1000);
    };
    setTimeout(poll, 1000);
  }

  wire();
  if (offline) {
    apply(offline.state);
    if (!offline.sight.exact) {
      for (const rect of layers.doors ? layers.doors.children : []) rect.style.display = "none";
    }
  } else {
    refresh();
    listen();
  }
  // For tests and the benchmark: what the page holds, and a way to forget the sight it has cached.
  window.questcPreview = { ui, get scene() { return scene; }, get state() { return state; },
    forgetSight() { sightCache.clear(); }, onEvent };
})();
