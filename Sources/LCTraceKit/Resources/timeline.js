(() => {
"use strict";

// Everything from the log reaches the document as text: textContent, createTextNode and setAttribute only.

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------------------------------
// Errors: a banner with the error's text instead of a blank page.

function showError(error) {
  const banner = $("page-error");
  if (!banner) return;
  let text = "";
  if (error && typeof error === "object") {
    text = String(error.message || error);
    if (error.stack && String(error.stack).indexOf(text) >= 0) text = String(error.stack);
  } else {
    text = String(error);
  }
  const line = "The page could not draw everything: " + text;
  banner.textContent = banner.hidden || !banner.textContent ? line : banner.textContent + "\n" + line;
  banner.hidden = false;
}

function guarded(fn) {
  return function (...args) {
    try {
      return fn.apply(this, args);
    } catch (error) {
      showError(error);
      return undefined;
    }
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Small helpers.

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function sv(tag, attrs, parent) {
  const node = document.createElementNS(SVGNS, tag);
  if (attrs) for (const key in attrs) node.setAttribute(key, attrs[key]);
  if (parent) parent.appendChild(node);
  return node;
}

function num(n) {
  const v = Number(n || 0);
  if (Number.isInteger(v) && v > -1000 && v < 1000) return String(v);
  if (!Number.isInteger(v)) return String(v);
  // Thousands separators without toLocaleString, which is slow when called for every option of a long picker.
  const s = String(Math.abs(v));
  let out = "";
  for (let i = s.length; i > 0; i -= 3) out = s.slice(Math.max(0, i - 3), i) + (out ? "," + out : "");
  return (v < 0 ? "-" : "") + out;
}

function plural(n, one, many) {
  return num(n) + " " + (n === 1 ? one : (many || one + "s"));
}

function bytes(n) {
  const units = [["GiB", 1 << 30], ["MiB", 1 << 20], ["KiB", 1 << 10]];
  for (const [unit, size] of units) {
    if (n >= size) {
      const v = n / size;
      return (Number.isInteger(v) ? String(v) : v.toFixed(1)) + " " + unit;
    }
  }
  return num(n) + " bytes";
}

function trimNumber(v, decimals) {
  let s = v.toFixed(Math.max(0, decimals));
  if (s.indexOf(".") >= 0) s = s.replace(/0+$/, "").replace(/\.$/, "");
  return s;
}

function isNum(v) {
  return typeof v === "number" && isFinite(v);
}

// Durations and offsets, in the session's clock: microseconds, or lines when the log has no timestamps.
function fmtDuration(ticks, clock) {
  if (clock === "lines") return plural(ticks, "line");
  const us = Math.abs(ticks);
  if (us < 1000) return trimNumber(us, 0) + " µs";
  if (us < 1e6) {
    const ms = us / 1000;
    return trimNumber(ms, ms < 10 ? 2 : ms < 100 ? 1 : 0) + " ms";
  }
  return trimNumber(us / 1e6, 3) + " s";
}

function fmtOffset(ticks, clock) {
  if (clock === "lines") return "line +" + num(ticks);
  return "+" + fmtDuration(ticks, clock);
}

function lineRange(a, b) {
  if (!isNum(a)) return "";
  if (!isNum(b) || a === b) return "line " + num(a);
  return "lines " + num(a) + "–" + num(b);
}

// Wall-clock times from the session's start time ("2016-03-17 16:02:37.277"), when it has one.
function wallClock(startTime) {
  if (typeof startTime !== "string") return null;
  const m = /(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?/.exec(startTime);
  if (!m) return null;
  const base = (+m[1]) * 3600 + (+m[2]) * 60 + (+m[3]) + (m[4] ? Number("0." + m[4]) : 0);
  return (ticks) => {
    let t = base + ticks / 1e6;
    t = ((t % 86400) + 86400) % 86400;
    const h = Math.floor(t / 3600), mi = Math.floor((t % 3600) / 60), s = t % 60;
    const pad = (v, w) => String(v).padStart(w, "0");
    const sInt = Math.floor(s), msPart = Math.floor((s - sInt) * 1000 + 1e-6);
    return pad(h, 2) + ":" + pad(mi, 2) + ":" + pad(sInt, 2) + "." + pad(Math.min(999, msPart), 3);
  };
}

const SEVERITIES = ["error", "warning", "info"];
const SEVERITY_LABEL = { error: "error", warning: "warning", info: "info" };

const CONTROLLER_STATES = ["appearing", "visible", "disappearing"];
const PHASES = ["launching", "launched", "entering-foreground", "active", "inactive", "background", "terminated", "disconnected"];
const KNOWN_STATES = new Set(CONTROLLER_STATES.concat(PHASES));
const LIGHT_TEXT_STATES = new Set(["terminated"]);
const FALLBACK_COLORS = ["#9ca3af", "#a3b18a", "#d4a5a5", "#8fb8de", "#c9b27c", "#b39ddb"];

function stateClass(name) {
  return KNOWN_STATES.has(name) ? "st-" + name : null;
}

function fallbackColor(name) {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) | 0;
  return FALLBACK_COLORS[Math.abs(h) % FALLBACK_COLORS.length];
}

function transitionClass(kind) {
  switch (kind) {
    case "push": return "tk-push";
    case "pop": case "pop-to-root": return "tk-pop";
    case "present": case "sheet-present": return "tk-present";
    case "dismiss": case "sheet-dismiss": return "tk-dismiss";
    default: return "tk-other";
  }
}

function dashedTransition(kind) {
  return /cancelled$/.test(kind) || kind === "unrecognized" || kind === "incomplete";
}

// ---------------------------------------------------------------------------------------------------------------
// State.

const state = {
  run: null,
  sessions: [],
  byIndex: new Map(),
  filtered: [],
  current: null,
  data: null,
  cache: new Map(),
  rows: [],
  view: { v0: 0, v1: 1 },
  domain: { d0: 0, d1: 1 },
  lanes: [],
  laneByTrack: new Map(),
  highlight: null,
  drawQueued: false,
  ignoreHash: null,
  plot: null,
  axis: null,
  body: null,
  hoverLane: null,
  cursorX: null,
};

// ---------------------------------------------------------------------------------------------------------------
// Header, notices, footer.

function renderHeader(run) {
  $("run-version").textContent = run.version ? "lctrace " + run.version : "";
  const inputs = $("run-inputs");
  const names = Array.isArray(run.inputs) ? run.inputs : [];
  const shown = names.slice(0, 8);
  for (const name of shown) {
    const chip = el("span", "input-name", name);
    chip.title = String(name);
    inputs.appendChild(chip);
  }
  if (names.length > shown.length) {
    const more = el("span", "muted", "and " + plural(names.length - shown.length, "more input"));
    more.title = names.slice(shown.length).join("\n");
    inputs.appendChild(more);
  }
  const s = run.summary || {};
  const list = $("run-summary");
  const item = (n, one, many, cls) => {
    const li = el("li", cls || "");
    const b = el("b", "", num(n));
    li.appendChild(b);
    li.appendChild(document.createTextNode(" " + (n === 1 ? one : many)));
    list.appendChild(li);
    return li;
  };
  item(s.sessions, "session", "sessions");
  item(s.lines, "line", "lines");
  if (isNum(s.events)) item(s.events, "event", "events");
  item(s.errors, "error", "errors", "sev-error" + (s.errors ? "" : " zero"));
  item(s.warnings, "warning", "warnings", "sev-warning" + (s.warnings ? "" : " zero"));
  item(s.infos, "info", "info", "sev-info" + (s.infos ? "" : " zero"));
  const footer = $("page-footer");
  footer.textContent = "Written by lctrace" + (run.version ? " " + run.version : "") +
    " · a self-contained page: everything it shows is in the file, nothing is loaded from the network";
}

function capsText(run) {
  const limits = run.limits || {};
  const parts = [];
  if (limits.sessionsNotEmbedded > 0) {
    parts.push("This page embeds the timelines of the first " + plural(limits.embeddedSessions || 0, "session") +
      " (at most " + bytes(limits.embedBytesLimit || 0) + "); " + plural(limits.sessionsNotEmbedded, "later session") +
      (limits.sessionsNotEmbedded === 1 ? " is" : " are") + " listed only. Run lctrace with --session to draw " +
      (limits.sessionsNotEmbedded === 1 ? "it." : "them."));
  }
  if (limits.sessionsNotListed > 0) {
    parts.push(plural(limits.sessionsNotListed, "more session") + (limits.sessionsNotListed === 1 ? " is" : " are") +
      " not listed on this page at all. Run lctrace with --session to draw " + (limits.sessionsNotListed === 1 ? "it." : "them."));
  }
  if (limits.findingsNotListed > 0) {
    parts.push(findingsCapText(limits));
  }
  return parts;
}

function findingsCapText(limits) {
  return "The findings table lists the first " + plural(limits.findingsListed || 0, "finding") + "; " +
    num(limits.findingsNotListed) + " more " + (limits.findingsNotListed === 1 ? "is" : "are") +
    " not listed (the text and JSON reports have them all).";
}

function renderNotices(run) {
  const notice = $("embed-notice");
  const parts = capsText(run);
  notice.replaceChildren();
  parts.forEach((text, i) => {
    if (i) notice.appendChild(document.createTextNode(" "));
    notice.appendChild(el("p", "", text));
  });
  notice.hidden = parts.length === 0;
  const limits = run.limits || {};
  const selection = $("selection-notice");
  if (limits.selection !== null && limits.selection !== undefined && String(limits.selection) !== "") {
    selection.replaceChildren(el("p", "", "This page holds only the sessions chosen with --session " + String(limits.selection) +
      "; the run's summary above counts every session."));
    selection.hidden = false;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Session picker.

function findingCount(s) {
  return (s.errors || 0) + (s.warnings || 0) + (s.infos || 0);
}

function severityCounts(s) {
  const parts = [];
  if (s.errors) parts.push(plural(s.errors, "error"));
  if (s.warnings) parts.push(plural(s.warnings, "warning"));
  if (s.infos) parts.push(plural(s.infos, "info", "info"));
  return parts;
}

function optionText(s) {
  let text = String(s.title || "session " + s.index) + " — " + plural(s.controllers || 0, "controller") + ", " +
    plural(s.transitions || 0, "transition");
  const sev = severityCounts(s);
  if (sev.length) text += " · " + sev.join(", ");
  if (s.embedded === false) text += " · not embedded";
  return text;
}

function fillPicker() {
  const picker = $("session-picker");
  const onlyFindings = $("only-findings").checked;
  state.filtered = onlyFindings ? state.sessions.filter((s) => findingCount(s) > 0) : state.sessions;
  const frag = document.createDocumentFragment();
  for (const s of state.filtered) {
    const option = document.createElement("option");
    option.value = String(s.index);
    option.textContent = optionText(s);
    frag.appendChild(option);
  }
  if (state.filtered.length === 0) {
    const option = document.createElement("option");
    option.value = "";
    option.disabled = true;
    option.textContent = state.sessions.length ? "No session has findings" : "No sessions in this run";
    frag.appendChild(option);
  }
  picker.replaceChildren(frag);
  syncPicker();
}

function positionOf(index) {
  const list = state.filtered;
  // Sessions are listed in index order: a binary search finds the position at once.
  let low = 0, high = list.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const v = list[mid].index;
    if (v === index) return mid;
    if (v < index) low = mid + 1; else high = mid - 1;
  }
  for (let i = 0; i < list.length; i++) if (list[i].index === index) return i;
  return -1;
}

function syncPicker() {
  const picker = $("session-picker");
  const current = state.current;
  const pos = current ? positionOf(current.index) : -1;
  if (pos >= 0) {
    picker.selectedIndex = pos;
  } else {
    // The shown session is not in the list (filtered out), or the list is empty and shows why.
    picker.selectedIndex = state.filtered.length ? -1 : 0;
  }
  picker.disabled = !state.filtered.length;
  $("session-goto").disabled = !state.sessions.length;
  $("only-findings").disabled = !state.sessions.length;
  $("session-prev").disabled = !state.filtered.length || (pos >= 0 ? pos === 0 : false);
  $("session-next").disabled = !state.filtered.length || (pos >= 0 ? pos === state.filtered.length - 1 : false);
  const count = $("picker-count");
  const onlyFindings = $("only-findings").checked;
  if (!state.sessions.length) {
    count.textContent = "";
  } else if (pos >= 0) {
    count.textContent = num(pos + 1) + " of " + num(state.filtered.length) + (onlyFindings ? " with findings" : "");
  } else {
    count.textContent = num(state.filtered.length) + (onlyFindings ? " with findings" : " sessions");
  }
}

function step(delta) {
  if (!state.filtered.length) return;
  let pos = state.current ? positionOf(state.current.index) : -1;
  if (pos < 0) {
    // The shown session is not in the filtered list: go to the nearest one in the direction asked.
    const cur = state.current ? state.current.index : 0;
    const list = state.filtered;
    if (delta > 0) pos = list.findIndex((s) => s.index > cur);
    else { for (let i = list.length - 1; i >= 0; i--) if (list[i].index < cur) { pos = i; break; } }
    if (pos < 0) return;
    pickSession(list[pos].index);
    return;
  }
  const next = pos + delta;
  if (next < 0 || next >= state.filtered.length) return;
  pickSession(state.filtered[next].index);
}

function setHash(index) {
  const hash = "#session-" + index;
  if (location.hash === hash) return;
  try {
    history.replaceState(null, "", hash);
  } catch (_) {
    state.ignoreHash = hash;
    location.hash = hash;
  }
}

function hashSession() {
  const m = /^#session-(\d+)$/.exec(location.hash || "");
  return m ? Number(m[1]) : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Session data: parsed only when the session is shown.

function loadSession(index) {
  if (state.cache.has(index)) return state.cache.get(index);
  const node = document.getElementById("lct-session-" + index);
  if (!node) return null;
  const data = JSON.parse(node.textContent);
  state.cache.set(index, data);
  if (state.cache.size > 24) state.cache.delete(state.cache.keys().next().value);
  return data;
}

function pickSession(index, options) {
  const opts = options || {};
  const entry = state.byIndex.get(index);
  if (!entry) return false;
  state.current = entry;
  state.highlight = null;
  if ($("only-findings").checked && positionOf(index) < 0) {
    // A session without findings was asked for (by its number, the address or the table): list them all again.
    $("only-findings").checked = false;
    fillPicker();
  }
  if (opts.updateHash !== false) setHash(index);
  syncPicker();
  renderSessionHead(entry);
  const block = $("timeline-block");
  const notice = $("session-notice");
  notice.hidden = true;
  notice.replaceChildren();
  state.data = null;
  let data = null;
  if (entry.embedded === false) {
    const limits = state.run.limits || {};
    notice.appendChild(el("p", "", "This session's timeline is not embedded in this page: the page embeds the timelines of the first " +
      plural(limits.embeddedSessions || 0, "session") + " (at most " + bytes(limits.embedBytesLimit || 0) + ")."));
    notice.appendChild(el("p", "", "Run lctrace with --session " + entry.index + " to draw it."));
    notice.hidden = false;
  } else {
    try {
      data = loadSession(index);
    } catch (error) {
      showError(error);
      data = null;
    }
    if (!data) {
      notice.appendChild(el("p", "", "This page holds no timeline for session " + index + "."));
      notice.hidden = false;
    }
  }
  state.data = data;
  block.hidden = !data;
  if (data) buildTimeline(data, entry);
  else clearTimeline();
  markCurrentRows();
  return true;
}

function renderSessionHead(entry) {
  $("session-title").textContent = String(entry.title || "session " + entry.index);
  const meta = $("session-meta");
  meta.replaceChildren();
  const add = (label, value, cls, mono) => {
    const span = el("span", cls || "");
    if (label) span.appendChild(document.createTextNode(label + " "));
    const v = el(mono ? "span" : "b", mono ? "mono" : "", value);
    span.appendChild(v);
    meta.appendChild(span);
    return span;
  };
  if (entry.input !== undefined && entry.input !== null) add("", String(entry.input), "", true);
  if (Array.isArray(entry.lines)) add("", lineRange(entry.lines[0], entry.lines[1]), "", false);
  if (entry.startTime) add("started", String(entry.startTime), "", false);
  add("", entry.clock === "lines" ? "no timestamps: positions are log lines" : "times from the log's timestamps", "", false);
  add("", plural(entry.controllers || 0, "controller"), "", false);
  add("", plural(entry.transitions || 0, "transition"), "", false);
  for (const sev of SEVERITIES) {
    const key = sev === "info" ? "infos" : sev + "s";
    const n = entry[key] || 0;
    if (n) add("", plural(n, SEVERITY_LABEL[sev], sev === "info" ? "info" : undefined), "sev-" + sev, false);
  }
  if (!findingCount(entry)) add("", "no findings", "", false);
}

// ---------------------------------------------------------------------------------------------------------------
// Timeline: lanes (HTML rows with their labels), one SVG over the plot column, an axis on top.

const LANE_HEIGHT = { app: 34, scene: 34, controller: 40, transitions: 28 };

function clearTimeline() {
  const tl = $("timeline");
  tl.replaceChildren();
  state.lanes = [];
  state.laneByTrack = new Map();
  state.plot = null;
  state.axis = null;
  $("legend").replaceChildren();
  $("not-drawn").hidden = true;
  hideTip();
}

function buildTimeline(data, entry) {
  clearTimeline();
  const tl = $("timeline");
  const tracks = Array.isArray(data.tracks) ? data.tracks : [];
  const clock = data.clock || entry.clock || "us";
  state.clock = clock;
  state.wall = clock === "us" ? wallClock(entry.startTime) : null;
  let end = isNum(data.end) ? data.end : 0;
  for (const t of tracks) for (const s of (t.spans || [])) if (isNum(s.end) && s.end > end) end = s.end;
  if (end <= 0) end = clock === "lines" ? 1 : 1000;
  const pad = Math.max(clock === "lines" ? 0.5 : 1, end * 0.012);
  state.domain = { d0: -pad, d1: end + pad, end };
  state.view = { v0: state.domain.d0, v1: state.domain.d1 };
  state.transitionsByKey = new Map();
  for (const tr of (data.transitions || [])) state.transitionsByKey.set(tr.track + ":" + tr.start + ":" + tr.startLine, tr);

  if (!tracks.length) {
    tl.appendChild(el("div", "tl-empty", "Nothing to draw: this session has no app, scene or controller callbacks."));
    renderNotDrawn(data);
    return;
  }

  const axisRow = el("div", "tl-axis-row");
  const corner = el("div", "tl-corner");
  corner.textContent = clock === "lines" ? "Tracks · log lines" : "Tracks · time";
  if (clock === "us" && entry.startTime) corner.title = "0 is the session's first timestamp, " + String(entry.startTime);
  if (clock === "lines" && Array.isArray(entry.lines)) corner.title = "line +0 is line " + entry.lines[0] + " of the input";
  axisRow.appendChild(corner);
  const axis = sv("svg", { class: "tl-axis", "aria-hidden": "true" });
  axisRow.appendChild(axis);
  tl.appendChild(axisRow);

  const body = el("div", "tl-body");
  let top = 0;
  let firstTransitions = true;
  for (const track of tracks) {
    const kind = String(track.kind || "controller");
    const h = LANE_HEIGHT[kind] || 36;
    const lane = el("div", "lane");
    lane.setAttribute("data-kind", kind);
    lane.setAttribute("data-name", String(track.name === undefined || track.name === null ? "" : track.name));
    lane.setAttribute("data-track", String(track.id));
    lane.style.height = h + "px";
    // The lane's box is its height, its bottom border and, for the first transitions lane, a top border.
    const edge = kind === "transitions" && firstTransitions ? 1 : 0;
    if (kind === "transitions" && firstTransitions) {
      lane.classList.add("first-transitions");
      firstTransitions = false;
    }
    const label = el("div", "lane-label");
    const name = el("div", "lane-name");
    name.appendChild(el("span", "kind-dot"));
    name.appendChild(el("span", "text", track.name));
    label.appendChild(name);
    if (track.detail && kind !== "transitions") {
      let detail = String(track.detail);
      const lead = String(track.name) + " · ";
      if (detail.startsWith(lead)) detail = detail.slice(lead.length);
      label.appendChild(el("div", "lane-detail", detail));
    }
    label.title = String(track.name) + (track.detail ? "\n" + String(track.detail) : "");
    lane.appendChild(label);
    lane.appendChild(el("div", "lane-plot"));
    body.appendChild(lane);
    const info = { track, kind, top: top + edge, h, el: lane };
    state.lanes.push(info);
    state.laneByTrack.set(track.id, info);
    top += h + 1 + edge;
  }
  const plot = sv("svg", { class: "tl-plot", role: "img", "aria-label": "Session timeline" });
  plot.style.height = top + "px";
  body.appendChild(plot);
  tl.appendChild(body);
  state.plot = plot;
  state.axis = axis;
  state.body = body;
  state.totalHeight = top;
  attachPlotEvents(plot);
  renderLegend(data);
  renderNotDrawn(data);
  draw();
}

function renderNotDrawn(data) {
  const box = $("not-drawn");
  const nd = data.notDrawn || {};
  const parts = [];
  if (nd.controllers > 0) parts.push(plural(nd.controllers, "controller"));
  if (nd.transitions > 0) parts.push(plural(nd.transitions, "transition"));
  if (nd.findings > 0) parts.push(plural(nd.findings, "finding"));
  if (nd.items > 0) parts.push(plural(nd.items, "span or mark", "spans or marks"));
  box.replaceChildren();
  const cut = nd.events > 0;
  if (cut) {
    box.appendChild(el("p", "", "This timeline stops before line " + num(nd.fromLine) + ": it draws the first events of a " +
      "long session, and leaves out the " + plural(nd.events, "event") + " from there on."));
  }
  if (parts.length) {
    box.appendChild(el("p", "", "Not drawn in this timeline: " + parts.join(", ") +
      " (past the limits of the session's report; the text and JSON reports count them too)."));
  }
  box.hidden = parts.length === 0 && !cut;
}

// -- Legend ------------------------------------------------------------------------------------------------------

function legendItem(group, swatch, text) {
  const item = el("span", "legend-item");
  item.appendChild(swatch);
  item.appendChild(document.createTextNode(text));
  group.appendChild(item);
}

function renderLegend(data) {
  const legend = $("legend");
  legend.replaceChildren();
  const tracks = data.tracks || [];
  const present = new Set();
  let controllers = false, marks = false, open = false;
  for (const t of tracks) {
    if (t.kind === "controller") controllers = true;
    if ((t.marks || []).length) marks = true;
    for (const s of (t.spans || [])) {
      if (t.kind !== "transitions" && !(t.kind === "controller" && s.depth === 0)) present.add(s.name);
      if (s.open) open = true;
    }
  }
  const states = el("span", "legend-group");
  if (controllers) {
    const life = el("span", "swatch life");
    legendItem(states, life, "alive");
  }
  const order = CONTROLLER_STATES.concat(PHASES);
  const names = order.filter((n) => present.has(n)).concat([...present].filter((n) => !KNOWN_STATES.has(n)).sort());
  for (const n of names) {
    const sw = el("span", "swatch " + (stateClass(n) || ""));
    if (!stateClass(n)) sw.style.background = fallbackColor(n);
    legendItem(states, sw, n);
  }
  if (states.childNodes.length) legend.appendChild(states);

  const kinds = [];
  for (const tr of (data.transitions || [])) if (kinds.indexOf(tr.kind) < 0) kinds.push(tr.kind);
  if (kinds.length) {
    const group = el("span", "legend-group");
    for (const k of kinds.slice(0, 10)) {
      const s = sv("svg", { width: 22, height: 10, class: transitionClass(k) });
      sv("path", { d: "M1 5 H15", class: "tk-line", "stroke-dasharray": dashedTransition(k) ? "3 2" : "none" }, s);
      sv("path", { d: "M14 1.5 L21 5 L14 8.5 Z", class: "tk-head" }, s);
      legendItem(group, s, k);
    }
    if (kinds.length > 10) group.appendChild(el("span", "legend-item", "+" + (kinds.length - 10) + " more"));
    legend.appendChild(group);
  }

  const misc = el("span", "legend-group");
  if (marks) {
    const s = sv("svg", { width: 10, height: 12, class: "mark-icon" });
    sv("path", { d: "M1 1 H9 L5 7 Z" }, s);
    sv("line", { x1: 5, y1: 7, x2: 5, y2: 12 }, s);
    legendItem(misc, s, "callback");
  }
  if (open) {
    const s = sv("svg", { width: 10, height: 12, class: "open-icon" });
    sv("path", { d: "M3 2 L7.5 6 L3 10" }, s);
    legendItem(misc, s, "still going at the end");
  }
  for (const sev of SEVERITIES) {
    const s = sv("svg", { width: 16, height: 16, viewBox: "-8 -8 16 16" });
    const g = sv("g", { class: "finding-legend" }, s);
    markerShape(g, sev, 0, 0, 6);
    legendItem(misc, s, sev);
  }
  if (misc.childNodes.length) legend.appendChild(misc);
}

// -- Geometry ----------------------------------------------------------------------------------------------------

function plotWidth() {
  const plot = state.plot;
  if (!plot) return 0;
  const w = plot.getBoundingClientRect().width;
  if (w > 0) return w;
  const labelWidth = parseFloat(getComputedStyle($("timeline")).getPropertyValue("--label-w")) || 250;
  return Math.max(200, $("timeline").getBoundingClientRect().width - labelWidth);
}

function niceStep(raw, whole) {
  if (!(raw > 0)) return 1;
  if (whole && raw <= 1) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / p;
  const quarter = !whole || p >= 10;
  const nice = f <= 1 ? 1 : f <= 2 ? 2 : quarter && f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
  return nice * p;
}

function axisLabeller(stepTicks, clock) {
  if (clock === "lines") return (t) => (t === 0 ? "line +0" : "line +" + num(t));
  if (stepTicks >= 100000) {
    const decimals = Math.max(0, -Math.floor(Math.log10(stepTicks / 1e6) + 1e-9));
    return (t) => (t === 0 ? "0" : trimNumber(t / 1e6, decimals) + " s");
  }
  if (stepTicks >= 100) {
    const decimals = Math.max(0, -Math.floor(Math.log10(stepTicks / 1e3) + 1e-9));
    return (t) => (t === 0 ? "0" : trimNumber(t / 1e3, decimals) + " ms");
  }
  return (t) => (t === 0 ? "0" : trimNumber(t, 0) + " µs");
}

// -- Tooltips ----------------------------------------------------------------------------------------------------

function tipFor(node, tip) {
  node.__lct = tip;
  return node;
}

function showTip(tip, x, y) {
  const box = $("tooltip");
  if (box.__tip !== tip) {
    box.replaceChildren();
    const title = el("div", "tip-title" + (tip.mono ? " mono" : ""));
    if (tip.severity) {
      const dot = el("span", "sev-dot");
      dot.style.background = "var(--" + tip.severity + ")";
      title.appendChild(dot);
    }
    title.appendChild(document.createTextNode(String(tip.title)));
    box.appendChild(title);
    for (const [k, v] of (tip.rows || [])) {
      if (v === undefined || v === null || v === "") continue;
      const row = el("div", "tip-row");
      row.appendChild(el("span", "tip-key", k));
      row.appendChild(el("span", "tip-val", v));
      box.appendChild(row);
    }
    if (tip.message) box.appendChild(el("div", "tip-msg", tip.message));
    box.__tip = tip;
  }
  box.hidden = false;
  const r = box.getBoundingClientRect();
  let left = x + 14, top = y + 16;
  if (left + r.width > window.innerWidth - 8) left = Math.max(8, x - r.width - 14);
  if (top + r.height > window.innerHeight - 8) top = Math.max(8, y - r.height - 12);
  box.style.left = left + "px";
  box.style.top = top + "px";
}

function hideTip() {
  const box = $("tooltip");
  if (box) {
    box.hidden = true;
    box.__tip = null;
  }
}

function timeRows(start, end, clock, open) {
  const rows = [];
  rows.push(["at", fmtOffset(start, clock) + (state.wall ? "  (" + state.wall(start) + ")" : "")]);
  if (isNum(end)) {
    rows.push(["lasts", (end === start ? (clock === "lines" ? "0 lines" : "0 µs") : fmtDuration(end - start, clock)) +
      (open ? ", still going when the session ended" : "")]);
  }
  return rows;
}

// -- Drawing -----------------------------------------------------------------------------------------------------

function scheduleDraw() {
  if (state.drawQueued) return;
  state.drawQueued = true;
  requestAnimationFrame(() => {
    state.drawQueued = false;
    try {
      draw();
    } catch (error) {
      showError(error);
    }
  });
}

function markerShape(g, severity, x, y, r) {
  if (severity === "warning") {
    const h = r * 1.9;
    sv("path", {
      class: "shape sev-fill-" + severity,
      d: "M" + x + " " + (y - h * 0.62) + " L" + (x + r * 1.1) + " " + (y + h * 0.42) + " L" + (x - r * 1.1) + " " + (y + h * 0.42) + " Z",
      "stroke-linejoin": "round",
    }, g);
    const t = sv("text", { class: "glyph glyph-warning", x: x, y: y + r * 0.55, "text-anchor": "middle" }, g);
    t.textContent = "!";
  } else {
    sv("circle", { class: "shape sev-fill-" + severity, cx: x, cy: y, r: r }, g);
    const t = sv("text", { class: "glyph", x: x, y: y + r * 0.5, "text-anchor": "middle" }, g);
    t.textContent = severity === "info" ? "i" : "!";
  }
}

function draw() {
  const plot = state.plot, data = state.data;
  if (!plot || !data) return;
  const W = plotWidth();
  const H = state.totalHeight;
  const clock = state.clock;
  const { v0, v1 } = state.view;
  const full = v0 <= state.domain.d0 + 1e-9 && v1 >= state.domain.d1 - 1e-9;
  const k = W / (v1 - v0);
  const X = (t) => (t - v0) * k;
  const clampX = (x) => (x < -40 ? -40 : x > W + 40 ? W + 40 : x);
  plot.setAttribute("viewBox", "0 0 " + W + " " + H);
  plot.setAttribute("width", W);
  plot.setAttribute("height", H);
  plot.replaceChildren();

  // Grid and axis.
  const axis = state.axis;
  axis.replaceChildren();
  axis.setAttribute("viewBox", "0 0 " + W + " 30");
  const stepTicks = Math.max(1, niceStep((v1 - v0) / Math.max(2, W / 110), clock === "lines"));
  const label = axisLabeller(stepTicks, clock);
  const grid = sv("g", { class: "grid" }, plot);
  const first = Math.ceil(v0 / stepTicks) * stepTicks;
  for (let t = first, n = 0; t <= v1 && n < 400; t += stepTicks, n++) {
    const tt = Math.round(t / stepTicks) * stepTicks;
    if (tt < 0 && tt < state.domain.d0 + stepTicks * 0.001) continue;
    const x = Math.round(X(tt)) + 0.5;
    sv("line", { x1: x, x2: x, y1: 0, y2: H }, grid);
    sv("line", { class: "tick", x1: x, x2: x, y1: 22, y2: 30 }, axis);
    const text = label(tt);
    const half = text.length * 3.2;
    if (x - half >= 2 && x + half <= W - 2) {
      sv("text", { x: x, y: 16, "text-anchor": "middle" }, axis).textContent = text;
    } else if (x >= 0 && x < half + 2 && x + text.length * 6.4 < W) {
      sv("text", { x: Math.max(x, 3), y: 16, "text-anchor": "start" }, axis).textContent = text;
    }
  }
  state.axisCursor = sv("g", { class: "cursor-label", visibility: "hidden" }, axis);
  sv("rect", { x: 0, y: 3, width: 10, height: 17, rx: 4 }, state.axisCursor);
  sv("text", { x: 0, y: 15.5, "text-anchor": "middle" }, state.axisCursor);

  const lanesG = sv("g", { class: "lanes" }, plot);
  for (const lane of state.lanes) drawLane(lanesG, lane, X, clampX, W, v0, v1, clock);
  drawConnectors(plot, X, W, v0, v1, clock);
  drawFindings(plot, X, W, v0, v1, clock);
  state.cursor = sv("line", { class: "cursor", x1: 0, x2: 0, y1: 0, y2: H, visibility: "hidden" }, plot);
  if (state.cursorX !== null) moveCursor(state.cursorX);

  const from = Math.max(0, Math.round(v0)), to = Math.round(Math.min(v1, state.domain.end));
  $("zoom-range").textContent = (from === 0 && clock !== "lines" ? "0" : fmtOffset(from, clock)) + " … " + fmtOffset(to, clock) +
    (full ? "" : "  (" + fmtDuration(to - from, clock) + " shown)");
  $("zoom-reset").disabled = full;
  $("zoom-out").disabled = full;
}

function drawLane(parent, lane, X, clampX, W, v0, v1, clock) {
  const { track, kind, top, h } = lane;
  const g = sv("g", { class: "lane-g" }, parent);
  const spans = Array.isArray(track.spans) ? track.spans : [];
  const controller = kind === "controller";
  const transitions = kind === "transitions";
  for (const span of spans) {
    if (!isNum(span.start)) continue;
    const end = isNum(span.end) ? Math.max(span.end, span.start) : span.start;
    if (end < v0 || span.start > v1) continue;
    let x1 = X(span.start), x2 = X(end);
    let w = x2 - x1;
    if (w < 3) { x1 -= (3 - w) / 2; w = 3; x2 = x1 + w; }
    const cx1 = clampX(x1), cx2 = clampX(x2);
    const cw = Math.max(3, cx2 - cx1);
    const life = controller && span.depth === 0;
    let y, bh;
    if (life) { y = top + 6; bh = h - 12; }
    else if (controller) { y = top + 12; bh = h - 24; }
    else if (transitions) { y = top + 7; bh = h - 14; }
    else { y = top + 8; bh = h - 16; }
    const name = String(span.name === undefined || span.name === null ? "" : span.name);
    let first;
    if (life) first = ["alive", "from its first callback to " + (span.open ? "the end of the session" : "its last")];
    else if (transitions) first = ["kind", name];
    else first = [controller ? "state of" : "phase of", String(track.name)];
    const tip = {
      title: name,
      mono: life,
      rows: [first].concat(timeRows(span.start, end, clock, span.open)).concat([["log", lineRange(span.startLine, span.endLine)]]),
    };
    if (transitions) {
      const tr = state.transitionsByKey.get(track.id + ":" + span.start + ":" + span.startLine);
      if (tr && tr.label) { tip.title = String(tr.label); tip.rows[0] = ["kind", name + (tr.declared && tr.declared !== name ? " (declared " + tr.declared + ")" : "")]; }
      const r = sv("rect", { class: "tbar " + transitionClass(name), x: cx1, y: y, width: cw, height: bh, rx: 3 }, g);
      if (dashedTransition(name)) r.setAttribute("stroke-dasharray", "3 2");
      tipFor(r, tip);
      const textW = name.length * 6.2 + 8;
      if (cw > textW) {
        const t = sv("text", { class: "tbar-text " + transitionClass(name), x: Math.max(cx1, 0) + 4, y: y + bh / 2 + 3.8 }, g);
        t.textContent = name;
      }
      continue;
    }
    const r = sv("rect", { x: cx1, y: y, width: cw, height: bh, rx: life ? 4 : 3 }, g);
    if (life) {
      r.setAttribute("class", "life");
    } else {
      const cls = stateClass(name);
      r.setAttribute("class", "bar" + (cls ? " " + cls : ""));
      if (!cls) r.setAttribute("fill", fallbackColor(name));
      // The state's name inside its bar, and its length when there is room.
      const visibleW = Math.min(cx2, W) - Math.max(cx1, 0);
      const dur = fmtDuration(end - span.start, clock);
      const full = name + " · " + dur;
      let text = null;
      if (visibleW > full.length * 5.9 + 10) text = full;
      else if (visibleW > name.length * 5.9 + 8) text = name;
      if (text) {
        const t = sv("text", { class: "bar-text" + (LIGHT_TEXT_STATES.has(name) ? " light" : ""), x: Math.max(cx1, 0) + 5, y: y + bh / 2 + 3.7 }, g);
        t.textContent = text;
      }
    }
    tipFor(r, tip);
    if (span.open && x2 <= W + 1 && x2 >= 0) {
      const cy = y + bh / 2;
      const ex = Math.min(x2, W - 2);
      if (!life) sv("path", { class: "open-end", d: "M" + (ex - 5) + " " + (cy - 4) + " L" + (ex - 1) + " " + cy + " L" + (ex - 5) + " " + (cy + 4) }, g);
    }
  }
  const marks = Array.isArray(track.marks) ? track.marks : [];
  for (const mark of marks) {
    if (!isNum(mark.at) || mark.at < v0 || mark.at > v1) continue;
    const x = Math.round(X(mark.at)) + 0.5;
    const mg = sv("g", { class: "mark" }, g);
    sv("line", { x1: x, x2: x, y1: top + 6, y2: top + h - 3, "stroke-opacity": 0.4 }, mg);
    sv("path", { d: "M" + (x - 4) + " " + (top + 1) + " H" + (x + 4) + " L" + x + " " + (top + 7) + " Z" }, mg);
    sv("rect", { class: "hit", x: x - 5, y: top, width: 10, height: h }, mg);
    tipFor(mg, {
      title: String(mark.name), mono: true,
      rows: [["on", String(track.name)]].concat(timeRows(mark.at, null, clock)).concat([["log", lineRange(mark.line)]]),
    });
  }
}

function drawConnectors(plot, X, W, v0, v1, clock) {
  const data = state.data;
  const list = Array.isArray(data.transitions) ? data.transitions : [];
  let inView = 0;
  for (const tr of list) if (isNum(tr.start) && !(Math.max(tr.end || 0, tr.start) < v0 || tr.start > v1)) inView++;
  // Many connectors at once: fainter curves, and no kind labels past a point (the tooltip and colour still tell).
  const g = sv("g", { class: "connectors" + (inView > 40 ? " dense" : "") }, plot);
  const labels = inView <= 150;
  const pills = [];
  const pillsG = [];
  for (const tr of list) {
    if (!isNum(tr.start)) continue;
    const end = isNum(tr.end) ? Math.max(tr.end, tr.start) : tr.start;
    if (end < v0 || tr.start > v1) continue;
    const F = tr.from === null || tr.from === undefined ? null : state.laneByTrack.get(tr.from);
    const T = tr.to === null || tr.to === undefined ? null : state.laneByTrack.get(tr.to);
    const L = state.laneByTrack.get(tr.track);
    const kind = String(tr.kind || "transition");
    const cls = transitionClass(kind);
    const cg = sv("g", { class: "transition-connector " + cls }, g);
    cg.setAttribute("data-kind", kind);
    const xs = Math.max(-20, Math.min(W + 20, X(tr.start)));
    const xe = Math.max(-20, Math.min(W + 20, X(end)));
    let d, head, tail = null, lx, ly;
    if (F && T && F !== T) {
      const down = T.top > F.top;
      const y1 = down ? F.top + F.h - 5 : F.top + 5;
      const y2 = down ? T.top + 4 : T.top + T.h - 4;
      const dir = down ? 1 : -1;
      const yEnd = y2 - dir * 6;
      const my = (y1 + yEnd) / 2;
      d = "M" + xs + " " + y1 + " C" + xs + " " + my + " " + xe + " " + my + " " + xe + " " + yEnd;
      head = [xe, y2, dir];
      tail = [xs, y1];
      const pw = kind.length * 5.9 + 10;
      if (Math.abs(xe - xs) < pw + 8) {
        // A short hop: the kind beside the curve, not over it.
        lx = Math.max(xs, xe) + pw / 2 + 7; ly = (y1 + y2) / 2;
      } else {
        lx = (xs + xe) / 2; ly = (y1 + y2) / 2;
      }
    } else if (F && T) {
      const y = F.top + 4;
      const lift = 14;
      d = "M" + xs + " " + y + " C" + (xs - 6) + " " + (y - lift) + " " + (xe + 6) + " " + (y - lift) + " " + xe + " " + (y - 5);
      head = [xe, y + 1, 1];
      tail = [xs, y];
      lx = (xs + xe) / 2; ly = y - lift + 2;
    } else if (T) {
      // Nothing left the screen: the connector comes from above the incoming controller's lane.
      const y2 = T.top + 4;
      const y1 = Math.max(1, y2 - 20);
      d = "M" + xs + " " + y1 + " C" + xs + " " + (y1 + y2) / 2 + " " + xe + " " + (y1 + y2) / 2 + " " + xe + " " + (y2 - 6);
      head = [xe, y2, 1];
      tail = [xs, y1];
      lx = xe + (kind.length * 5.9 + 10) / 2 + 5; ly = Math.max(T.top, 8);
    } else if (F) {
      // Nothing came in: the connector leaves the outgoing controller's lane downwards.
      const y1 = F.top + F.h - 5;
      const y2 = y1 + 20;
      d = "M" + xs + " " + y1 + " C" + xs + " " + (y1 + y2) / 2 + " " + xe + " " + (y1 + y2) / 2 + " " + xe + " " + (y2 - 6);
      head = [xe, y2, 1];
      tail = [xs, y1];
      lx = xe + (kind.length * 5.9 + 10) / 2 + 5; ly = F.top + F.h;
    } else if (L) {
      const y1 = L.top + 3, y2 = L.top + L.h - 3;
      d = "M" + xs + " " + y1 + " L" + xs + " " + (y2 - 5);
      head = [xs, y2, 1];
      lx = xs; ly = y1;
    } else {
      continue;
    }
    const tip = {
      title: String(tr.label || kind),
      rows: [["kind", kind + (tr.declared && tr.declared !== kind ? " (declared " + tr.declared + ")" : "")]]
        .concat(timeRows(tr.start, end, clock, false))
        .concat([["log", lineRange(tr.startLine, tr.endLine)]]),
    };
    sv("path", { class: "hitline", d: d }, cg);
    tipFor(cg, tip);
    const curve = sv("path", { class: "curve", d: d }, cg);
    if (dashedTransition(kind)) curve.setAttribute("stroke-dasharray", "4 3");
    const [hx, hy, dir] = head;
    sv("path", { class: "head", d: "M" + hx + " " + hy + " L" + (hx - 4) + " " + (hy - dir * 7) + " L" + (hx + 4) + " " + (hy - dir * 7) + " Z" }, cg);
    if (tail) sv("circle", { class: "tail", cx: tail[0], cy: tail[1], r: 2.5 }, cg);
    // The kind on a small pill, where it does not cover another one.
    const pw = kind.length * 5.9 + 10, ph = 14;
    if (lx - pw / 2 < 2 && lx + pw / 2 > 0) lx = 2 + pw / 2;
    if (lx + pw / 2 > W - 2 && lx - pw / 2 < W) lx = W - 2 - pw / 2;
    const box = { x: lx - pw / 2, y: ly - ph / 2, w: pw, h: ph };
    let free = labels && box.x >= 0 && box.x + pw <= W;
    if (free) {
      for (const p of pills) {
        if (box.x < p.x + p.w + 2 && p.x < box.x + box.w + 2 && box.y < p.y + p.h + 1 && p.y < box.y + box.h + 1) { free = false; break; }
      }
    }
    if (free) {
      pills.push(box);
      const pg = sv("g", { class: "connector-pill " + cls }, null);
      sv("rect", { class: "pill", x: box.x, y: box.y, width: pw, height: ph, rx: 7 }, pg);
      const text = sv("text", { x: lx, y: ly + 3.5, "text-anchor": "middle" }, pg);
      text.textContent = kind;
      tipFor(pg, tip);
      pillsG.push(pg);
    }
  }
  // The kinds' pills above every curve.
  const pillLayer = sv("g", { class: "connector-pills" }, plot);
  for (const pg of pillsG) pillLayer.appendChild(pg);
}

function drawFindings(plot, X, W, v0, v1, clock) {
  const data = state.data;
  const list = Array.isArray(data.findings) ? data.findings : [];
  const g = sv("g", { class: "findings" }, plot);
  const hl = state.highlight && state.highlight.finding;
  for (const f of list) {
    const lane = state.laneByTrack.get(f.track);
    if (!lane) continue;
    const at = isNum(f.at) ? f.at : 0;
    if (at < v0 || at > v1) continue;
    const x = X(at);
    const y = lane.top + lane.h / 2;
    const severity = SEVERITIES.indexOf(f.severity) >= 0 ? f.severity : "info";
    const mg = sv("g", { class: "finding-marker" }, g);
    mg.setAttribute("data-rule", String(f.rule));
    mg.setAttribute("data-severity", String(f.severity));
    mg.setAttribute("data-line", String(f.line));
    sv("circle", { class: "ring", cx: x, cy: y, r: 11 }, mg);
    markerShape(mg, severity, x, y, 7);
    if (f === hl) mg.classList.add("highlighted");
    const tip = {
      title: String(f.rule), severity, mono: true,
      rows: [["severity", String(f.severity)], ["on", String(lane.track.name)]]
        .concat(timeRows(at, null, clock)).concat([["log", lineRange(f.line)]]),
      message: String(f.message === undefined || f.message === null ? "" : f.message),
    };
    tipFor(mg, tip);
    mg.__finding = f;
  }
}

// -- Zoom and pan ------------------------------------------------------------------------------------------------

function minSpan() {
  return state.clock === "lines" ? 4 : Math.max(20, (state.domain.d1 - state.domain.d0) / 1e7);
}

function setView(v0, v1) {
  const { d0, d1 } = state.domain;
  const full = d1 - d0;
  let span = Math.max(minSpan(), Math.min(full, v1 - v0));
  if (span >= full) { v0 = d0; span = full; }
  if (v0 < d0) v0 = d0;
  if (v0 + span > d1) v0 = d1 - span;
  state.view = { v0, v1: v0 + span };
  scheduleDraw();
}

function zoomAt(factor, frac) {
  const { v0, v1 } = state.view;
  const span = v1 - v0;
  const f = Math.min(1, Math.max(0, frac));
  const t = v0 + f * span;
  const ns = span / factor;
  setView(t - f * ns, t - f * ns + ns);
}

function panBy(ticks) {
  const { v0, v1 } = state.view;
  setView(v0 + ticks, v1 + ticks);
}

function resetView() {
  setView(state.domain.d0, state.domain.d1);
}

function centerOn(t) {
  const { v0, v1 } = state.view;
  if (t >= v0 && t <= v1) return;
  const span = v1 - v0;
  setView(t - span / 2, t + span / 2);
}

function laneAt(y) {
  for (const lane of state.lanes) if (y >= lane.top && y < lane.top + lane.h + 1) return lane;
  return null;
}

function moveCursor(x) {
  const cursor = state.cursor, label = state.axisCursor;
  if (!cursor || !label) return;
  if (x === null) {
    cursor.setAttribute("visibility", "hidden");
    label.setAttribute("visibility", "hidden");
    return;
  }
  cursor.setAttribute("x1", x);
  cursor.setAttribute("x2", x);
  cursor.setAttribute("visibility", "visible");
  const { v0, v1 } = state.view;
  const W = plotWidth();
  const t = v0 + (x / W) * (v1 - v0);
  const text = state.clock === "lines" ? "line +" + num(Math.max(0, Math.round(t))) : fmtOffset(Math.max(0, t), "us");
  const w = text.length * 6.3 + 12;
  const cx = Math.max(w / 2, Math.min(W - w / 2, x));
  const [rect, txt] = label.childNodes;
  rect.setAttribute("x", cx - w / 2);
  rect.setAttribute("width", w);
  txt.setAttribute("x", cx);
  txt.textContent = text;
  label.setAttribute("visibility", "visible");
}

function setHoverLane(lane) {
  if (state.hoverLane === lane) return;
  if (state.hoverLane) state.hoverLane.el.classList.remove("hover");
  state.hoverLane = lane;
  if (lane) lane.el.classList.add("hover");
}

function attachPlotEvents(plot) {
  let drag = null;
  const local = (e) => {
    const r = plot.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top, w: r.width };
  };
  plot.addEventListener("pointerdown", guarded((e) => {
    if (e.button !== 0) return;
    const p = local(e);
    drag = { id: e.pointerId, x: p.x, v0: state.view.v0, v1: state.view.v1, moved: false };
  }));
  plot.addEventListener("pointermove", guarded((e) => {
    const p = local(e);
    if (drag && drag.id === e.pointerId) {
      const dx = p.x - drag.x;
      if (!drag.moved && Math.abs(dx) > 3) {
        drag.moved = true;
        plot.classList.add("dragging");
        try { plot.setPointerCapture(e.pointerId); } catch (_) { /* not capturable */ }
        hideTip();
      }
      if (drag.moved) {
        const dt = (dx / p.w) * (drag.v1 - drag.v0);
        setView(drag.v0 - dt, drag.v1 - dt);
        return;
      }
    }
    state.cursorX = p.x;
    moveCursor(p.x);
    setHoverLane(laneAt(p.y));
    let node = e.target;
    while (node && node !== plot && !node.__lct) node = node.parentNode;
    if (node && node.__lct) showTip(node.__lct, e.clientX, e.clientY);
    else hideTip();
  }));
  const endDrag = (e) => {
    if (drag && drag.id === e.pointerId) {
      if (drag.moved) {
        try { plot.releasePointerCapture(e.pointerId); } catch (_) { /* released */ }
        plot.classList.remove("dragging");
        plot.__suppressClick = true;
        setTimeout(() => { plot.__suppressClick = false; }, 0);
      }
      drag = null;
    }
  };
  plot.addEventListener("pointerup", endDrag);
  plot.addEventListener("pointercancel", endDrag);
  plot.addEventListener("pointerleave", () => {
    if (drag && drag.moved) return;
    state.cursorX = null;
    moveCursor(null);
    setHoverLane(null);
    hideTip();
  });
  plot.addEventListener("wheel", guarded((e) => {
    const p = local(e);
    let dx = e.deltaX, dy = e.deltaY;
    if (e.deltaMode === 1) { dx *= 16; dy *= 16; } else if (e.deltaMode === 2) { dx *= 400; dy *= 400; }
    if (e.ctrlKey || e.metaKey) {
      e.preventDefault();
      zoomAt(Math.exp(-dy * 0.0022), p.x / p.w);
    } else if (e.shiftKey || Math.abs(dx) > Math.abs(dy)) {
      e.preventDefault();
      const d = Math.abs(dx) > Math.abs(dy) ? dx : dy;
      panBy((d / p.w) * (state.view.v1 - state.view.v0));
    }
  }), { passive: false });
  plot.addEventListener("dblclick", guarded((e) => {
    const p = local(e);
    zoomAt(e.shiftKey ? 0.5 : 2, p.x / p.w);
  }));
  plot.addEventListener("click", guarded((e) => {
    if (plot.__suppressClick) return;
    let node = e.target;
    while (node && node !== plot && !node.__finding) node = node.parentNode;
    if (node && node.__finding) selectMarker(node.__finding);
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Findings table.

function buildFindingsTable(run) {
  const findings = Array.isArray(run.findings) ? run.findings : [];
  const tbody = $("findings-body");
  const frag = document.createDocumentFragment();
  const counts = { error: 0, warning: 0, info: 0 };
  state.rows = [];
  for (const f of findings) {
    const sev = SEVERITIES.indexOf(f.severity) >= 0 ? f.severity : "info";
    counts[sev]++;
    const tr = el("tr", "finding-row");
    tr.setAttribute("data-session", String(f.session));
    tr.setAttribute("data-line", String(f.line));
    tr.setAttribute("data-severity", String(f.severity));
    tr.tabIndex = 0;
    const sevCell = el("td");
    sevCell.appendChild(el("span", "sev sev-" + sev, f.severity));
    tr.appendChild(sevCell);
    tr.appendChild(el("td", "mono", f.rule));
    const sessionCell = el("td");
    if (f.session) {
      sessionCell.appendChild(el("span", "session-link", "#" + f.session));
      const entry = state.byIndex.get(f.session);
      if (entry) sessionCell.title = String(entry.title || "") + (entry.embedded === false ? " (not embedded)" : "");
    } else {
      sessionCell.appendChild(el("span", "muted", "input"));
      sessionCell.title = "about the whole input, not one session";
    }
    tr.appendChild(sessionCell);
    const lineCell = el("td", "mono", String(f.input === undefined || f.input === null ? "" : f.input).split("/").pop() + ":" + f.line);
    lineCell.title = String(f.input) + ":" + f.line;
    tr.appendChild(lineCell);
    const subject = el("td", "subject mono");
    if (f.subject !== null && f.subject !== undefined) subject.textContent = String(f.subject);
    else subject.appendChild(el("span", "muted", "—"));
    tr.appendChild(subject);
    tr.appendChild(el("td", "message", f.message));
    if (!f.session) tr.classList.add("no-session");
    tr.__finding = f;
    state.rows.push(tr);
    frag.appendChild(tr);
  }
  tbody.appendChild(frag);
  tbody.addEventListener("click", guarded((e) => {
    let node = e.target;
    while (node && node !== tbody && !node.__finding) node = node.parentNode;
    if (node && node.__finding) selectFinding(node.__finding, node);
  }));
  tbody.addEventListener("keydown", guarded((e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    const node = e.target;
    if (node && node.__finding) {
      e.preventDefault();
      selectFinding(node.__finding, node);
    }
  }));

  const filter = $("severity-filter");
  state.severityShown = { error: true, warning: true, info: true };
  for (const sev of SEVERITIES) {
    const b = el("button", "btn");
    b.type = "button";
    b.setAttribute("aria-pressed", "true");
    const dot = el("span", "dot");
    dot.style.background = "var(--" + sev + ")";
    b.appendChild(dot);
    b.appendChild(document.createTextNode((sev === "info" ? "info" : sev + "s") + " " + num(counts[sev])));
    b.title = "Show or hide the " + sev + " findings";
    b.addEventListener("click", guarded(() => {
      state.severityShown[sev] = !state.severityShown[sev];
      b.setAttribute("aria-pressed", String(state.severityShown[sev]));
      applyRowFilter();
    }));
    filter.appendChild(b);
  }
  $("only-shown-session").addEventListener("change", guarded(applyRowFilter));

  const limits = run.limits || {};
  const note = $("findings-note");
  if (limits.findingsNotListed > 0) {
    note.textContent = findingsCapText(limits);
    note.hidden = false;
  }
  const empty = $("findings-empty");
  if (!findings.length) {
    $("findings-table").hidden = true;
    filter.hidden = true;
    $("only-shown-session").parentNode.hidden = true;
    empty.textContent = limits.findingsNotListed > 0 ? "No findings are listed." : "No findings: every callback came in an order UIKit allows.";
    empty.hidden = false;
  }
}

function applyRowFilter() {
  const only = $("only-shown-session").checked;
  const cur = state.current ? state.current.index : null;
  let shown = 0;
  for (const tr of state.rows) {
    const f = tr.__finding;
    const sev = SEVERITIES.indexOf(f.severity) >= 0 ? f.severity : "info";
    const visible = state.severityShown[sev] && (!only || f.session === cur);
    tr.hidden = !visible;
    if (visible) shown++;
  }
  const empty = $("findings-empty");
  if (state.rows.length) {
    empty.hidden = shown > 0;
    empty.textContent = shown ? "" : "No finding matches the filter.";
  }
}

function markCurrentRows() {
  const cur = state.current ? state.current.index : null;
  for (const tr of state.rows) tr.classList.toggle("current-session", tr.__finding.session === cur && cur !== null);
  if ($("only-shown-session").checked) applyRowFilter();
}

function clearHighlights() {
  for (const lane of state.lanes) lane.el.classList.remove("highlighted");
  if (state.plot) for (const m of state.plot.querySelectorAll(".finding-marker.highlighted")) m.classList.remove("highlighted");
}

function selectFinding(f, row) {
  for (const tr of state.rows) tr.classList.remove("selected");
  if (row) row.classList.add("selected");
  if (!f.session || !state.byIndex.has(f.session)) {
    if (row) {
      row.classList.remove("flash");
      void row.offsetWidth;
      row.classList.add("flash");
    }
    return;
  }
  if (!state.current || state.current.index !== f.session) pickSession(f.session);
  clearHighlights();
  const data = state.data;
  if (!data) {
    $("session-section").scrollIntoView({ block: "start", behavior: "smooth" });
    return;
  }
  const list = Array.isArray(data.findings) ? data.findings : [];
  const match = list.find((x) => x.line === f.line && x.rule === f.rule) || list.find((x) => x.line === f.line) || null;
  let lane = match ? state.laneByTrack.get(match.track) : null;
  if (!lane && f.subject !== null && f.subject !== undefined) lane = state.lanes.find((l) => l.kind === "controller" && String(l.track.name) === String(f.subject)) || null;
  state.highlight = { finding: match, lane };
  if (match && isNum(match.at)) centerOn(match.at);
  draw();
  if (lane) {
    lane.el.classList.add("highlighted");
    lane.el.scrollIntoView({ block: "center", behavior: "smooth" });
  } else {
    $("session-section").scrollIntoView({ block: "start", behavior: "smooth" });
  }
}

function selectMarker(f) {
  clearHighlights();
  const lane = state.laneByTrack.get(f.track);
  state.highlight = { finding: f, lane };
  if (lane) lane.el.classList.add("highlighted");
  draw();
  // The finding's row in the table is marked too (without scrolling away from the timeline).
  const cur = state.current ? state.current.index : null;
  for (const tr of state.rows) {
    const rf = tr.__finding;
    tr.classList.toggle("selected", rf.session === cur && rf.line === f.line && rf.rule === f.rule);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Start.

function attachControls() {
  $("session-picker").addEventListener("change", guarded((e) => {
    const v = Number(e.target.value);
    if (v) pickSession(v);
  }));
  $("session-prev").addEventListener("click", guarded(() => step(-1)));
  const goto = $("session-goto");
  const go = guarded(() => {
    const n = Number(goto.value);
    const ok = Number.isInteger(n) && state.byIndex.has(n);
    goto.classList.toggle("invalid", !ok && goto.value !== "");
    goto.title = ok || goto.value === "" ? "Type a session number and press Enter" : "This page lists no session " + goto.value;
    if (ok) pickSession(n);
  });
  goto.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); go(); } });
  goto.addEventListener("change", go);
  goto.addEventListener("input", () => goto.classList.remove("invalid"));
  document.addEventListener("keydown", guarded((e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    if (e.key === "[") { step(-1); e.preventDefault(); }
    else if (e.key === "]") { step(1); e.preventDefault(); }
  }));
  $("session-next").addEventListener("click", guarded(() => step(1)));
  $("only-findings").addEventListener("change", guarded(() => {
    fillPicker();
    const onlyFindings = $("only-findings").checked;
    if (onlyFindings && state.filtered.length && (!state.current || positionOf(state.current.index) < 0)) pickSession(state.filtered[0].index);
  }));
  $("zoom-in").addEventListener("click", guarded(() => zoomAt(2, 0.5)));
  $("zoom-out").addEventListener("click", guarded(() => zoomAt(0.5, 0.5)));
  $("zoom-reset").addEventListener("click", guarded(resetView));
  $("timeline").addEventListener("keydown", guarded((e) => {
    if (!state.plot || e.altKey || e.ctrlKey || e.metaKey) return;
    const span = state.view.v1 - state.view.v0;
    switch (e.key) {
      case "+": case "=": zoomAt(2, 0.5); break;
      case "-": case "_": zoomAt(0.5, 0.5); break;
      case "0": resetView(); break;
      case "ArrowLeft": panBy(-span * 0.15); break;
      case "ArrowRight": panBy(span * 0.15); break;
      default: return;
    }
    e.preventDefault();
  }));
  window.addEventListener("hashchange", guarded(() => {
    if (state.ignoreHash && location.hash === state.ignoreHash) { state.ignoreHash = null; return; }
    const n = hashSession();
    if (n !== null && (!state.current || state.current.index !== n)) {
      pickSession(n, { updateHash: false });
    }
  }));
  let lastWidth = 0;
  const onResize = () => {
    const w = $("timeline").getBoundingClientRect().width;
    if (w !== lastWidth) { lastWidth = w; scheduleDraw(); }
  };
  if (typeof ResizeObserver === "function") new ResizeObserver(onResize).observe($("timeline"));
  else window.addEventListener("resize", onResize);
  window.addEventListener("scroll", hideTip, { passive: true });
}

function initialSession() {
  const fromHash = hashSession();
  if (fromHash !== null && state.byIndex.has(fromHash)) return fromHash;
  const withFindings = state.sessions.find((s) => findingCount(s) > 0 && s.embedded !== false) ||
    state.sessions.find((s) => findingCount(s) > 0);
  if (withFindings) return withFindings.index;
  return state.sessions.length ? state.sessions[0].index : null;
}

function main() {
  const runNode = $("lct-run");
  if (!runNode) throw new Error("the page holds no run data (no #lct-run element)");
  const run = JSON.parse(runNode.textContent);
  state.run = run;
  state.sessions = Array.isArray(run.sessions) ? run.sessions.slice() : [];
  let sorted = true;
  for (let i = 1; i < state.sessions.length; i++) if (state.sessions[i].index < state.sessions[i - 1].index) { sorted = false; break; }
  if (!sorted) state.sessions.sort((a, b) => a.index - b.index);
  for (const s of state.sessions) state.byIndex.set(s.index, s);
  renderHeader(run);
  renderNotices(run);
  buildFindingsTable(run);
  attachControls();
  fillPicker();
  const first = initialSession();
  if (first !== null) {
    pickSession(first, { updateHash: hashSession() !== null });
  } else {
    $("session-title").textContent = "No sessions";
    $("session-meta").replaceChildren(el("span", "", "No session was read from the input."));
    $("timeline-block").hidden = true;
  }
}

// Under Node (the page's tests, Tests/TimelinePage), the functions that compute text and numbers are exported and
// nothing is drawn.
if (typeof document === "undefined") {
  module.exports = {
    num, plural, bytes, trimNumber, isNum, fmtDuration, fmtOffset, lineRange, wallClock, stateClass, fallbackColor,
    transitionClass, dashedTransition, capsText, findingsCapText, findingCount, severityCounts, optionText, niceStep,
    axisLabeller,
  };
  return;
}

window.addEventListener("error", (event) => showError(event.error || event.message));
window.addEventListener("unhandledrejection", (event) => showError(event.reason));

try {
  main();
} catch (error) {
  showError(error);
} finally {
  document.body.dataset.ready = "1";
}
})();
