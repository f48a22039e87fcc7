// The course's explorers, drawn in the browser: one ES module for every host.
//
// JupyterLab and Voila load it through anywidget; the static site and the slides
// load it through posenc-embed.js, which gives it a model made of the same state.
// Every number shown comes from posenc_lib as widget state ("view": the table of
// the current d_model as printed strings, see posenc_lib/figures/browser.py); this
// module only places them. A pos, Δ or pair step is drawn here at once; a d_model
// step uses a view from "views" (static pages) or asks Python for a new one.

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

// ------------------------------------------------------------------ sliders

function slider(parent, name, label, onInput) {
  const id = `posenc-${name}-${Math.random().toString(36).slice(2, 9)}`;
  const box = el("div", { class: `posenc-slider posenc-slider-${name}` }, parent);
  const tag = el("label", { for: id }, box);
  tag.textContent = label;
  const input = el("input", { type: "range", id, "data-name": name }, box);
  const readout = el("output", { for: id }, box);
  input.addEventListener("input", () => onInput(Number(input.value)));
  // keys belong to the slider, not to the host's shortcuts (JupyterLab's)
  input.addEventListener("keydown", (event) => event.stopPropagation());
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
        const v = parseFloat(values[k]);
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
        ctx.fillStyle = colour(cmap, parseFloat(value));
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
      const [x0, y0] = at(parseFloat(from[0]), parseFloat(from[1]));
      const [x1, y1] = at(parseFloat(to[0]), parseFloat(to[1]));
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
  const at = (row) => [cx + r * parseFloat(view.pe[row][2 * pair]),
    cy - r * parseFloat(view.pe[row][2 * pair + 1])];
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

function buildPairCircle(model, root) {
  root.classList.add("posenc-widget", "posenc-pair-circle");
  root.dataset.lmSuppressShortcuts = "true";
  const controls = el("div", { class: "posenc-controls" }, root);
  const view = decode(model.get("view"));
  const pair = model.get("pair"), starts = model.get("starts");
  const figure = pairCircleFigure(el("div", { class: "posenc-pictures" }, root),
    view, pair, model.get("n_positions"), starts.length);
  const offsetSlider = slider(controls, "offset", "Δ", (value) => {
    model.set("offset", value);
    model.save_changes();
  });
  function draw() {
    const offset = model.get("offset");
    offsetSlider.set(offset, 0, model.get("max_offset"));
    const titles = view.shift[offset];
    const ends = starts.map((s) => `PE[${s}] to PE[${s + offset}]: (` +
      `${shown(view.pe[s + offset][2 * pair])}, ` +
      `${shown(view.pe[s + offset][2 * pair + 1])})`);
    figure.show(starts, offset, titles, `${titles.join(" ")}; ${ends.join("; ")}`);
    root.dataset.shown = String(offset);
  }
  model.on("change:offset", draw);
  draw();
  return () => model.off("change:offset", draw);
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
      const rows = tablePairs(view.freq.length).map((i) => {
        const row = el("tr");
        if (i === null) {
          el("td", {}, row).textContent = "\u22ee";
          el("td", { colspan: 4 }, row);
          return row;
        }
        const pe = view.pe[pos];
        const cells = [String(i), view.freq[i], view.angle[pos][i],
          shown(pe[2 * i]), shown(pe[2 * i + 1])];
        for (const cell of cells) el("td", {}, row).textContent = cell;
        if (i === pair) row.classList.add("posenc-current");
        return row;
      });
      body.replaceChildren(...rows);
    },
  };
}

// ------------------------------------------------------------------ the widgets

function vectorLabel(pe, pos, dModel) {
  const values = pe.slice(0, 6).map(shown).join(", ");
  return `PE[${pos}] for d_model = ${dModel}: ${values}${pe.length > 6 ? ", …" : ""}`;
}

// The state keeps the numbers compact (see browser.py): PE as integers of 1e-4,
// angles for the table's pairs only, the circle's angle and what is left after
// whole turns. Here they become the strings the page shows, once per view.
const decoded = new WeakMap();

function decode(view) {
  if (!decoded.has(view)) {
    const pairs = tablePairs(view.freq.length).filter((i) => i !== null);
    const angle = view.angle.map((row) => {
      const out = [];
      pairs.forEach((i, j) => { out[i] = row[j]; });
      return out;
    });
    const circle = (view.circle || []).map((row, i) => row.map(([a, rest]) =>
      [`pair ${i}: Δ·ω = ${a} rad`, ...(rest ? [`= ${rest} rad`] : [])]));
    decoded.set(view, { ...view, angle, circle,
      pe: view.pe.map((row) => row.map((n) => (n / 1e4).toFixed(4))) });
  }
  return decoded.get(view);
}

function currentView(model) {
  const d = model.get("d_model");
  const views = model.get("views") || {};
  const view = views[String(d)] || model.get("view");
  return view && view.d_model === d ? decode(view) : null;
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
  let drawnWidth = null;

  function draw() {
    const pos = model.get("pos"), d = model.get("d_model");
    const offset = lecture ? model.get("offset") : 0;
    const view = currentView(model);
    const pair = lecture ? Math.min(model.get("pair"), d / 2 - 1) : null;
    sliders.pos.set(pos, 0, model.get("max_pos"));
    sliders.d_model.set(d, 2, model.get("max_d_model"), 2);
    if (lecture) {
      sliders.offset.set(offset, 0, model.get("max_offset"));
      sliders.pair.set(pair, 0, d / 2 - 1);
    }
    if (view === null) { root.classList.add("posenc-waiting"); return; }
    root.classList.remove("posenc-waiting");
    if (drawnWidth !== d) {
      parts.bars.setWidth(d);
      parts.heatmap.setTable(view.pe);
      drawnWidth = d;
    }
    const pe = view.pe[pos];
    const label = vectorLabel(pe, pos, d);
    const last = view.pe.length - 1;
    if (lecture) {
      parts.bars.show(pe, pair, `PE[${pos}], d_model = ${d}`, label);
      parts.heatmap.show([pos, pos + offset], "PE: rows pos and pos + Δ",
        `PE for positions 0 to ${last} and d_model = ${d}, ` +
        `rows pos = ${pos} and pos + Δ = ${pos + offset} marked`);
      heading.textContent = `PE[${pos}], d_model = ${d}`;
      const to = view.pe[pos + offset];
      const omega = view.omega[pair];
      const turn = (offset * omega) % (2 * Math.PI);
      const titles = view.circle[pair][offset];
      parts.circle.show([pe[2 * pair], pe[2 * pair + 1]],
        [to[2 * pair], to[2 * pair + 1]], pos * omega, turn, titles,
        `pair ${pair}: (sin, cos) = (${shown(pe[2 * pair])}, ` +
        `${shown(pe[2 * pair + 1])}) at pos = ${pos} and ` +
        `(${shown(to[2 * pair])}, ${shown(to[2 * pair + 1])}) at pos + Δ = ` +
        `${pos + offset}; ${titles.join(" ")}`);
      const sim = shown(view.sim[offset]);
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
  }

  const events = ["pos", "d_model", "offset", "pair", "view"].map((n) => `change:${n}`);
  for (const event of events) model.on(event, draw);
  draw();
  return () => { for (const event of events) model.off(event, draw); };
}

function render({ model, el: root }) {
  if (model.get("kind") === "pair-circle") return buildPairCircle(model, root);
  return build(model, root);
}

export default { render };
