/// The live view's page: HTML, CSS, JavaScript and SVG in one document, nothing from
/// outside (the server's Content-Security-Policy forbids it).
///
/// It reads `/events` with `EventSource`; every event is one JSON object of the client
/// protocol (HEADING with pitch, roll and expectedField; EVENT; STEER; POSITION; COVERAGE;
/// DEVICES), and it draws the latest state once per animation frame. Elements the browser
/// test reads carry ids and `data-` attributes (`#card` holds the heading it shows).
public enum LiveViewPage {
    public static let html = #"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lodestone — live</title>
<style>
:root { --bg:#11161c; --panel:#1a212a; --line:#2c3642; --text:#e6edf3; --dim:#8b98a5; --accent:#f0b429;
        --true:#4fc3f7; --mag:#ef5350; --ok:#66bb6a; --warn:#ffa726; --bad:#ef5350; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--text); font:14px/1.4 system-ui, sans-serif; }
header { display:flex; align-items:center; gap:1em; padding:.6em 1em; border-bottom:1px solid var(--line); }
header h1 { font-size:1.1em; margin:0; font-weight:600; }
#connection { font-size:.85em; padding:.1em .6em; border-radius:1em; background:var(--line); }
#connection.live { background:#1b5e20; } #connection.lost { background:#7f1d1d; }
#source { color:var(--dim); font-size:.85em; }
main { display:grid; gap:10px; padding:10px; grid-template-columns: minmax(300px, 400px) minmax(260px, 1fr) minmax(260px, 1fr);
       grid-template-areas: "compass attitude events" "compass field events" "compass position coverage" "plot plot plot"; }
section { background:var(--panel); border:1px solid var(--line); border-radius:8px; padding:10px; }
h2 { font-size:.8em; text-transform:uppercase; letter-spacing:.08em; color:var(--dim); margin:0 0 .5em; }
.big { font-size:2.2em; font-variant-numeric:tabular-nums; font-weight:600; }
.num { font-variant-numeric:tabular-nums; }
.row { display:flex; justify-content:space-between; gap:1em; }
.dim { color:var(--dim); }
#compass-panel { grid-area: compass; } #attitude-panel { grid-area: attitude; } #field-panel { grid-area: field; }
#events-panel { grid-area: events; } #position-panel { grid-area: position; } #coverage-panel { grid-area: coverage; }
#plot-panel { grid-area: plot; }
svg text { font-family: system-ui, sans-serif; }
#events { list-style:none; margin:.4em 0 0; padding:0; max-height:320px; overflow:auto; font-size:.85em; }
#events li { padding:.25em .4em; border-left:3px solid var(--line); margin-bottom:3px; }
#events li.warn { border-color:var(--warn); } #events li.bad { border-color:var(--bad); } #events li.good { border-color:var(--ok); }
.badge { display:inline-block; padding:.05em .5em; border-radius:1em; font-size:.8em; margin-right:.3em; background:var(--line); }
.badge.on { background:var(--warn); color:#000; }
#coverage-panel[hidden], #steer[hidden] { display:none; }
@media (max-width: 900px) { main { grid-template-columns: 1fr; grid-template-areas: "compass" "attitude" "field" "plot" "events" "position" "coverage"; } }
</style>
</head>
<body>
<header><h1>Lodestone — live</h1><span id="connection">connecting…</span><span id="source"></span></header>
<main>
<section id="compass-panel">
  <h2>Heading</h2>
  <svg id="rose" viewBox="-200 -200 400 400" width="100%" role="img" aria-label="compass rose">
    <circle r="190" fill="#0d1117" stroke="var(--line)" stroke-width="2"/>
    <g id="card" data-heading="" data-north="" data-timestamp="" transform="rotate(0)">
      <g id="ticks"></g>
      <g id="mag-north" transform="rotate(0)" visibility="hidden">
        <path d="M0,-178 L-7,-160 L7,-160 Z" fill="var(--mag)"/><text y="-146" text-anchor="middle" font-size="11" fill="var(--mag)">MN</text>
      </g>
      <g id="steer-marker" transform="rotate(0)" visibility="hidden">
        <circle cy="-172" r="7" fill="none" stroke="var(--accent)" stroke-width="3"/>
      </g>
    </g>
    <path id="accuracy-sector" d="" fill="var(--accent)" fill-opacity="0.22" stroke="var(--accent)" stroke-opacity="0.5"/>
    <path d="M0,-198 L-9,-178 L9,-178 Z" fill="var(--accent)"/>
    <line x1="0" y1="-170" x2="0" y2="-40" stroke="var(--accent)" stroke-width="2" stroke-opacity="0.6"/>
    <text id="rose-heading" y="10" text-anchor="middle" font-size="40" fill="var(--text)">—</text>
    <text id="rose-north" y="36" text-anchor="middle" font-size="13" fill="var(--dim)"></text>
  </svg>
  <div class="row"><div><div class="dim">True</div><div id="true-heading" class="big" style="color:var(--true)">—</div></div>
    <div><div class="dim">Magnetic</div><div id="magnetic-heading" class="big" style="color:var(--mag)">—</div></div></div>
  <div class="row num"><span>accuracy <b id="accuracy">—</b></span><span>declination <b id="declination">—</b></span></div>
  <div id="true-reason" class="dim"></div>
</section>
<section id="attitude-panel">
  <h2>Pitch and roll</h2>
  <div class="row" style="justify-content:flex-start; align-items:center">
    <svg id="horizon" viewBox="-60 -60 120 120" width="120" height="120" aria-label="attitude">
      <defs><clipPath id="hclip"><circle r="56"/></clipPath></defs>
      <g clip-path="url(#hclip)"><g id="horizon-body" transform="rotate(0) translate(0,0)">
        <rect x="-200" y="-400" width="400" height="400" fill="#1e5a8a"/><rect x="-200" y="0" width="400" height="400" fill="#6b4a2b"/>
        <line x1="-200" y1="0" x2="200" y2="0" stroke="#fff" stroke-width="1.5"/>
        <line x1="-15" y1="-20" x2="15" y2="-20" stroke="#fff" stroke-width=".8"/><line x1="-15" y1="20" x2="15" y2="20" stroke="#fff" stroke-width=".8"/>
      </g></g>
      <circle r="56" fill="none" stroke="var(--line)" stroke-width="3"/>
      <path d="M-30,0 L-10,0 L0,8 L10,0 L30,0" fill="none" stroke="var(--accent)" stroke-width="3"/>
    </svg>
    <div class="num"><div>pitch <b id="pitch">—</b> <span id="pitch-word" class="dim"></span></div>
      <div>roll <b id="roll">—</b> <span id="roll-word" class="dim"></span></div></div>
  </div>
</section>
<section id="field-panel">
  <h2>Magnetic field</h2>
  <svg id="field" viewBox="0 0 300 30" width="100%" height="30" preserveAspectRatio="none" aria-label="field strength">
    <rect x="0" y="8" width="300" height="14" rx="3" fill="#0d1117" stroke="var(--line)"/>
    <rect id="field-band" x="0" y="8" width="0" height="14" fill="var(--ok)" fill-opacity="0.25"/>
    <rect id="field-bar" x="0" y="11" width="0" height="8" fill="var(--true)"/>
    <line id="field-ref" x1="0" y1="2" x2="0" y2="28" stroke="var(--accent)" stroke-width="2" visibility="hidden"/>
  </svg>
  <div class="row dim" style="font-size:.8em"><span>0</span><span id="field-max"></span></div>
  <div class="num">measured <b id="field-strength">—</b> µT · expected <b id="field-reference">—</b> µT</div>
</section>
<section id="plot-panel">
  <h2>Last two minutes</h2>
  <svg id="plot" viewBox="0 0 720 200" width="100%" height="180" preserveAspectRatio="none" aria-label="heading and accuracy">
    <g id="plot-grid"></g>
    <g id="plot-band"></g>
    <g id="plot-line"></g>
  </svg>
  <div class="dim">heading (line, 0° at the bottom, 90° 180° 270° at the grid lines, 360° at the top) and its accuracy (band), over the last 120 s</div>
</section>
<section id="events-panel">
  <h2>Events</h2>
  <div id="conditions"><span id="cond-disturbance" class="badge">field normal</span><span id="cond-calibration" class="badge">calibration ok</span></div>
  <ul id="events"></ul>
</section>
<section id="position-panel">
  <h2>Position and steering</h2>
  <div id="position" class="num dim">no position</div>
  <div id="steer" hidden class="num"></div>
</section>
<section id="coverage-panel" hidden>
  <h2>Calibration coverage</h2>
  <div class="row"><svg id="coverage-up" viewBox="-52 -52 104 104" width="45%" style="max-width:150px"></svg><svg id="coverage-down" viewBox="-52 -52 104 104" width="45%" style="max-width:150px"></svg></div>
  <div class="num">upper and lower half of the sphere of field directions · <b id="coverage-percent">—</b> covered</div>
</section>
</main>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
const fmt = (v, d = 1) => (v === null || v === undefined || !isFinite(v)) ? "—" : Number(v).toFixed(d);
const deg3 = (v) => (v === null || v === undefined) ? "—" : ("00" + Number(v).toFixed(1)).slice(-5) + "°";
const state = { heading: null, steer: null, position: null, coverage: null, history: [], dirty: true,
                disturbance: false, calibration: false, trueReason: "" };
window.lodestone = state;

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

(function drawTicks() {
  const g = $("ticks");
  for (let a = 0; a < 360; a += 5) {
    const long = a % 30 === 0, mid = a % 10 === 0;
    el("line", { x1: 0, y1: -188, x2: 0, y2: long ? -166 : mid ? -174 : -180, stroke: "#8b98a5",
                 "stroke-width": long ? 2 : 1, transform: `rotate(${a})` }, g);
  }
  const names = { 0: "N", 90: "E", 180: "S", 270: "W" };
  for (let a = 0; a < 360; a += 30) {
    const t = el("text", { y: -146, "text-anchor": "middle", "font-size": names[a] ? 22 : 13,
                           fill: a === 0 ? "#ef5350" : "#e6edf3", transform: `rotate(${a})` }, g);
    t.textContent = names[a] || String(a);
  }
  const grid = $("plot-grid");
  for (const h of [0, 90, 180, 270, 360]) {
    el("line", { x1: 0, x2: 720, y1: 200 - h / 360 * 200, y2: 200 - h / 360 * 200, stroke: "#2c3642" }, grid);
  }
})();

function sector(halfWidth) {
  if (!(halfWidth > 0)) return "";
  const w = Math.min(halfWidth, 179.9) * Math.PI / 180, r = 165;
  const x = r * Math.sin(w), y = -r * Math.cos(w);
  return `M0,0 L${-x},${y} A${r},${r} 0 ${w > Math.PI / 2 ? 1 : 0} 1 ${x},${y} Z`;
}

function onHeading(h) {
  state.heading = h;
  if (typeof h.timestamp === "number") {
    state.history.push({ t: h.timestamp, heading: h.trueHeading ?? h.magneticHeading, accuracy: h.headingAccuracy });
    const cut = h.timestamp - 120;
    while (state.history.length && state.history[0].t < cut) state.history.shift();
  }
}

function onEvent(e) {
  const li = document.createElement("li");
  const time = e.time ? e.time.slice(11, 19) : "";
  const kind = e.event;
  const lasting = kind === "magneticDisturbance" || kind === "headingUnavailable";
  if ((lasting && e.state !== "end") || kind === "calibrationNeeded" || kind === "sourceFault") li.className = "warn";
  else if (kind === "trueHeadingUnavailable" || kind === "sourceFailed" || kind === "linesDropped") li.className = "bad";
  else if (kind === "trueHeadingAvailable" || (lasting && e.state === "end") || kind === "calibrationUpdated") li.className = "good";
  li.dataset.event = kind;
  li.textContent = `${time} ${kind}${e.state ? " (" + e.state + ")" : ""} · ${e.reason || ""}${e.detail ? " — " + e.detail : ""}`;
  const list = $("events");
  list.insertBefore(li, list.firstChild);
  while (list.children.length > 40) list.removeChild(list.lastChild);
  if (kind === "magneticDisturbance") state.disturbance = e.state !== "end";
  if (kind === "calibrationNeeded") state.calibration = true;
  if (kind === "calibrationUpdated" && e.reason === "hardIronTracking") state.calibration = false;
  if (kind === "trueHeadingUnavailable") state.trueReason = e.detail || e.reason || "";
  if (kind === "trueHeadingAvailable") state.trueReason = "";
  if (kind === "steerStopped") state.steer = null;
  state.dirty = true;
}

function handle(o) {
  switch (o.class) {
    case "HEADING": onHeading(o); break;
    case "EVENT": onEvent(o); break;
    case "STEER": state.steer = o; break;
    case "POSITION": state.position = o; break;
    case "COVERAGE": state.coverage = o; break;
    case "DEVICES": $("source").textContent = (o.devices || []).map(d => d.name || d.kind).join(" + "); break;
  }
  state.dirty = true;
}

function renderCompass(h) {
  const card = $("card");
  const valid = h && h.headingAccuracy >= 0;
  const trueKnown = valid && h.trueHeading !== null && h.trueHeading !== undefined;
  const shown = !valid ? null : trueKnown ? h.trueHeading : h.magneticHeading;
  if (shown !== null) card.setAttribute("transform", `rotate(${(-shown).toFixed(2)})`);
  card.dataset.heading = shown === null ? "" : shown.toFixed(3);
  card.dataset.north = !valid ? "" : trueKnown ? "true" : "magnetic";
  card.dataset.timestamp = h && typeof h.timestamp === "number" ? String(h.timestamp) : "";
  card.dataset.accuracy = valid ? String(h.headingAccuracy) : "";
  $("rose-heading").textContent = shown === null ? "—" : deg3(shown);
  $("rose-north").textContent = !valid ? "heading not valid" : trueKnown ? "from true north" : "from magnetic north";
  const mag = $("mag-north");
  if (trueKnown && typeof h.declination === "number") {
    mag.setAttribute("transform", `rotate(${h.declination.toFixed(2)})`);
    mag.setAttribute("visibility", "visible");
  } else mag.setAttribute("visibility", "hidden");
  $("accuracy-sector").setAttribute("d", valid ? sector(h.headingAccuracy) : "");
  $("true-heading").textContent = trueKnown ? deg3(h.trueHeading) : "—";
  $("magnetic-heading").textContent = valid ? deg3(h.magneticHeading) : "—";
  $("accuracy").textContent = valid ? "±" + fmt(h.headingAccuracy) + "°" : "invalid";
  $("declination").textContent = typeof h?.declination === "number" ? fmt(h.declination) + "°" : "—";
  $("true-reason").textContent = trueKnown ? "" : (state.trueReason ? "true heading: " + state.trueReason : "true heading needs a position");
}

function renderAttitude(h) {
  const pitch = h && typeof h.pitch === "number" ? h.pitch : null, roll = h && typeof h.roll === "number" ? h.roll : null;
  $("pitch").textContent = pitch === null ? "—" : (pitch >= 0 ? "+" : "") + fmt(pitch) + "°";
  $("roll").textContent = roll === null ? "—" : (roll >= 0 ? "+" : "") + fmt(roll) + "°";
  $("pitch-word").textContent = pitch === null ? "" : pitch > 0.5 ? "bow up" : pitch < -0.5 ? "bow down" : "level";
  $("roll-word").textContent = roll === null ? "" : roll > 0.5 ? "starboard down" : roll < -0.5 ? "port down" : "level";
  $("horizon-body").setAttribute("transform", `rotate(${(-(roll || 0)).toFixed(1)}) translate(0,${((pitch || 0) * 1.0).toFixed(1)})`);
}

function renderField(h) {
  if (!h || typeof h.x !== "number") return;
  const b = Math.hypot(h.x, h.y, h.z), ref = typeof h.expectedField === "number" ? h.expectedField : null;
  const max = Math.max(100, (ref || b) * 2);
  $("field-bar").setAttribute("width", (Math.min(b, max) / max * 300).toFixed(1));
  $("field-max").textContent = Math.round(max) + " µT";
  $("field-strength").textContent = fmt(b);
  $("field-reference").textContent = ref === null ? "—" : fmt(ref);
  const mark = $("field-ref"), band = $("field-band");
  if (ref !== null) {
    const x = ref / max * 300;
    mark.setAttribute("x1", x.toFixed(1)); mark.setAttribute("x2", x.toFixed(1)); mark.setAttribute("visibility", "visible");
    band.setAttribute("x", (x * 0.85).toFixed(1)); band.setAttribute("width", (x * 0.3).toFixed(1));
    $("field-bar").setAttribute("fill", Math.abs(b - ref) > 0.15 * ref ? "var(--warn)" : "var(--true)");
  }
}

function renderPlot() {
  const hist = state.history, line = $("plot-line"), band = $("plot-band");
  line.replaceChildren(); band.replaceChildren();
  if (!hist.length) return;
  const end = hist[hist.length - 1].t, x = (t) => 720 - (end - t) / 120 * 720, y = (v) => 200 - v / 360 * 200;
  let points = [], upper = [], lower = [], last = null;
  const flush = () => {
    if (points.length > 1) el("polyline", { points: points.join(" "), fill: "none", stroke: "#4fc3f7", "stroke-width": 1.5 }, line);
    if (upper.length > 1) el("polygon", { points: upper.concat(lower.reverse()).join(" "), fill: "#f0b429", "fill-opacity": 0.18 }, band);
    points = []; upper = []; lower = [];
  };
  for (const p of hist) {
    if (p.heading === null || p.heading === undefined || !(p.accuracy >= 0)) { flush(); last = null; continue; }
    if (last !== null && Math.abs(p.heading - last) > 180) flush();
    const px = x(p.t).toFixed(1);
    points.push(px + "," + y(p.heading).toFixed(1));
    upper.push(px + "," + y(Math.min(360, p.heading + p.accuracy)).toFixed(1));
    lower.push(px + "," + y(Math.max(0, p.heading - p.accuracy)).toFixed(1));
    last = p.heading;
  }
  flush();
}

function renderPositionAndSteer() {
  const p = state.position;
  $("position").textContent = p ? `${fmt(p.lat, 6)}, ${fmt(p.lon, 6)} (${p.source})` + (typeof p.speed === "number" ? ` · ${fmt(p.speed, 2)} m/s` : "") : "no position";
  const s = state.steer, box = $("steer"), marker = $("steer-marker");
  if (!s) { box.hidden = true; marker.setAttribute("visibility", "hidden"); return; }
  box.hidden = false;
  const turn = s.arrived ? "arrived" : (s.turn || "—");
  box.innerHTML = "";
  box.append(`to ${fmt(s.lat, 5)}, ${fmt(s.lon, 5)}: bearing ${deg3(s.bearing)}, ${fmt(s.distance, 0)} m, `);
  const b = document.createElement("b"); b.id = "steer-turn"; b.textContent = turn; box.append(b);
  if (typeof s.eta === "number") box.append(`, eta ${fmt(s.eta, 0)} s`);
  if (typeof s.bearing === "number" && state.heading && state.heading.trueHeading !== null && state.heading.trueHeading !== undefined) {
    marker.setAttribute("transform", `rotate(${s.bearing.toFixed(1)})`); marker.setAttribute("visibility", "visible");
  } else marker.setAttribute("visibility", "hidden");
}

const BANDS = [1, 6, 11, 15, 17, 17, 15, 11, 6, 1];
function renderCoverage() {
  const c = state.coverage;
  if (!c || !Array.isArray(c.regions)) return;
  $("coverage-panel").hidden = false;
  $("coverage-percent").textContent = fmt(c.percent, 0) + "%";
  const up = $("coverage-up"), down = $("coverage-down");
  up.replaceChildren(); down.replaceChildren();
  let z = 1, index = 0;
  for (const k of BANDS) {
    const zLow = Math.max(-1, z - 0.02 * k);
    for (let i = 0; i < k; i++, index++) {
      const filled = (c.regions[index] || 0) > 0;
      for (const [svg, lo, hi] of [[up, Math.max(zLow, 0), z], [down, zLow, Math.min(z, 0)]]) {
        if (hi <= lo) continue;
        const r1 = 50 * Math.sqrt(1 - Math.max(Math.abs(lo), Math.abs(hi)) ** 2), r2 = 50 * Math.sqrt(1 - Math.min(Math.abs(lo), Math.abs(hi)) ** 2);
        const a1 = i / k * 2 * Math.PI, a2 = (i + 1) / k * 2 * Math.PI;
        const p = (r, a) => `${(r * Math.cos(a)).toFixed(2)},${(-r * Math.sin(a)).toFixed(2)}`;
        const d = k === 1 ? `M${r2},0 A${r2},${r2} 0 1 0 ${-r2},0 A${r2},${r2} 0 1 0 ${r2},0 Z`
          : `M${p(r1, a1)} L${p(r2, a1)} A${r2},${r2} 0 0 0 ${p(r2, a2)} L${p(r1, a2)} A${r1},${r1} 0 0 1 ${p(r1, a1)} Z`;
        el("path", { d, fill: filled ? "#66bb6a" : "#2c3642", stroke: "#11161c", "stroke-width": 0.6 }, svg);
      }
    }
    z = zLow;
  }
}

function render() {
  if (state.dirty) {
    state.dirty = false;
    const h = state.heading;
    if (h) { renderCompass(h); renderAttitude(h); renderField(h); }
    renderPlot();
    renderPositionAndSteer();
    renderCoverage();
    const dist = $("cond-disturbance"), cal = $("cond-calibration");
    dist.textContent = state.disturbance ? "magnetic disturbance" : "field normal"; dist.classList.toggle("on", state.disturbance);
    cal.textContent = state.calibration ? "calibration needed" : "calibration ok"; cal.classList.toggle("on", state.calibration);
  }
  requestAnimationFrame(render);
}
requestAnimationFrame(render);

const source = new EventSource("events");
source.onopen = () => { const c = $("connection"); c.textContent = "live"; c.className = "live"; };
source.onerror = () => { const c = $("connection"); c.textContent = "reconnecting…"; c.className = "lost"; };
source.onmessage = (m) => { try { handle(JSON.parse(m.data)); } catch (err) { console.error("bad event", err, m.data); } };
</script>
</body>
</html>
"""#
}
