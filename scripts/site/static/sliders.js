/* The course's slider widgets without a kernel: plain JavaScript and SVG.
 *
 * Every number comes from window.POSENC_DATA, written by scripts/build_site.py
 * with posenc_lib at build time:
 *   pe[d][pos][k]  PE[pos, k] as an integer of 1e-4 (the notebook's 4 decimals)
 *   freq[d][i]     the frequency of pair i (a float, exactly as numpy has it)
 *   sim[d][k]      PE[pos] . PE[pos + k] to 4 decimals (the same for every pos)
 *   cmap           the heatmap's colour map, -1 .. 1, as hex colours
 * Each widget is a <div class="posenc-static" data-kind=... data-config=...>
 * whose <input type="range"> sliders the build wrote; this file draws the rest.
 */
(function () {
  "use strict";
  var DATA = window.POSENC_DATA;
  var SVG = "http://www.w3.org/2000/svg";
  var SIN = "#1f77b4", COS = "#ff7f0e", RED = "#d62728";

  /* 4 decimals from an integer of 1e-4, as posenc_lib's format_number. */
  function fmt4(n) {
    var sign = n < 0 ? "-" : "";
    var a = Math.abs(n), frac = String(a % 10000);
    return sign + Math.floor(a / 10000) + "." + "0000".slice(frac.length) + frac;
  }

  /* Python's format(x, ".{digits}g"). */
  function pyG(x, digits) {
    if (x === 0) return "0";
    var parts = x.toExponential(digits - 1).split("e");
    var exp = parseInt(parts[1], 10);
    var strip = function (s) {
      return s.indexOf(".") < 0 ? s : s.replace(/0+$/, "").replace(/\.$/, "");
    };
    if (exp >= -4 && exp < digits) return strip(x.toFixed(digits - 1 - exp));
    var e = Math.abs(exp) < 10 ? "0" + Math.abs(exp) : String(Math.abs(exp));
    return strip(parts[0]) + "e" + (exp < 0 ? "-" : "+") + e;
  }

  function el(name, attrs, parent, text) {
    var node = document.createElementNS(SVG, name);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  function value(pe, pos, k) { return pe[pos][k] / 10000; }

  /* A linear map from data [d0, d1] to pixels [p0, p1]. */
  function scale(d0, d1, p0, p1) {
    return function (v) { return p0 + (v - d0) / (d1 - d0) * (p1 - p0); };
  }

  function niceStep(span, n) {
    var raw = span / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) if (steps[i] * mag >= raw) return steps[i] * mag;
    return 10 * mag;
  }

  function ticks(lo, hi, n) {
    var step = niceStep(hi - lo, n), out = [];
    for (var t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(t);
    return out;
  }

  /* Axes frame: box [x, y, w, h] in pixels, x and y ticks with labels. */
  function axes(svg, box, xs, ys, xticks, yticks, font) {
    var g = el("g", {"font-size": font, fill: "#222"}, svg);
    el("rect", {x: box[0], y: box[1], width: box[2], height: box[3],
                fill: "none", stroke: "#222", "stroke-width": 0.8}, g);
    xticks.forEach(function (t) {
      var x = xs(t);
      el("line", {x1: x, x2: x, y1: box[1] + box[3], y2: box[1] + box[3] + 4,
                  stroke: "#222"}, g);
      el("text", {x: x, y: box[1] + box[3] + 4 + font, "text-anchor": "middle"}, g,
         String(+t.toFixed(6)));
    });
    yticks.forEach(function (t) {
      var y = ys(t);
      el("line", {x1: box[0] - 4, x2: box[0], y1: y, y2: y, stroke: "#222"}, g);
      el("text", {x: box[0] - 6, y: y + font / 3, "text-anchor": "end"}, g,
         String(+t.toFixed(6)));
    });
    return g;
  }

  function label(svg, x, y, text, font, rotate, anchor) {
    var attrs = {x: x, y: y, "font-size": font, "text-anchor": anchor || "middle",
                 fill: "#222"};
    if (rotate) attrs.transform = "rotate(-90 " + x + " " + y + ")";
    return el("text", attrs, svg, text);
  }

  /* The heatmap of PE (rows 0 .. n-1) as an <image> of a canvas, one pixel a cell. */
  function heatmapImage(svg, box, d, n) {
    var canvas = document.createElement("canvas");
    canvas.width = d; canvas.height = n;
    var ctx = canvas.getContext("2d"), pe = DATA.pe[d], last = DATA.cmap.length - 1;
    for (var pos = 0; pos < n; pos++) {
      for (var k = 0; k < d; k++) {
        var v = value(pe, pos, k);
        ctx.fillStyle = DATA.cmap[Math.round((v + 1) / 2 * last)];
        ctx.fillRect(k, pos, 1, 1);
      }
    }
    return el("image", {x: box[0], y: box[1], width: box[2], height: box[3],
                        preserveAspectRatio: "none", href: canvas.toDataURL(),
                        style: "image-rendering: pixelated"}, svg);
  }

  function colorbar(svg, box, font, ticksAt, title) {
    var id = "cb" + Math.random().toString(36).slice(2);
    var grad = el("linearGradient", {id: id, x1: 0, y1: 1, x2: 0, y2: 0},
                  el("defs", {}, svg));
    DATA.cmap.forEach(function (c, i) {
      el("stop", {offset: i / (DATA.cmap.length - 1), "stop-color": c}, grad);
    });
    el("rect", {x: box[0], y: box[1], width: box[2], height: box[3],
                fill: "url(#" + id + ")", stroke: "#222", "stroke-width": 0.8}, svg);
    var ys = scale(-1, 1, box[1] + box[3], box[1]);
    ticksAt.forEach(function (t) {
      el("line", {x1: box[0] + box[2], x2: box[0] + box[2] + 4, y1: ys(t), y2: ys(t),
                  stroke: "#222"}, svg);
      label(svg, box[0] + box[2] + 6, ys(t) + font / 3, String(t), font, false, "start");
    });
    if (title) label(svg, box[0] + box[2] + 40, box[1] + box[3] / 2, title, font, true);
  }

  /* Bars of PE[pos] (blue sin, orange cos); `edge(k)` outlines a bar. */
  function bars(svg, box, d, pos, font, edge) {
    var xs = scale(-0.5, d - 0.5, box[0], box[0] + box[2]);
    var ys = scale(-1.1, 1.1, box[1] + box[3], box[1]);
    axes(svg, box, xs, ys, ticks(0, d - 1, 8).filter(Number.isInteger),
         [-1, -0.5, 0, 0.5, 1], font);
    var pe = DATA.pe[d], width = (xs(1) - xs(0)) * 0.8;
    for (var k = 0; k < d; k++) {
      var v = value(pe, pos, k), top = Math.min(ys(v), ys(0));
      el("rect", {x: xs(k) - width / 2, y: top, width: width,
                  height: Math.abs(ys(v) - ys(0)), fill: k % 2 ? COS : SIN,
                  stroke: edge && edge(k) ? "#000" : "none", "stroke-width": 2.5,
                  "class": "posenc-bar", "data-k": k}, svg);
    }
    el("line", {x1: box[0], x2: box[0] + box[2], y1: ys(0), y2: ys(0),
                stroke: "#000", "stroke-width": 0.8}, svg);
  }

  function slider(root, name) {
    return root.querySelector('input[type="range"][data-name="' + name + '"]');
  }

  function readout(input) {
    var out = input.parentNode.querySelector("output");
    if (out) out.textContent = input.value;
  }

  function wire(root, names, draw) {
    names.forEach(function (name) {
      var input = slider(root, name);
      input.addEventListener("input", function () { readout(input); draw(); });
    });
    draw();
  }

  /* Chapter 02: PositionExplorer (pos, d): the text, the bars, the heatmap. */
  function positionExplorer(root, config) {
    var text = root.querySelector(".posenc-text");
    var figure = root.querySelector(".posenc-figure");
    var n = config.maxPos + 1;
    function draw() {
      var pos = +slider(root, "pos").value, d = +slider(root, "d").value;
      var pe = DATA.pe[d], parts = [];
      DATA.freq[d].forEach(function (f, i) {
        var angle = pyG(pos * f, 4);
        parts.push("pair " + i + " (frequency " + pyG(f, 4) + "): sin " + angle +
                   " = " + fmt4(pe[pos][2 * i]) + ", cos " + angle + " = " +
                   fmt4(pe[pos][2 * i + 1]));
      });
      text.textContent = parts.join("; ");
      figure.textContent = "";
      var svg = el("svg", {viewBox: "0 0 760 270", role: "img", "aria-label":
                   "Bars of PE[" + pos + "] with d = " + d +
                   " and the heatmap of PE with row " + pos + " marked"}, figure);
      var font = 12, left = [60, 28, 330, 196];
      bars(svg, left, d, pos, font);
      label(svg, left[0] + left[2] / 2, 20, "PE[" + pos + "] with d = " + d, 13);
      label(svg, left[0] + left[2] / 2, 262,
            "column k   (blue: sin, even k;  orange: cos, odd k)", font);
      label(svg, 20, left[1] + left[3] / 2, "value", font, true);
      var right = [470, 28, 200, 196];
      heatmapImage(svg, right, d, n);
      var xs = scale(-0.5, d - 0.5, right[0], right[0] + right[2]);
      var ys = scale(-0.5, n - 0.5, right[1], right[1] + right[3]);
      axes(svg, right, xs, ys, ticks(0, d - 1, 5).filter(Number.isInteger),
           ticks(0, n - 1, 5), font);
      var y = ys(pos);
      el("line", {x1: right[0], x2: right[0] + right[2], y1: y, y2: y,
                  stroke: "#fff", "stroke-width": 4}, svg);
      el("line", {x1: right[0], x2: right[0] + right[2], y1: y, y2: y,
                  stroke: "#000", "stroke-width": 2, "class": "posenc-marker"}, svg);
      label(svg, right[0] + right[2] / 2, 20, "PE, positions 0-" + (n - 1), 13);
      label(svg, right[0] + right[2] / 2, 262, "column k", font);
      label(svg, 438, right[1] + right[3] / 2, "position pos", font, true);
      colorbar(svg, [right[0] + right[2] + 14, right[1], 12, right[3]], font,
               [-1, -0.5, 0, 0.5, 1], "PE[pos, k]");
    }
    wire(root, ["pos", "d"], draw);
  }

  /* Unit circle with light axes, in box [x, y, size]; returns data -> pixel maps. */
  function circleStage(svg, box, lim) {
    var xs = scale(-lim, lim, box[0], box[0] + box[2]);
    var ys = scale(-lim, lim, box[1] + box[2], box[1]);
    el("circle", {cx: xs(0), cy: ys(0), r: xs(1) - xs(0), fill: "none",
                  stroke: "lightgrey"}, svg);
    return {x: xs, y: ys};
  }

  function arrow(svg, from, to, color, id) {
    el("line", {x1: from[0], y1: from[1], x2: to[0], y2: to[1], stroke: color,
                "stroke-width": 1.5, "marker-end": "url(#" + id + ")",
                "class": "posenc-arrow"}, svg);
  }

  function arrowHead(svg, color) {
    var id = "ah" + Math.random().toString(36).slice(2);
    var marker = el("marker", {id: id, viewBox: "0 0 10 10", refX: 9, refY: 5,
                    markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse"},
                    el("defs", {}, svg));
    el("path", {d: "M 0 0 L 10 5 L 0 10", fill: "none", stroke: color,
                "stroke-width": 1.5}, marker);
    return id;
  }

  /* Chapter 03: PairCircleExplorer (offset k): dots on the circle, two arrows. */
  function pairCircle(root, config) {
    var figure = root.querySelector(".posenc-figure");
    var d = config.d, pair = config.pair, pe = DATA.pe[d];
    function draw() {
      var k = +slider(root, "offset").value;
      figure.textContent = "";
      var svg = el("svg", {viewBox: "0 0 360 380", role: "img", "aria-label":
                   config.titles[k].replace("\n", " ")}, figure);
      var c = circleStage(svg, [50, 50, 290], 1.3), font = 11;
      var head = arrowHead(svg, RED);
      for (var pos = 0; pos < config.nPositions; pos++) {
        var x = value(pe, pos, 2 * pair), y = value(pe, pos, 2 * pair + 1);
        el("circle", {cx: c.x(x), cy: c.y(y), r: 3.5, fill: SIN}, svg);
        label(svg, c.x(1.16 * x), c.y(1.16 * y) + 3, String(pos), 9).setAttribute(
          "fill", SIN);
      }
      config.starts.forEach(function (start) {
        var a = [c.x(value(pe, start, 2 * pair)), c.y(value(pe, start, 2 * pair + 1))];
        var b = [c.x(value(pe, start + k, 2 * pair)),
                 c.y(value(pe, start + k, 2 * pair + 1))];
        if (k > 0) arrow(svg, a, b, RED, head);
      });
      var lines = config.titles[k].split("\n");
      label(svg, 195, 18, lines[0], font + 1);
      label(svg, 195, 34, lines[1], font + 1);
      label(svg, 195, 372, "PE[pos, " + 2 * pair + "] = sin", font);
      label(svg, 30, 195, "PE[pos, " + (2 * pair + 1) + "] = cos", font, true);
    }
    wire(root, ["offset"], draw);
  }

  /* The lecture explorer's rows of the pair table: all, or first 6 and last 2. */
  function tablePairs(nPairs) {
    var out = [];
    if (nPairs <= 8) { for (var i = 0; i < nPairs; i++) out.push(i); return out; }
    for (var j = 0; j < 6; j++) out.push(j);
    return out.concat([null, nPairs - 2, nPairs - 1]);
  }

  function pairTable(pos, d, pair) {
    var pe = DATA.pe[d], freq = DATA.freq[d];
    var rows = ["<tr><th>pair</th><th>frequency</th><th>sin</th><th>cos</th></tr>"];
    tablePairs(d / 2).forEach(function (i) {
      if (i === null) { rows.push('<tr><td>&#8942;</td><td colspan="3"></td></tr>'); return; }
      var style = i === pair ? ' style="font-weight: bold"' : "";
      var cells = [String(i), pyG(freq[i], 4), fmt4(pe[pos][2 * i]), fmt4(pe[pos][2 * i + 1])];
      rows.push("<tr" + style + ">" + cells.map(function (c) {
        return "<td>" + c + "</td>";
      }).join("") + "</tr>");
    });
    return "<table>" + rows.join("\n") + "</table>";
  }

  function lectureNumbers(pos, d, k, pair) {
    var sim = fmt4(DATA.sim[d][k]);
    var sum = "&Sigma;<sub>i</sub> cos(k&middot;&omega;<sub>i</sub>)";
    return "<h3>PE[" + pos + "], d = " + d + "</h3>" + pairTable(pos, d, pair) +
      '<div class="posenc-lecture-dot">PE[' + pos + "] &middot; PE[" + (pos + k) +
      "] = " + sim + "<br>= " + sum + " = " + sim + "<br><small>the same for every " +
      "pos; d/2 = " + d / 2 + " at k = 0</small></div>";
  }

  function lectureFigure(figure, pos, d, k, pair, n) {
    figure.textContent = "";
    var svg = el("svg", {viewBox: "0 0 740 510", role: "img", "aria-label":
                 "Bars of PE[" + pos + "], heatmap rows " + pos + " and " + (pos + k) +
                 ", pair " + pair + " on the unit circle"}, figure);
    var font = 14, H = 510, W = 740;
    var box = function (l, b, w, h) { return [l * W, H * (1 - b - h), w * W, h * H]; };
    var barsBox = box(0.09, 0.64, 0.89, 0.29);
    bars(svg, barsBox, d, pos, font, function (c) { return (c >> 1) === pair; });
    label(svg, barsBox[0], barsBox[1] - 8, "PE[" + pos + "], d = " + d, 16, false, "start");
    label(svg, 18, barsBox[1] + barsBox[3] / 2, "value", font, true);
    label(svg, barsBox[0] + barsBox[2] / 2, barsBox[1] + barsBox[3] + 34,
          "column k   (blue: sin, even k;  orange: cos, odd k)", font);
    var heat = box(0.09, 0.11, 0.36, 0.33);
    heatmapImage(svg, heat, d, n);
    var xs = scale(-0.5, d - 0.5, heat[0], heat[0] + heat[2]);
    var ys = scale(-0.5, n - 0.5, heat[1], heat[1] + heat[3]);
    axes(svg, heat, xs, ys, ticks(0, d - 1, 4).filter(Number.isInteger),
         ticks(0, n - 1, 4), font);
    [[pos, "none"], [pos + k, "6 4"]].forEach(function (row) {
      if (row[0] >= n) return;
      el("rect", {x: heat[0], y: ys(row[0] - 0.5), width: heat[2],
                  height: ys(1) - ys(0), fill: "none", stroke: "#000",
                  "stroke-width": 2.5, "stroke-dasharray": row[1]}, svg);
    });
    label(svg, heat[0] + heat[2] / 2, heat[1] - 8, "PE: rows pos and pos + k", 15);
    label(svg, heat[0] + heat[2] / 2, H - 14, "column", font);
    label(svg, 18, heat[1] + heat[3] / 2, "position", font, true);
    colorbar(svg, box(0.465, 0.11, 0.015, 0.33), font, [-1, 0, 1]);
    var cbox = box(0.6, 0.11, 0.38, 0.33), size = Math.min(cbox[2], cbox[3]);
    var stage = [cbox[0] + (cbox[2] - size) / 2, cbox[1], size];
    var c = circleStage(svg, stage, 1.3);
    el("line", {x1: c.x(-1.3), x2: c.x(1.3), y1: c.y(0), y2: c.y(0), stroke: "#d9d9d9"}, svg);
    el("line", {x1: c.x(0), x2: c.x(0), y1: c.y(-1.3), y2: c.y(1.3), stroke: "#d9d9d9"}, svg);
    var omega = DATA.freq[d][pair], turn = (k * omega) % (2 * Math.PI), pts = [];
    for (var i = 0; i < 60; i++) {
      var a = pos * omega + turn * i / 59;
      pts.push(c.x(Math.sin(a)) + "," + c.y(Math.cos(a)));
    }
    el("polyline", {points: pts.join(" "), fill: "none", stroke: "#333",
                    "stroke-width": 2.5}, svg);
    var pe = DATA.pe[d], last = n - 1;
    var start = [value(pe, pos, 2 * pair), value(pe, pos, 2 * pair + 1)];
    el("circle", {cx: c.x(start[0]), cy: c.y(start[1]), r: 7, fill: SIN}, svg);
    if (pos + k <= last) {
      var end = [value(pe, pos + k, 2 * pair), value(pe, pos + k, 2 * pair + 1)];
      el("circle", {cx: c.x(end[0]), cy: c.y(end[1]), r: 7, fill: "none",
                    stroke: "#000", "stroke-width": 2.5}, svg);
    }
    el("circle", {cx: c.x(-0.35), cy: c.y(0.12), r: 6, fill: SIN}, svg);
    label(svg, c.x(-0.2), c.y(0.12) + 5, "pos", 13, false, "start");
    el("circle", {cx: c.x(-0.35), cy: c.y(-0.18), r: 6, fill: "none", stroke: "#000",
                  "stroke-width": 2}, svg);
    label(svg, c.x(-0.2), c.y(-0.18) + 5, "pos + k", 13, false, "start");
    label(svg, stage[0] + size / 2, stage[1] - 8,
          "pair " + pair + ": k·ω = " + pyG(k * omega, 3) + " rad", 16);
    label(svg, stage[0] + size / 2, H - 14, "sin", font);
    label(svg, stage[0] - 10, stage[1] + size / 2, "cos", font, true);
  }

  /* The lecture explorer (pos, d, k, pair): figure and numbers panel. */
  function lectureExplorer(root, config) {
    var numbers = root.querySelector(".posenc-lecture-numbers");
    var figure = root.querySelector(".posenc-figure");
    var n = config.maxPos + config.maxOffset + 1;
    function draw() {
      var d = +slider(root, "d").value, pairInput = slider(root, "pair");
      pairInput.max = d / 2 - 1;  /* as the widget: pair's range follows d */
      if (+pairInput.value > d / 2 - 1) pairInput.value = d / 2 - 1;
      readout(pairInput);
      var pos = +slider(root, "pos").value, k = +slider(root, "k").value;
      var pair = +pairInput.value;
      numbers.innerHTML = lectureNumbers(pos, d, k, pair);
      lectureFigure(figure, pos, d, k, pair, n);
    }
    wire(root, ["pos", "d", "k", "pair"], draw);
  }

  var KINDS = {position: positionExplorer, "pair-circle": pairCircle,
               lecture: lectureExplorer};
  window.posencFormat = {fmt4: fmt4, pyG: pyG};  /* checked by the browser tests */
  document.querySelectorAll(".posenc-static").forEach(function (root) {
    KINDS[root.dataset.kind](root, JSON.parse(root.dataset.config));
    root.classList.add("posenc-ready");
  });
})();
