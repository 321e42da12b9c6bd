// Drag-and-drop and multi-file upload on the benchmarks page.
// Each file is sent in its own request (the size limit is per upload), one after the other;
// the server answers with a table row that polls its own status through htmx, and the row
// goes to the top of the runs table. Without JavaScript the form posts all files at once.
(function () {
  "use strict";

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

  function insertRows(rows) {
    const body = document.getElementById("runs-body");
    if (!body) return;
    const empty = body.querySelector("tr.empty");
    if (empty) empty.remove();
    rows.reverse().forEach(function (row) {
      const existing = row.id ? document.getElementById(row.id) : null;
      if (existing) existing.replaceWith(row);
      else body.prepend(row);
      if (window.htmx) window.htmx.process(row);
    });
  }

  function rowsFrom(html) {
    const tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    return Array.from(tpl.content.children).filter(function (el) { return el.tagName === "TR"; });
  }

  function send(form, file) {
    const data = new FormData(form);
    data.delete("files");
    data.append("files", file, file.name);
    return fetch(form.action, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken(form) },
    })
      .then(function (r) {
        return r.text().then(function (text) {
          const rows = r.ok || r.status === 413 || r.status === 422 ? rowsFrom(text) : [];
          const why = r.status === 429 ? text : "upload failed (HTTP " + r.status + ")";
          insertRows(rows.length ? rows : [errorRow(file.name + ": " + why)]);
        });
      })
      .catch(function (err) {
        insertRows([errorRow(file.name + ": upload failed (" + err.message + ")")]);
      });
  }

  function uploadAll(form, files) {
    const list = Array.from(files || []);
    if (!list.length) return;
    form.dataset.uploadState = "busy";
    let chain = Promise.resolve();
    list.forEach(function (file) {
      chain = chain.then(function () { return send(form, file); });
    });
    chain.then(function () {
      const input = form.querySelector("input[type=file]");
      if (input) input.value = "";
      form.dataset.uploadState = "idle";
    });
  }

  function setUp(form) {
    const input = form.querySelector("input[type=file]");
    const zone = form.querySelector("[data-dropzone]") || form;
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      uploadAll(form, input && input.files);
    });
    if (input) input.addEventListener("change", function () { uploadAll(form, input.files); });
    ["dragenter", "dragover"].forEach(function (type) {
      zone.addEventListener(type, function (e) { e.preventDefault(); zone.classList.add("dragging"); });
    });
    ["dragleave", "drop"].forEach(function (type) {
      zone.addEventListener(type, function (e) { e.preventDefault(); zone.classList.remove("dragging"); });
    });
    zone.addEventListener("drop", function (e) { uploadAll(form, e.dataTransfer && e.dataTransfer.files); });
    form.dataset.uploadState = "idle";
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-upload-form]").forEach(setUp);
  });
})();
