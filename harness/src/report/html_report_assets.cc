// The style and the scripts of the report pages (report/html_report.h). Plain ES2017 and SVG, no
// library and no network: a page is one file that opens anywhere. The scripts read the page's
// <script id="data"> and draw into <main id="app">.
#include "streamsim/harness/report/html_report.h"

namespace streamsim::harness::report_detail {

const char* const kStyle = R"CSS(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1d2330; background: #fff; }
h1 { font-size: 1.3em; margin: 0 0 .4em; } h2 { font-size: 1.1em; margin: 1.4em 0 .4em; }
code, pre { font: 12px/1.4 ui-monospace, monospace; }
pre { background: #f4f5f8; padding: .6em .8em; overflow-x: auto; white-space: pre-wrap; }
.verdict { display: inline-block; padding: 0 .5em; border-radius: 3px; color: #fff; margin-right: .4em; }
.verdict.pass { background: #2e7d32; } .verdict.fail { background: #c62828; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0 1em; margin: .5em 0; }
dl.facts dt { color: #5b6272; } dl.facts dd { margin: 0; }
.scroll { overflow-x: auto; border: 1px solid #dde; }
svg text { font: 11px system-ui, sans-serif; fill: #5b6272; }
svg .lane-name { fill: #1d2330; font-weight: 600; }
svg .lane-bg { fill: #fafbfd; } svg .tick { stroke: #e3e6ee; }
svg .up { fill: #c8e6c9; } svg .down { fill: #ffcdd2; }
svg .batch { fill: #90caf9; stroke: #1e88e5; } svg .batch.rerun { fill: #ffe082; stroke: #f9a825; }
svg .batch.aborted { fill: #ef9a9a; stroke: #c62828; stroke-dasharray: 3 2; }
svg .mark { stroke: #0d47a1; stroke-width: 2; } svg .batch-label { fill: #0d2a4a; font-size: 10px; } svg .mark.commit { stroke: #1b5e20; }
svg .mark.state_commit { stroke: #6a1b9a; } svg .mark.sink_write { stroke: #e65100; }
svg .fault { fill: #c62828; } svg .fault.switch { fill: #8e24aa; } svg .file { fill: #00897b; }
svg .timer.registered { fill: #fff; stroke: #5e35b1; stroke-width: 1.5; } svg .timer.fired { fill: #5e35b1; }
svg .timer.deleted { stroke: #5e35b1; stroke-width: 1.5; } svg .ttl { fill: #f57c00; }
svg .watermark, svg .state-rows { fill: none; stroke: #37474f; stroke-width: 1.5; }
svg .state-point { fill: #37474f; }
svg .hl { stroke: #ff1744 !important; stroke-width: 3 !important; filter: drop-shadow(0 0 3px #ff1744); }
.violation { border-left: 4px solid #c62828; background: #fff5f5; padding: .4em .8em; margin: .4em 0; }
table { border-collapse: collapse; font-size: 12px; } td, th { padding: 1px 8px; text-align: left; vertical-align: top; }
tr.hl td { background: #ffebee; } th { background: #eef0f5; position: sticky; top: 0; }
td.details { font-family: ui-monospace, monospace; color: #39404f; }
.strip { image-rendering: pixelated; border: 1px solid #dde; }
a.seed.fail, span.seed.fail { color: #c62828; font-weight: 600; }
.legend span { margin-right: 1em; } .muted { color: #5b6272; }
)CSS";

const char* const kCommonScript = R"JS(
'use strict';
// The page's data (report/html_report.cc) and where it is drawn.
const data = JSON.parse(document.getElementById('data').textContent);
const app = document.getElementById('app');
// An HTML element with attributes and text.
function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
)JS";

const char* const kRunScript = R"JS(
(function () {
  const NS = 'http://www.w3.org/2000/svg';
  function sv(tag, attrs, title) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (title) { const t = document.createElementNS(NS, 'title'); t.textContent = title; e.appendChild(t); }
    return e;
  }
  const events = data.events;
  const t0 = events.length ? events[0].t : 0;
  function rel(ms) {
    const d = ms - t0, a = Math.abs(d);
    const s = a < 1000 ? a + ' ms' : a < 120000 ? (a / 1000).toFixed(a < 10000 ? 2 : 1) + ' s'
            : a < 7200000 ? (a / 60000).toFixed(1) + ' min' : (a / 3600000).toFixed(1) + ' h';
    return (d < 0 ? '-' : '+') + s;
  }
  function when(ms) {
    const d = new Date(ms);
    return isNaN(d.getTime()) ? String(ms) : d.toISOString().replace('T', ' ').replace('Z', ' UTC');
  }
  function details(e) {
    const parts = [];
    for (const k in e) if (k !== 'event' && k !== 'batch') parts.push(k + '=' + JSON.stringify(e[k]));
    return parts.join(' ');
  }

  // --- header -----------------------------------------------------------------------------
  const h1 = el('h1');
  h1.appendChild(el('span', {id: 'verdict', class: 'verdict ' + (data.passed ? 'pass' : 'fail')},
                    data.passed ? 'PASS' : 'FAIL'));
  h1.appendChild(el('span', {}, data.file + (data.seed !== undefined ? ' seed ' + data.seed : '')));
  app.appendChild(h1);
  if (data.name) app.appendChild(el('p', {class: 'muted'}, data.name));
  const facts = el('dl', {class: 'facts', id: 'facts'});
  function fact(k, v) { facts.appendChild(el('dt', {}, k)); facts.appendChild(el('dd', {'data-fact': k}, String(v))); }
  const f = data.faults || {};
  fact('batches', data.batches);
  fact('crashes', data.crashes);
  fact('restarts', data.restarts);
  fact('faults', (f.fired ? f.fired.length : 0) + ' fired of ' + (f.planned || 0) + ' planned');
  if (data.plan) fact('fault plan', data.plan);
  fact('trace', data.fingerprint + ' (' + events.length + ' events, virtual time ' +
       (events.length ? when(events[0].t) + ' to ' + rel(events[events.length - 1].t) : '-') + ')');
  app.appendChild(facts);
  app.appendChild(el('h2', {}, 'Run it again'));
  const rp = el('pre', {id: 'reproduce'}); rp.appendChild(el('code', {}, data.reproduce)); app.appendChild(rp);
  if (!data.passed && data.failure) app.appendChild(el('pre', {id: 'failure', class: 'failure'}, data.failure));

  // --- what the violated oracles point at ---------------------------------------------------
  const hl = new Set(), hlBatch = new Set();
  if (data.violations.length) {
    const sec = el('section', {id: 'violations'});
    sec.appendChild(el('h2', {}, 'Violations (' + data.violations.length + ')'));
    for (const v of data.violations) {
      const d = el('div', {class: 'violation', 'data-oracle': v.oracle});
      d.appendChild(el('strong', {}, v.oracle));
      d.appendChild(document.createTextNode((v.batch >= 0 ? ' batch ' + v.batch : '') +
                                            (v.key ? ' key ' + v.key : '') + ': ' + v.message));
      for (const i of v.at || []) hl.add(i);
      if (v.batch >= 0) hlBatch.add(v.batch);
      sec.appendChild(d);
    }
    app.appendChild(sec);
  }

  // --- x: virtual time, stretched so simultaneous events stay apart --------------------------
  const MAJOR = new Set(['batch_planned', 'offsets_written', 'input', 'sink_write', 'commit', 'query_started',
                         'query_stopped', 'query_failed', 'fault_injected', 'crash_applied', 'files_taken']);
  const xs = [];
  let x = 0;
  for (let i = 0; i < events.length; ++i) {
    const dt = i ? events[i].t - events[i - 1].t : 0;
    if (dt > 0) x += 14 + 36 * Math.log10(1 + dt / 100);
    if (MAJOR.has(events[i].e.event)) x += 10;
    xs.push(x);
  }
  // At least a screen wide.
  const scale = Math.max(1, 1100 / Math.max(1, x));
  for (let i = 0; i < xs.length; ++i) xs[i] *= scale;
  x *= scale;
  const left = 130, pad = 20, width = left + x + pad * 2;
  const lanes = ['query', 'batches', 'faults', 'files', 'timers', 'ttl', 'watermark'];
  const stateLanes = [];
  for (const ev of events)
    if (ev.e.event === 'state_commit') {
      const name = 'state op ' + ev.e.operator + ' p' + ev.e.partition;
      if (!stateLanes.includes(name)) stateLanes.push(name);
    }
  stateLanes.sort();
  const laneH = {watermark: 44}, laneY = {};
  let y = 24;
  for (const l of lanes.concat(stateLanes)) { laneY[l] = y; y += (laneH[l] || (l.startsWith('state') ? 36 : 24)) + 4; }
  const height = y + 8;
  const X = i => left + pad + xs[i];
  const svg = sv('svg', {id: 'timeline', width: width, height: height, viewBox: '0 0 ' + width + ' ' + height});
  for (const l of lanes.concat(stateLanes))
    svg.appendChild(sv('rect', {class: 'lane-bg', x: left, y: laneY[l], width: width - left,
                                height: laneH[l] || (l.startsWith('state') ? 36 : 24)}));
  const ticks = sv('g', {class: 'ticks'});
  svg.appendChild(ticks);
  for (const l of lanes.concat(stateLanes)) {
    const g = sv('g', {class: 'lane', 'data-lane': l});
    g.appendChild(sv('text', {class: 'lane-name', x: 6, y: laneY[l] + 15}));
    g.lastChild.textContent = l;
    svg.appendChild(g);
  }
  const lane = l => svg.querySelector('g[data-lane="' + l + '"]');
  // time axis
  let lastLabel = -1e9;
  for (let i = 0; i < events.length; ++i) {
    if (i && events[i].t === events[i - 1].t) continue;
    if (X(i) - lastLabel < 70) continue;
    lastLabel = X(i);
    ticks.appendChild(sv('line', {class: 'tick', x1: X(i), x2: X(i), y1: 14, y2: height}));
    const t = sv('text', {x: X(i) + 2, y: 11}, when(events[i].t));
    t.appendChild(document.createTextNode(rel(events[i].t)));
    ticks.appendChild(t);
  }
  function mark(l, i, shape, cls, title) {
    const yy = laneY[l] + 12;
    let e;
    const cx = X(i);
    if (shape === 'circle') e = sv('circle', {cx: cx, cy: yy, r: 5}, title);
    else if (shape === 'diamond') e = sv('path', {d: `M${cx} ${yy - 6}l6 6l-6 6l-6 -6z`}, title);
    else if (shape === 'tri') e = sv('path', {d: `M${cx} ${yy - 7}l7 13h-14z`}, title);
    else if (shape === 'cross') e = sv('path', {d: `M${cx - 5} ${yy - 5}l10 10m0 -10l-10 10`}, title);
    else e = sv('line', {x1: cx, x2: cx, y1: laneY[l] + 3, y2: laneY[l] + 21}, title);
    e.setAttribute('class', cls + (hl.has(i) ? ' hl' : ''));
    e.setAttribute('data-event', i);
    lane(l).appendChild(e);
    return e;
  }
  // query up/down, batches
  let upFrom = -1, downFrom = -1, downT = 0, open = null;
  const planned = new Set();
  function closeBatch(i, aborted) {
    if (!open) return;
    const b = open.batch;
    const r = sv('rect', {x: X(open.i) - 3, y: laneY.batches + 3, width: Math.max(6, X(i) - X(open.i) + 6), height: 18},
                 'batch ' + b + (open.rerun ? ' (re-run)' : '') + (aborted ? ' - did not commit' : '') +
                 '\n' + when(events[open.i].t) + ' to ' + when(events[i].t));
    r.setAttribute('class', 'batch' + (open.rerun ? ' rerun' : '') + (aborted ? ' aborted' : '') + (hlBatch.has(b) ? ' hl' : ''));
    r.setAttribute('data-batch', b);
    lane('batches').insertBefore(r, lane('batches').childNodes[1] || null);
    if (X(i) - X(open.i) > 24) {
      const label = sv('text', {class: 'batch-label', x: X(open.i) + 2, y: laneY.batches + 16});
      label.textContent = String(b);
      lane('batches').appendChild(label);
    }
    open = null;
  }
  function down(i, why) {
    if (upFrom >= 0) lane('query').appendChild(sv('rect', {class: 'up', x: X(upFrom), y: laneY.query + 4, width: Math.max(2, X(i) - X(upFrom)), height: 16}, 'query running'));
    upFrom = -1;
    if (why) { downFrom = i; downT = events[i].t; }
  }
  for (let i = 0; i < events.length; ++i) {
    const e = events[i].e, k = e.event;
    if (k === 'query_started') {
      if (downFrom >= 0) {
        lane('query').appendChild(sv('rect', {class: 'down', x: X(downFrom), y: laneY.query + 4, width: Math.max(2, X(i) - X(downFrom)), height: 16},
                                     'down for ' + rel(t0 + events[i].t - downT).slice(1) + ' (virtual time) after ' + events[downFrom].e.event));
        downFrom = -1;
      }
      upFrom = i;
      mark('query', i, 'line', 'mark start', 'query started at batch ' + e.nextBatch + (e.rerun ? ', re-running it' : '') + '\n' + when(events[i].t));
    } else if (k === 'query_stopped') { closeBatch(i, true); down(i, false); }
    else if (k === 'crash_applied' || k === 'query_failed') {
      closeBatch(i, true); down(i, true);
      mark('faults', i, k === 'crash_applied' ? 'tri' : 'cross', 'fault ' + k, k + ' ' + details(e) + '\n' + when(events[i].t));
    } else if (k === 'batch_planned') {
      closeBatch(i, true);
      open = {i: i, batch: e.batch, rerun: planned.has(e.batch)};
      planned.add(e.batch);
    } else if (k === 'offsets_written' || k === 'sink_write' || k === 'commit' || k === 'state_commit') {
      mark('batches', i, 'line', 'mark ' + k, k + ' ' + (e.batch !== undefined ? 'batch ' + e.batch + ' ' : '') + details(e));
      if (k === 'commit') closeBatch(i, false);
    } else if (k === 'fault_injected') {
      mark('faults', i, 'tri', 'fault ' + (e.kind || ''), (e.kind || 'fault') + ' at ' + e.point + ' (batch ' + e.batch + ')\n' + details(e));
    } else if (k === 'tws.switch') {
      mark('faults', i, 'tri', 'fault switch', 'context switch: key ' + JSON.stringify(e.key) + ' resumed at ' + e.at +
           (e.instead_key ? ' instead of key ' + JSON.stringify(e.instead_key) + ' at ' + e.instead_at : ''));
    } else if (k === 'files_taken') mark('files', i, 'circle', 'file', 'files taken: ' + details(e));
    else if (k === 'tws.timer_registered') mark('timers', i, 'circle', 'timer registered', 'timer registered for ' + when(e.ts) + ', key ' + JSON.stringify(e.key));
    else if (k === 'tws.timer_fired') mark('timers', i, 'circle', 'timer fired', 'timer fired (' + when(e.ts) + '), key ' + JSON.stringify(e.key));
    else if (k === 'tws.timer_deleted') mark('timers', i, 'cross', 'timer deleted', 'timer deleted (' + when(e.ts) + '), key ' + JSON.stringify(e.key));
    else if (k === 'tws.ttl_expired') mark('ttl', i, 'diamond', 'ttl', 'TTL expired: ' + details(e));
    else if (hl.has(i)) mark('batches', i, 'line', 'mark other', k + ' ' + details(e));
  }
  closeBatch(events.length - 1, true);  // a batch still open at the end did not commit
  if (upFrom >= 0) down(events.length - 1, false);
  // step lines: the watermark after each commit, the keys of each state store partition
  function steps(l, points, cls, label) {
    if (!points.length) return;
    const h = (laneH[l] || 36) - 10, top = laneY[l] + 5;
    let lo = Infinity, hi = -Infinity;
    for (const p of points) { lo = Math.min(lo, p.v); hi = Math.max(hi, p.v); }
    const Y = v => top + h - (hi > lo ? (v - lo) / (hi - lo) * h : h / 2);
    let d = '';
    points.forEach((p, n) => { d += (n ? `H${X(p.i)}V${Y(p.v)}` : `M${X(p.i)} ${Y(p.v)}`); });
    d += `H${width - pad}`;
    lane(l).appendChild(sv('path', {class: cls, d: d}));
    for (const p of points) {
      const c = sv('circle', {class: 'state-point' + (hl.has(p.i) ? ' hl' : ''), cx: X(p.i), cy: Y(p.v), r: 2.5}, label(p));
      c.setAttribute('data-event', p.i);
      lane(l).appendChild(c);
    }
  }
  const wm = [];
  for (let i = 0; i < events.length; ++i)
    if (events[i].e.event === 'commit' && typeof events[i].e.nextWatermark === 'number') wm.push({i: i, v: events[i].e.nextWatermark, b: events[i].e.batch});
  steps('watermark', wm, 'watermark', p => 'watermark after batch ' + p.b + ': ' + when(p.v));
  for (const l of stateLanes) {
    const pts = [];
    for (let i = 0; i < events.length; ++i) {
      const e = events[i].e;
      if (e.event === 'state_commit' && l === 'state op ' + e.operator + ' p' + e.partition) pts.push({i: i, v: e.keys, ver: e.version});
    }
    steps(l, pts, 'state-rows', p => l + ' version ' + p.ver + ': ' + p.v + ' keys');
  }
  app.appendChild(el('h2', {}, 'Timeline (virtual time)'));
  const legend = el('p', {class: 'legend muted'});
  legend.textContent = 'blue: a batch from planned to commit (amber: a re-run, red dashed: did not commit); ticks: ' +
                       'offsets written, state committed (purple), sink written (orange), commit (green); ' +
                       'red: faults and crashes (purple: an async context switch), pink: the query down; hover for details; highlighted: what a violated oracle points at.';
  app.appendChild(legend);
  const box = el('div', {class: 'scroll'}); box.appendChild(svg); app.appendChild(box);

  // --- every event ------------------------------------------------------------------------
  const LIMIT = 5000;
  app.appendChild(el('h2', {}, 'Events (' + events.length + (events.length > LIMIT ? ', the first ' + LIMIT + ' shown' : '') + ')'));
  const filter = el('input', {id: 'filter', type: 'search', placeholder: 'filter events', size: 40});
  app.appendChild(filter);
  const table = el('table', {id: 'events'});
  const head = el('tr');
  for (const c of ['#', 'virtual time', 'batch', 'event', 'details']) head.appendChild(el('th', {}, c));
  table.appendChild(head);
  for (let i = 0; i < Math.min(events.length, LIMIT); ++i) {
    const e = events[i].e;
    const tr = el('tr', {class: 'ev' + (hl.has(i) ? ' hl' : ''), 'data-event': i, 'data-kind': e.event});
    tr.appendChild(el('td', {}, i));
    tr.appendChild(el('td', {title: when(events[i].t)}, rel(events[i].t)));
    tr.appendChild(el('td', {}, e.batch === undefined ? '' : e.batch));
    tr.appendChild(el('td', {}, e.event));
    tr.appendChild(el('td', {class: 'details'}, details(e)));
    table.appendChild(tr);
  }
  app.appendChild(table);
  filter.addEventListener('input', function () {
    const q = filter.value.toLowerCase();
    for (const tr of table.querySelectorAll('tr.ev')) tr.style.display = tr.textContent.toLowerCase().includes(q) ? '' : 'none';
  });
  document.body.setAttribute('data-drawn', 'run');
})();
)JS";

const char* const kSweepScript = R"JS(
(function () {
  const results = data.results.filter(r => r && typeof r === 'object');
  const files = [], by = {};
  for (const r of results) {
    if (!by[r.file]) { by[r.file] = []; files.push(r.file); }
    by[r.file].push(r);
  }
  const failed = results.filter(r => !r.passed).length;
  const h1 = el('h1');
  h1.appendChild(el('span', {id: 'verdict', class: 'verdict ' + (failed ? 'fail' : 'pass')}, failed ? 'FAIL' : 'PASS'));
  h1.appendChild(el('span', {}, 'sweep: ' + files.length + ' scenario' + (files.length === 1 ? '' : 's') + ', ' +
                                 results.length + ' seeds, ' + failed + ' failed'));
  app.appendChild(h1);
  const t = data.totals || {};
  const facts = el('dl', {class: 'facts', id: 'totals'});
  for (const k of ['runs', 'oracleChecks', 'violations', 'crashes', 'restarts', 'seedsWhoseFaultsFired', 'seconds'])
    if (t[k] !== undefined) { facts.appendChild(el('dt', {}, k)); facts.appendChild(el('dd', {'data-total': k}, String(t[k]))); }
  app.appendChild(facts);
  app.appendChild(el('p', {class: 'legend muted'}, 'One cell per seed, in seed order: green passed, red failed. ' +
                                                   'A failing seed links to its own page when one was written.'));
  for (const file of files) {
    const rs = by[file].slice().sort((a, b) => a.seed - b.seed);
    const bad = rs.filter(r => !r.passed);
    const sec = el('section', {class: 'scenario', 'data-file': file});
    sec.appendChild(el('h2', {}, (bad.length ? 'FAIL ' : 'PASS ') + file));
    if (rs[0].name) sec.appendChild(el('p', {class: 'muted'}, rs[0].name));
    sec.appendChild(el('p', {class: 'summary'}, rs.length + ' seeds (' + rs[0].seed + ' to ' + rs[rs.length - 1].seed + '), ' + bad.length + ' failed'));
    const cols = Math.min(rs.length, 200), cell = 5, rows = Math.ceil(rs.length / cols);
    const c = el('canvas', {class: 'strip', width: cols * cell, height: rows * cell, 'data-seeds': rs.length, 'data-failed': bad.length});
    const g = c.getContext && c.getContext('2d');
    if (g) rs.forEach((r, n) => {
      g.fillStyle = r.passed ? '#66bb6a' : '#e53935';
      g.fillRect((n % cols) * cell, Math.floor(n / cols) * cell, cell - 1, cell - 1);
    });
    sec.appendChild(c);
    if (bad.length) {
      const ul = el('ul', {class: 'failing'});
      for (const r of bad) {
        const li = el('li');
        const href = data.links[file + '\n' + r.seed];
        li.appendChild(href ? el('a', {class: 'seed fail', href: href}, 'seed ' + r.seed)
                            : el('span', {class: 'seed fail'}, 'seed ' + r.seed));
        li.appendChild(document.createTextNode(' ' + (r.kind || '') + ' '));
        if (r.replay) li.appendChild(el('code', {class: 'replay'}, r.replay));
        ul.appendChild(li);
      }
      sec.appendChild(ul);
    }
    app.appendChild(sec);
  }
  document.body.setAttribute('data-drawn', 'sweep');
})();
)JS";

}  // namespace streamsim::harness::report_detail
