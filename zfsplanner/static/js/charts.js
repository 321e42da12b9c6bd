// Draws every <canvas data-chart-url="..."> with Chart.js from a JSON endpoint.
// The JSON is {"type": "bar"|"line"|"scatter", "labels": [...], "datasets": [{"label", "data", ...}],
// "unit": "bytes"|"bytes_per_s"|"iops"|"us"|"fraction"|"percent"|"", "x_unit": optional unit of a numeric x axis,
// "y_scale": optional "logarithmic" (ticks at the powers of ten only), "title": optional}.
// Units are formatted here, in one place. Every chart keeps a readable plot area: when the
// title, legend and axis labels leave less than MIN_PLOT_PX (a phone), its box grows.
(function () {
  "use strict";

  const IEC = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
  const SI = ["B", "kB", "MB", "GB", "TB", "PB"];

  function scaled(value, base, names) {
    let v = Math.abs(value), i = 0;
    while (v >= base && i < names.length - 1) { v /= base; i++; }
    const digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
    return (value < 0 ? "-" : "") + v.toFixed(digits) + " " + names[i];
  }

  function formatValue(value, unit) {
    if (value === null || value === undefined || Number.isNaN(value)) return "–";
    switch (unit) {
      case "bytes": return scaled(value, 1024, IEC);
      case "bytes_si": return scaled(value, 1000, SI);
      case "bytes_per_s": return scaled(value, 1000, SI) + "/s";
      case "iops": return value >= 1000 ? (value / 1000).toFixed(1) + "k IOPS" : value.toFixed(0) + " IOPS";
      case "us": return value >= 1000 ? (value / 1000).toFixed(2) + " ms" : value.toFixed(1) + " µs";
      case "fraction": return (100 * value).toFixed(1) + " %";
      case "percent": return value.toFixed(1) + " %";
      case "s": return value.toFixed(1) + " s";
      default: return String(Math.round(value * 100) / 100);
    }
  }
  window.zfsFormat = formatValue;

  // Fixed colours for the capacity breakdown, so every chart and every design reads alike.
  const SEGMENT_COLOURS = {
    slop: "#c9b37e", pool_metadata: "#8c7bb5", layout: "#c7bfe0", data: "#2f6fce", reservations: "#5aa0e6",
    free: "#3f9d5d", special_used: "#c2571a", special_free: "#f0b27a", log: "#6b6b6b", cache: "#b0b0b0",
    embedded_log: "#8f8f8f", special_stop: "#a4161a", special_size: "#4d4d4d",
  };
  // A line filled to the next one (fill: "+1") shades the band between them in its own colour, lightly.
  const BAND_COLOURS = { special_stop: "rgba(164, 22, 26, 0.15)" };
  // Redundancy has one part per vdev group: shades of one colour, in group order.
  const REDUNDANCY_SHADES = ["#7d8aa3", "#a9b3c5", "#56627a", "#c9d0dc"];
  const MIN_PLOT_PX = 140;  // the least height (a horizontal bar chart: per bar, BAR_PX) of the plot itself
  const BAR_PX = 28;
  const NARROW_PX = 576;

  function colourSegments(spec) {
    (spec.datasets || []).forEach(function (d) {
      const colour = d.category === "redundancy"
        ? REDUNDANCY_SHADES[(d.shade || 0) % REDUNDANCY_SHADES.length]
        : d.key && SEGMENT_COLOURS[d.key];
      if (!colour) return;
      if (d.fill && BAND_COLOURS[d.key] && !d.backgroundColor) d.backgroundColor = BAND_COLOURS[d.key];
      if (!d.backgroundColor) d.backgroundColor = colour;
      if (spec.type === "line" && !d.borderColor) d.borderColor = colour;
    });
  }

  // A run with validity warnings nobody has checked (its dataset lists their codes in "validity"):
  // its bars get a thick amber outline. Colours are then given to every dataset here, in Chart.js's own
  // default palette, since the Colors plugin stands aside once any dataset has a colour.
  const PALETTE = [[54, 162, 235], [255, 99, 132], [255, 159, 64], [255, 205, 86], [75, 192, 192], [153, 102, 255], [201, 203, 207]];
  const WARNED_BORDER = "#b45309";
  function markWarned(spec) {
    const datasets = spec.datasets || [];
    if (!datasets.some(function (d) { return d.validity; })) return;
    datasets.forEach(function (d, i) {
      const c = PALETTE[i % PALETTE.length].join(", ");
      if (!d.backgroundColor) d.backgroundColor = "rgba(" + c + ", 0.5)";
      if (!d.borderColor) d.borderColor = d.validity ? WARNED_BORDER : "rgb(" + c + ")";
      if (d.validity) d.borderWidth = 3;
    });
  }

  // Powers of ten only on a logarithmic axis (1 MB, 10 MB, ... 10 TB): a label at every 2..9 overlaps.
  function logTick(value, unit) {
    const exponent = Math.log10(value);
    if (Math.abs(exponent - Math.round(exponent)) > 1e-9) return "";
    return formatValue(value, unit).replace(/\.0+ /, " ");  // "10 GB", not "10.0 GB"
  }

  // Room above and below the data: a line on the very edge of the plot is hard to see.
  function logBounds(spec) {
    let lo = Infinity, hi = 0;
    (spec.datasets || []).forEach(function (d) {
      (d.data || []).forEach(function (v) {
        if (typeof v === "number" && v > 0) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      });
    });
    return hi ? { min: lo / 2, max: hi * 2 } : {};
  }

  // After every layout (the first, and each resize: a phone turned, a <details> opened), grow the
  // chart's box until the plot area inside the axes is tall enough to read. It only ever grows, and
  // the box's new size reaches Chart.js through its resize observer.
  function keepPlotHeight(horizontal) {
    return {
      id: "zfsKeepPlotHeight",
      afterLayout: function (chart) {
        const box = chart.canvas.closest(".chart-box");
        const area = chart.chartArea;
        if (!box || !area || !box.clientWidth || !box.clientHeight) return;  // not laid out (hidden)
        const bars = horizontal ? (chart.data.labels || []).length : 0;
        const wanted = horizontal ? Math.max(bars * BAR_PX, BAR_PX * 1.5) : MIN_PLOT_PX;
        const short = wanted - (area.bottom - area.top);
        if (short > 1) box.style.height = Math.ceil(box.getBoundingClientRect().height + short) + "px";
      },
    };
  }

  function wrapLabel(text, width) {
    const lines = [];
    String(text).split(" ").forEach(function (word) {
      const last = lines.length - 1;
      if (last >= 0 && (lines[last] + " " + word).length <= width) lines[last] += " " + word;
      else lines.push(word);
    });
    return lines.length > 1 ? lines : text;
  }

  function draw(canvas) {
    if (canvas.dataset.chartDrawn === canvas.dataset.chartUrl) return;
    canvas.dataset.chartDrawn = canvas.dataset.chartUrl;
    fetch(canvas.dataset.chartUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      })
      .then(function (spec) {
        const unit = spec.unit || "";
        const numericX = spec.type === "line" && spec.x_unit;
        const horizontal = spec.indexAxis === "y";
        colourSegments(spec);
        markWarned(spec);
        // A chart may say how tall it needs to be (one row per bar); its box then grows to fit.
        const box = canvas.closest(".chart-box");
        if (box && spec.height) box.style.height = spec.height + "px";
        if (canvas._chart) canvas._chart.destroy();
        const logarithmic = spec.y_scale === "logarithmic";
        const narrow = canvas.getBoundingClientRect().width < NARROW_PX;
        const valueAxis = { beginAtZero: !logarithmic, stacked: !!spec.stacked,
                            title: { display: !!spec.y_label, text: spec.y_label || "" },
                            ticks: { callback: function (v) { return logarithmic ? logTick(v, unit) : formatValue(v, unit); } } };
        if (logarithmic) Object.assign(valueAxis, { type: "logarithmic" }, logBounds(spec));
        const categoryAxis = { stacked: !!spec.stacked, title: { display: !!spec.x_label, text: spec.x_label || "" } };
        if (spec.wrap_labels) {  // long category names break at spaces into lines of about this many characters
          categoryAxis.ticks = { autoSkip: false, callback: function (v) { return wrapLabel(this.getLabelForValue(v), spec.wrap_labels); } };
        }
        canvas._chart = new Chart(canvas, {
          type: spec.type || canvas.dataset.chartType || "bar",
          data: { labels: spec.labels, datasets: spec.datasets },
          plugins: [keepPlotHeight(horizontal)],
          options: {
            responsive: true,
            maintainAspectRatio: !canvas.closest(".chart-box"),
            indexAxis: horizontal ? "y" : "x",
            animation: false,
            parsing: numericX ? false : undefined,
            interaction: { mode: "nearest", intersect: false },
            plugins: {
              legend: { position: horizontal ? "bottom" : "top",
                        labels: { boxWidth: narrow ? 10 : 12, boxHeight: narrow ? 10 : 12, padding: narrow ? 6 : 10,
                                  font: { size: narrow ? 11 : 12 } } },
              title: { display: !!spec.title, text: spec.title },
              tooltip: {
                callbacks: {
                  label: function (ctx) {
                    const y = horizontal ? ctx.parsed.x : (ctx.parsed.y !== undefined ? ctx.parsed.y : ctx.parsed);
                    const text = Array.isArray(ctx.raw)  // a floating bar: a range [low, high]
                      ? formatValue(ctx.raw[0], unit) + " – " + formatValue(ctx.raw[1], unit)
                      : formatValue(y, unit);
                    return (ctx.dataset.label ? ctx.dataset.label + ": " : "") + text;
                  },
                },
              },
            },
            scales: horizontal ? { x: valueAxis, y: categoryAxis } : {
              x: numericX
                ? { type: "linear", title: { display: true, text: spec.x_label || "" },
                    ticks: { callback: function (v) { return formatValue(v, spec.x_unit); } } }
                : categoryAxis,
              y: valueAxis,
            },
          },
        });
        canvas.dataset.chartState = "ready";
      })
      .catch(function (err) {
        canvas.dataset.chartState = "error";
        const note = document.createElement("p");
        note.className = "error";
        note.textContent = "Chart could not be loaded: " + err.message;
        canvas.replaceWith(note);
      });
  }

  // A chart inside a closed <details> is fetched when the reader opens it, not with every swap.
  function drawAll(root) {
    (root || document).querySelectorAll("canvas[data-chart-url]").forEach(function (canvas) {
      const fold = canvas.closest("details");
      if (fold && !fold.open) return;
      draw(canvas);
    });
  }

  document.addEventListener("DOMContentLoaded", function () { drawAll(document); });
  document.addEventListener("htmx:afterSwap", function (e) { drawAll(e.target); });
  document.addEventListener("toggle", function (e) {
    if (e.target.tagName === "DETAILS" && e.target.open) drawAll(e.target);
  }, true);
})();
