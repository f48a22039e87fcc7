// The course's explorers, drawn in the browser: one ES module for every host.
//
// JupyterLab and Voila load it through anywidget; the static site and the slides
// load it through embed.js, which gives it a model made of the same state. The
// state holds the sliders only: this module computes every number it shows with
// the lines of posenc_lib's sinusoidal_positions (divisor = 10000 ** (2i / d),
// angle = pos / divisor, sin and cos), and prints them as the course does (4
// decimals, 4 significant digits). Every step of every slider is drawn here, with
// no kernel; in a live kernel the widget reports the row it drew ("drawn") and
// Python checks it ("problem", shown if ever set). tests/browser/
// test_explorer_numbers.py compares these numbers and strings with Python's for
// every d_model the slider reaches.

const SVG = "http://www.w3.org/2000/svg";
const SIN_COLOUR = "#1f77b4"; // matplotlib's tab:blue: the sine columns
const COS_COLOUR = "#ff7f0e"; // tab:orange: the cosine columns
const MAX_TABLE_PAIRS = 8; // wider encodings list the first and last pairs only
const MINUS = "\u2212";

function el(tag, attrs = {}, parent = null, ns = null) {
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

const svgEl = (tag, attrs, parent) => el(tag, attrs, parent, SVG);

function text(parent, x, y, content, attrs = {}) {
  const node = svgEl("text", { x, y, ...attrs }, parent);
  node.textContent = content;
  return node;
}

// "-0.9900" as the page shows it, with a real minus sign
const shown = (value) => value.replace(/^-/, MINUS);

function tablePairs(nPairs) {
  if (nPairs <= MAX_TABLE_PAIRS) return [...Array(nPairs).keys()];
  const head = [...Array(MAX_TABLE_PAIRS - 2).keys()];
  return [...head, null, nPairs - 2, nPairs - 1]; // null marks the gap
}

function ticks(n, most) {
  const step = Math.max(1, Math.ceil(n / most));
  const out = [];
  for (let k = 0; k < n; k += step) out.push(k);
  return out;
}

// ------------------------------------------------------------------ numbers

const BASE = 10000;

// f"{value:.4f}" as posenc_lib.formatting.format_number prints it: no "-0.0000"
export function fixed4(value) {
  const out = value.toFixed(4);
  return out === "-0.0000" ? "0.0000" : out;
}

// Python's f"{value:.{digits}g}": significant digits, trailing zeros dropped
export function general(value, digits) {
  if (value === 0) return "0";
  const strip = (t) => (t.includes(".") ? t.replace(/\.?0+$/, "") : t);
  const [mantissa, power] = value.toExponential(digits - 1).split("e");
  const exponent = Number(power);
  if (exponent >= -4 && exponent < digits)
    return strip(value.toFixed(digits - 1 - exponent));
  const sign = exponent < 0 ? "-" : "+";
  return `${strip(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

// The table of one width, positions 0 .. nRows - 1, by sinusoidal_positions'
// lines: pe[pos][2i] = sin(pos / divisor_i), pe[pos][2i + 1] = cos(...).
export function widthTable(dModel, nRows) {
  const divisor = [...Array(dModel / 2).keys()].map((i) => BASE ** ((2 * i) / dModel));
  const omega = divisor.map((d) => 1 / d); // frequencies(d_model)
  const pe = [...Array(nRows).keys()].map((pos) => divisor.flatMap((d) =>
    [Math.sin(pos / d), Math.cos(pos / d)]));
  return { dModel, divisor, omega, pe, freq: omega.map((w) => general(w, 4)) };
}

// PE[p] · PE[p + Δ] = Σ_i cos(Δ / divisor_i), any p (offset_similarity)
export function similarity(table, offset) {
  return table.divisor.reduce((sum, d) => sum + Math.cos(offset / d), 0);
}

// The circle's title: Δ·ω, and whole turns plus the rest past a whole turn.
export function circleTitle(table, pair, offset) {
  const angle = offset * table.omega[pair];
  const turns = Math.floor(angle / (2 * Math.PI));
  const lines = [`pair ${pair}: Δ·ω = ${general(angle, 3)} rad`];
  if (turns > 0) {
    const rest = angle - 2 * Math.PI * turns;
    lines.push(`= ${turns} turn${turns === 1 ? "" : "s"} + ${general(rest, 3)} rad`);
  }
  return lines;
}

// The pair table's rows for PE[pos]: [pair, ω, pos·ω, sin, cos] (null: the gap)
export function tableRows(table, pos) {
  return tablePairs(table.omega.length).map((i) => i === null ? null : [String(i),
    table.freq[i], general(pos * table.omega[i], 4), fixed4(table.pe[pos][2 * i]),
    fixed4(table.pe[pos][2 * i + 1])]);
}

// ------------------------------------------------------------------ sliders

function slider(parent, name, label, onInput) {
  const id = `posenc-${name}-${Math.random().toString(36).slice(2, 9)}`;
  const box = el("div", { class: `posenc-slider posenc-slider-${name}` }, parent);
  const tag = el("label", { for: id }, box);
  tag.textContent = label;
  const input = el("input", { type: "range", id, "data-name": name }, box);
  const readout = el("output", { for: id }, box);
  input.addEventListener("input", () => onInput(Number(input.value)));
  // keys belong to the slider, not to the host's shortcuts (JupyterLab's,
  // reveal.js's); Escape hands them back to the page
  input.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Escape") input.blur();
  });
  return {
    input,
    set(value, min, max, step = 1) {
      input.min = min;
      input.max = max;
      input.step = step;
      input.value = value;
      readout.textContent = value;
    },
  };
}

// ------------------------------------------------------------------ bars

function barsFigure(parent) {
  const W = 820, H = 250, left = 70, right = 10, top = 40, bottom = 56;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img",
    class: "posenc-bars" }, parent);
  const plotW = W - left - right, plotH = H - top - bottom;
  const y = (v) => top + plotH * (1 - v) / 2;
  // cosine bars are hatched, so sin and cos differ by more than colour
  const hatch = `posenc-cos-hatch-${++barsFigure.count}`;
  const pattern = svgEl("pattern", { id: hatch, width: 6, height: 6,
    patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    svgEl("defs", {}, svg));
  svgEl("rect", { width: 6, height: 6, fill: COS_COLOUR }, pattern);
  svgEl("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "white", "stroke-width": 2 },
    pattern);
  for (const v of [-1, 0, 1]) {
    svgEl("line", { x1: left, x2: W - right, y1: y(v), y2: y(v),
      class: v === 0 ? "posenc-zero" : "posenc-grid" }, svg);
    text(svg, left - 8, y(v) + 6, shown(String(v)), { "text-anchor": "end" });
  }
  svgEl("rect", { x: left, y: top, width: plotW, height: plotH,
    class: "posenc-frame" }, svg);
  const title = text(svg, left, top - 12, "", { class: "posenc-title" });
  text(svg, left + plotW / 2, H - 8,
    "column k  (blue: sin, even k;  orange, hatched: cos, odd k)",
    { "text-anchor": "middle" });
  const bars = svgEl("g", {}, svg);
  const axis = svgEl("g", {}, svg);
  let rects = [];
  return {
    setWidth(dModel) {
      bars.replaceChildren();
      axis.replaceChildren();
      const slot = plotW / dModel;
      rects = [...Array(dModel).keys()].map((k) =>
        svgEl("rect", { x: left + slot * (k + 0.1), width: slot * 0.8,
          fill: k % 2 ? `url(#${hatch})` : SIN_COLOUR, class: "posenc-bar" },
          bars));
      for (const k of ticks(dModel, 16))
        text(axis, left + slot * (k + 0.5), top + plotH + 24, String(k),
          { "text-anchor": "middle" });
    },
    show(values, pair, titleText, label) {
      rects.forEach((rect, k) => {
        const v = values[k];
        rect.setAttribute("y", Math.min(y(v), y(0)));
        rect.setAttribute("height", Math.abs(y(v) - y(0)));
        rect.classList.toggle("posenc-bar-pair", pair !== null && (k >> 1) === pair);
      });
      title.textContent = titleText;
      svg.setAttribute("aria-label", label);
    },
  };
}

barsFigure.count = 0;

// ------------------------------------------------------------------ heatmap

function colour(cmap, value) {
  const at = Math.round(((value + 1) / 2) * (cmap.length - 1));
  return cmap[Math.max(0, Math.min(cmap.length - 1, at))];
}

function heatmapFigure(parent, cmap) {
  const W = 430, H = 400, left = 62, right = 70, top = 40, bottom = 56;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img",
    class: "posenc-heatmap" }, parent);
  const plotW = W - left - right, plotH = H - top - bottom;
  const image = svgEl("image", { x: left, y: top, width: plotW, height: plotH,
    preserveAspectRatio: "none", class: "posenc-heat" }, svg);
  svgEl("rect", { x: left, y: top, width: plotW, height: plotH,
    class: "posenc-frame" }, svg);
  const title = text(svg, left, top - 12, "", { class: "posenc-title" });
  text(svg, left + plotW / 2, H - 8, "column k", { "text-anchor": "middle" });
  text(svg, 16, top + plotH / 2, "position", { "text-anchor": "middle",
    transform: `rotate(-90 16 ${top + plotH / 2})` });
  const bar = svgEl("g", {}, svg); // the colour bar, -1 .. 1
  const barX = W - right + 14;
  for (let i = 0; i < cmap.length; i++)
    svgEl("rect", { x: barX, y: top + (plotH * (cmap.length - 1 - i)) / cmap.length,
      width: 14, height: plotH / cmap.length + 0.5, fill: cmap[i] }, bar);
  for (const v of [-1, 0, 1])
    text(bar, barX + 20, top + (plotH * (1 - v)) / 2 + 6, shown(String(v)));
  const axis = svgEl("g", {}, svg);
  const marks = [0, 1].map((i) => svgEl("rect", { x: left, width: plotW,
    class: i ? "posenc-row posenc-row-shifted" : "posenc-row" }, svg));
  let rowH = 1, nRows = 1;
  return {
    setTable(pe) {
      nRows = pe.length;
      const nCols = pe[0].length;
      const canvas = document.createElement("canvas");
      canvas.width = nCols;
      canvas.height = nRows;
      const ctx = canvas.getContext("2d");
      pe.forEach((row, p) => row.forEach((value, k) => {
        ctx.fillStyle = colour(cmap, value);
        ctx.fillRect(k, p, 1, 1);
      }));
      image.setAttribute("href", canvas.toDataURL());
      rowH = plotH / nRows;
      axis.replaceChildren();
      const slot = plotW / nCols;
      for (const k of ticks(nCols, 5))
        text(axis, left + slot * (k + 0.5), top + plotH + 24, String(k),
          { "text-anchor": "middle" });
      for (const p of ticks(nRows, 4))
        text(axis, left - 8, top + rowH * (p + 0.5) + 6, String(p),
          { "text-anchor": "end" });
    },
    show(rows, titleText, label) {
      marks.forEach((mark, i) => {
        const row = rows[i];
        const visible = row !== undefined && row < nRows;
        mark.style.display = visible ? "" : "none";
        if (visible) {
          mark.setAttribute("y", top + rowH * row);
          mark.setAttribute("height", Math.max(rowH, 2));
        }
      });
      title.textContent = titleText;
      svg.setAttribute("aria-label", label);
    },
  };
}

// ------------------------------------------------------------------ circle

function circleFigure(parent) {
  const W = 400, H = 400, cx = 210, cy = 220, r = 120;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img",
    class: "posenc-circle" }, parent);
  svgEl("line", { x1: cx - r - 16, x2: cx + r + 16, y1: cy, y2: cy,
    class: "posenc-grid" }, svg);
  svgEl("line", { x1: cx, x2: cx, y1: cy - r - 16, y2: cy + r + 16,
    class: "posenc-grid" }, svg);
  svgEl("circle", { cx, cy, r, class: "posenc-unit" }, svg);
  text(svg, cx + r + 20, cy + 6, "sin");
  text(svg, cx, cy - r - 22, "cos", { "text-anchor": "middle" });
  const title = [0, 1].map((i) => text(svg, W / 2, 24 + 24 * i, "",
    { class: "posenc-title", "text-anchor": "middle" }));
  const arc = svgEl("path", { class: "posenc-arc" }, svg);
  const start = svgEl("circle", { r: 11, class: "posenc-start" }, svg);
  const end = svgEl("circle", { r: 11, class: "posenc-end" }, svg);
  const legend = svgEl("g", {}, svg);
  svgEl("circle", { cx: 70, cy: H - 14, r: 8, class: "posenc-start" }, legend);
  text(legend, 84, H - 8, "at pos");
  svgEl("circle", { cx: 210, cy: H - 14, r: 8, class: "posenc-end" }, legend);
  text(legend, 224, H - 8, "at pos + Δ");
  const at = (s, c) => [cx + r * s, cy - r * c];
  return {
    // (sin, cos) at pos and pos + Δ are the table's numbers; the arc between them
    // turns by Δ·ω modulo a whole turn, clockwise as the positions go.
    show(from, to, angle, turn, titleLines, label) {
      const [x0, y0] = at(...from);
      const [x1, y1] = at(...to);
      start.setAttribute("cx", x0); start.setAttribute("cy", y0);
      end.setAttribute("cx", x1); end.setAttribute("cy", y1);
      const points = [];
      for (let j = 0; j <= 60; j++) {
        const a = angle + (turn * j) / 60;
        points.push(at(Math.sin(a), Math.cos(a)).map((v) => v.toFixed(1)).join(","));
      }
      arc.setAttribute("d", "M" + points.join("L"));
      title.forEach((line, i) => { line.textContent = titleLines[i] || ""; });
      svg.setAttribute("aria-label", label);
    },
  };
}

// ------------------------------------------------------------------ pair circle

// Chapter 03: one pair of positions 0 .. n - 1 as dots on the unit circle, and
// arrows from each start to start + Δ (all the same angle Δ·ω).
function pairCircleFigure(parent, view, pair, nDots, nArrows) {
  const W = 460, H = 470, cx = 240, cy = 250, r = 165;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img",
    class: "posenc-pair-picture" }, parent);
  const id = `posenc-head-${Math.random().toString(36).slice(2, 9)}`;
  const marker = svgEl("marker", { id, viewBox: "0 0 10 10", refX: 9, refY: 5,
    markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
    svgEl("defs", {}, svg));
  svgEl("path", { d: "M 0 0 L 10 5 L 0 10", class: "posenc-arrow-head" }, marker);
  svgEl("circle", { cx, cy, r, class: "posenc-unit" }, svg);
  const at = (row) => [cx + r * view.pe[row][2 * pair],
    cy - r * view.pe[row][2 * pair + 1]];
  for (let p = 0; p < nDots; p++) {
    const [x, y] = at(p);
    svgEl("circle", { cx: x, cy: y, r: 5, class: "posenc-start" }, svg);
    text(svg, cx + (x - cx) * 1.14, cy + (y - cy) * 1.14 + 6, String(p),
      { "text-anchor": "middle", class: "posenc-dot-label" });
  }
  text(svg, cx, H - 6, `PE[pos, ${2 * pair}] = sin`, { "text-anchor": "middle" });
  text(svg, 18, cy, `PE[pos, ${2 * pair + 1}] = cos`, { "text-anchor": "middle",
    transform: `rotate(-90 18 ${cy})` });
  const title = [0, 1].map((i) => text(svg, W / 2, 22 + 24 * i, "",
    { class: "posenc-title", "text-anchor": "middle" }));
  const arrows = [...Array(nArrows)].map(() => svgEl("line",
    { class: "posenc-arrow", "marker-end": `url(#${id})` }, svg));
  return {
    show(starts, offset, titleLines, label) {
      arrows.forEach((line, i) => {
        const [x0, y0] = at(starts[i]), [x1, y1] = at(starts[i] + offset);
        line.style.display = offset > 0 ? "" : "none";
        line.setAttribute("x1", x0); line.setAttribute("y1", y0);
        line.setAttribute("x2", x1); line.setAttribute("y2", y1);
      });
      title.forEach((line, i) => { line.textContent = titleLines[i] || ""; });
      svg.setAttribute("aria-label", label);
    },
  };
}

// The browser tells the kernel what it drew; Python checks it (the widget's
// "problem", shown here if it is ever set). On a static page this goes nowhere.
function report(model, shown, pos, table) {
  model.set("drawn", { shown, pos, d_model: table.dModel, row: table.pe[pos] });
  model.save_changes();
}

function problemLine(model, root) {
  const line = el("p", { class: "posenc-problem", role: "alert" }, root);
  const show = () => { line.textContent = model.get("problem") || ""; };
  model.on("change:problem", show);
  show();
  return () => model.off("change:problem", show);
}

function buildPairCircle(model, root) {
  root.classList.add("posenc-widget", "posenc-pair-circle");
  root.dataset.lmSuppressShortcuts = "true";
  const controls = el("div", { class: "posenc-controls" }, root);
  const d = model.get("d_model"), pair = model.get("pair");
  const starts = model.get("starts"), maxOffset = model.get("max_offset");
  const view = widthTable(d, Math.max(model.get("n_positions"),
    Math.max(...starts) + maxOffset + 1));
  const omega = view.omega[pair];
  const figure = pairCircleFigure(el("div", { class: "posenc-pictures" }, root),
    view, pair, model.get("n_positions"), starts.length);
  const offsetSlider = slider(controls, "offset", "Δ", (value) => {
    model.set("offset", value);
    model.save_changes();
  });
  const unwatch = problemLine(model, root);
  function draw() {
    const offset = model.get("offset");
    offsetSlider.set(offset, 0, maxOffset);
    const titles = [`pair ${pair} of d_model = ${d}: Δ = ${offset}`,
      `turns by Δ·ω = ${offset} × ${omega.toFixed(3)} = ` +
      `${(offset * omega).toFixed(3)} rad`];
    const ends = starts.map((s) => `PE[${s}] to PE[${s + offset}]: (` +
      `${shown(fixed4(view.pe[s + offset][2 * pair]))}, ` +
      `${shown(fixed4(view.pe[s + offset][2 * pair + 1]))})`);
    figure.show(starts, offset, titles, `${titles.join(" ")}; ${ends.join("; ")}`);
    root.dataset.shown = String(offset);
    report(model, root.dataset.shown, starts[0] + offset, view);
  }
  model.on("change:offset", draw);
  draw();
  return () => { model.off("change:offset", draw); unwatch(); };
}

// ------------------------------------------------------------------ numbers

function pairTable(parent) {
  const table = el("table", { class: "posenc-table" }, parent);
  const head = el("tr", {}, el("thead", {}, table));
  for (const name of ["pair", "ω", "pos·ω", "sin", "cos"])
    el("th", { scope: "col" }, head).textContent = name;
  const body = el("tbody", {}, table);
  return {
    show(view, pos, pair) {
      const rows = tableRows(view, pos).map((cells, k) => {
        const row = el("tr");
        if (cells === null) {
          el("td", {}, row).textContent = "\u22ee";
          el("td", { colspan: 4 }, row);
          return row;
        }
        for (const cell of cells) el("td", {}, row).textContent = shown(cell);
        if (Number(cells[0]) === pair) row.classList.add("posenc-current");
        return row;
      });
      body.replaceChildren(...rows);
    },
  };
}

// ------------------------------------------------------------------ the widgets

function vectorLabel(pe, pos, dModel) {
  const values = pe.slice(0, 6).map((v) => shown(fixed4(v))).join(", ");
  return `PE[${pos}] for d_model = ${dModel}: ${values}${pe.length > 6 ? ", …" : ""}`;
}

function build(model, root) {
  const kind = model.get("kind");
  const lecture = kind === "lecture";
  root.classList.add("posenc-widget", `posenc-${kind}`);
  root.dataset.lmSuppressShortcuts = "true";
  const controls = el("div", { class: "posenc-controls" }, root);
  const body = el("div", { class: "posenc-body" }, root);
  const pictures = el("div", { class: "posenc-pictures" }, body);
  const numbers = el("div", { class: "posenc-numbers", "aria-live": "polite" }, body);
  const heading = lecture ? el("h3", { "aria-level": "2" }, numbers) : null;
  const parts = {
    heading,
    bars: barsFigure(el("div", { class: "posenc-top" }, pictures)),
    table: pairTable(numbers),
    dot: lecture ? el("div", { class: "posenc-dot" }, numbers) : null,
  };
  const lower = el("div", { class: "posenc-lower" }, pictures);
  parts.heatmap = heatmapFigure(lower, model.get("cmap"));
  parts.circle = lecture ? circleFigure(lower) : null;
  const unwatch = problemLine(model, root);
  // rows of the heatmap: every pos, and for the lecture every pos + Δ
  const nRows = model.get("max_pos") + (lecture ? model.get("max_offset") : 0) + 1;

  const set = (name, value) => {
    model.set(name, value); // fires change:<name>, which draws
    model.save_changes();
  };
  const names = lecture ? ["pos", "d_model", "offset", "pair"] : ["pos", "d_model"];
  const labels = { pos: "pos", d_model: "d_model", offset: "Δ", pair: "pair" };
  const sliders = {};
  for (const name of names) {
    sliders[name] = slider(controls, name, labels[name], (value) => {
      if (name === "d_model" && lecture) {
        const top = value / 2 - 1;
        if (model.get("pair") > top) model.set("pair", top);
      }
      set(name, value);
    });
  }
  let view = null;

  function draw() {
    const pos = model.get("pos"), d = model.get("d_model");
    const offset = lecture ? model.get("offset") : 0;
    const pair = lecture ? Math.min(model.get("pair"), d / 2 - 1) : null;
    sliders.pos.set(pos, 0, model.get("max_pos"));
    sliders.d_model.set(d, 2, model.get("max_d_model"), 2);
    if (lecture) {
      sliders.offset.set(offset, 0, model.get("max_offset"));
      sliders.pair.set(pair, 0, d / 2 - 1);
    }
    if (view === null || view.dModel !== d) {
      view = widthTable(d, nRows);
      parts.bars.setWidth(d);
      parts.heatmap.setTable(view.pe);
    }
    const pe = view.pe[pos];
    const label = vectorLabel(pe, pos, d);
    const last = nRows - 1;
    if (lecture) {
      parts.bars.show(pe, pair, `PE[${pos}], d_model = ${d}`, label);
      parts.heatmap.show([pos, pos + offset], "PE: rows pos and pos + Δ",
        `PE for positions 0 to ${last} and d_model = ${d}, ` +
        `rows pos = ${pos} and pos + Δ = ${pos + offset} marked`);
      heading.textContent = `PE[${pos}], d_model = ${d}`;
      const to = view.pe[pos + offset];
      const omega = view.omega[pair];
      const turn = (offset * omega) % (2 * Math.PI);
      const titles = circleTitle(view, pair, offset);
      const [s0, c0, s1, c1] = [pe[2 * pair], pe[2 * pair + 1], to[2 * pair],
        to[2 * pair + 1]].map((v) => shown(fixed4(v)));
      parts.circle.show([pe[2 * pair], pe[2 * pair + 1]],
        [to[2 * pair], to[2 * pair + 1]], pos * omega, turn, titles,
        `pair ${pair}: (sin, cos) = (${s0}, ${c0}) at pos = ${pos} and ` +
        `(${s1}, ${c1}) at pos + Δ = ${pos + offset}; ${titles.join(" ")}`);
      const sim = shown(fixed4(similarity(view, offset)));
      parts.dot.replaceChildren();
      el("div", {}, parts.dot).textContent =
        `PE[${pos}] · PE[${pos + offset}] = ${sim}`;
      el("div", {}, parts.dot).textContent = `= Σᵢ cos(Δ·ωᵢ) = ${sim}`;
      el("small", {}, parts.dot).textContent =
        `the same for every pos; d_model/2 = ${d / 2} at Δ\u00a0=\u00a00`;
    } else {
      parts.bars.show(pe, null, `PE[${pos}] with d_model = ${d}`, label);
      parts.heatmap.show([pos], `PE, positions 0-${last}`,
        `PE for positions 0 to ${last} and d_model = ${d}, row pos = ${pos} marked`);
    }
    parts.table.show(view, pos, pair);
    root.dataset.shown = lecture ? [pos, d, offset, pair].join(",") : [pos, d].join(",");
    report(model, root.dataset.shown, pos, view);
  }

  const events = ["pos", "d_model", "offset", "pair"].map((n) => `change:${n}`);
  for (const event of events) model.on(event, draw);
  draw();
  return () => { for (const event of events) model.off(event, draw); unwatch(); };
}

function render({ model, el: root }) {
  if (model.get("kind") === "pair-circle") return buildPairCircle(model, root);
  return build(model, root);
}

export default { render };
