// Benchmarks page: choose or drop files, say what each one measured, then upload.
// Choosing files only lists them (one fieldset per file: label, target, design, disk); nothing
// is sent until the user presses Upload. Each file then goes in its own request (the size
// limit is per upload) with the shared fields of the form and its own fields on top. The
// server answers with a table row that polls its own status through htmx; it goes to the top
// of the runs table. Without JavaScript the form posts all files at once with the shared fields.
(function () {
  "use strict";

  function sizeText(bytes) {
    const units = ["B", "kB", "MB", "GB", "TB"];
    let v = bytes, i = 0;
    while (v >= 1000 && i < units.length - 1) { v /= 1000; i++; }
    return (i === 0 ? v.toFixed(0) : v.toFixed(v >= 100 ? 0 : 1)) + " " + units[i];
  }

  function csrfToken(form) {
    const input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function errorRow(message) {
    const tr = document.createElement("tr");
    tr.className = "upload-error";
    tr.appendChild(document.createElement("td"));
    const td = document.createElement("td");
    td.colSpan = 5;
    td.className = "error";
    td.textContent = message;
    tr.appendChild(td);
    return tr;
  }

  function rowsFrom(html) {
    const tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    return Array.from(tpl.content.children).filter(function (el) { return el.tagName === "TR"; });
  }

  function insertRows(rows) {
    const body = document.getElementById("runs-body");
    if (!body) return;
    const empty = body.querySelector("tr.empty");
    if (empty) empty.remove();
    rows.slice().reverse().forEach(function (row) {
      const existing = row.id ? document.getElementById(row.id) : null;
      if (existing) existing.replaceWith(row);
      else body.prepend(row);
      if (window.htmx) window.htmx.process(row);
    });
  }

  function setUp(form) {
    const input = form.querySelector("input[type=file]");
    const zone = form.querySelector("[data-dropzone]") || form;
    const list = form.querySelector("[data-upload-queue]");
    const template = document.getElementById("file-row-template");
    const button = form.querySelector("[data-upload-button]");
    const clear = form.querySelector("[data-clear-button]");
    const queue = [];
    let counter = 0;

    form.querySelectorAll("[data-js-only]").forEach(function (el) { el.hidden = false; });
    if (input) input.required = false;

    function refresh() {
      button.disabled = queue.length === 0 || form.dataset.uploadState === "busy";
      button.textContent = queue.length ? "Upload " + queue.length + (queue.length === 1 ? " file" : " files") : "Upload";
      if (clear) clear.hidden = queue.length === 0;
      form.dataset.queued = String(queue.length);
    }

    function remove(item) {
      const i = queue.indexOf(item);
      if (i >= 0) queue.splice(i, 1);
      item.row.remove();
      refresh();
    }

    function add(files) {
      Array.from(files || []).forEach(function (file) {
        const row = template.content.firstElementChild.cloneNode(true);
        counter += 1;
        row.dataset.fileIndex = String(counter);
        row.querySelector("[data-file-name]").textContent = file.name;
        row.querySelector("[data-file-size]").textContent = sizeText(file.size);
        row.querySelectorAll("[data-field]").forEach(function (field) {
          field.name = field.dataset.field + "-" + counter;  // unique, so the browser keeps each value
        });
        const item = { file: file, row: row };
        row.querySelector("[data-remove-file]").addEventListener("click", function () { remove(item); });
        list.appendChild(row);
        queue.push(item);
      });
      if (input) input.value = "";  // choosing again adds to the list
      refresh();
      const first = list.querySelector("fieldset:last-of-type [data-field=label]");
      if (first && files && files.length) first.focus();
    }

    function showError(item, message) {
      const p = item.row.querySelector("[data-file-error]");
      p.textContent = message;
      p.hidden = false;
      item.row.dataset.state = "error";
    }

    function send(item) {
      const data = new FormData(form);
      data.delete("files");
      Array.from(data.keys()).forEach(function (key) { if (/-\d+$/.test(key)) data.delete(key); });
      data.append("files", item.file, item.file.name);
      item.row.querySelectorAll("[data-field]").forEach(function (field) {
        if (field.value) data.set(field.dataset.field, field.value);
      });
      item.row.dataset.state = "sending";
      return fetch(form.action, {
        method: "POST",
        body: data,
        credentials: "same-origin",
        headers: { "HX-Request": "true", "X-CSRFToken": csrfToken(form) },
      })
        .then(function (r) {
          return r.text().then(function (text) {
            const rows = rowsFrom(text);
            if (r.ok) {
              insertRows(rows);
              remove(item);
              return;
            }
            const cell = rows.length ? rows[0].querySelector(".error") : null;
            const why = r.status === 429 ? text.trim() : "upload failed (HTTP " + r.status + ")";  // rate limit: its own words
            showError(item, cell ? cell.textContent : item.file.name + ": " + why);
          });
        })
        .catch(function (err) {
          showError(item, item.file.name + ": upload failed (" + err.message + ")");
        });
    }

    function uploadAll() {
      if (!queue.length) return;
      form.dataset.uploadState = "busy";
      refresh();
      let chain = Promise.resolve();
      queue.slice().forEach(function (item) {
        chain = chain.then(function () { return send(item); });
      });
      chain.then(function () {
        form.dataset.uploadState = "idle";
        refresh();
      });
    }

    form.addEventListener("submit", function (e) {
      e.preventDefault();
      uploadAll();
    });
    if (input) input.addEventListener("change", function () { add(input.files); });
    if (clear) clear.addEventListener("click", function () { queue.slice().forEach(remove); });
    ["dragenter", "dragover"].forEach(function (type) {
      zone.addEventListener(type, function (e) { e.preventDefault(); zone.classList.add("dragging"); });
    });
    ["dragleave", "drop"].forEach(function (type) {
      zone.addEventListener(type, function (e) { e.preventDefault(); zone.classList.remove("dragging"); });
    });
    zone.addEventListener("drop", function (e) { add(e.dataTransfer && e.dataTransfer.files); });
    form.dataset.uploadState = "idle";
    refresh();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-upload-form]").forEach(setUp);
  });
})();
