// The designer's small behaviours: tabs, dRAID-only and custom-disk fields shown when they apply.
// Everything works without it (all fields show); it only hides what does not apply.
(function () {
  "use strict";

  function syncForm(form) {
    const layout = form.querySelector("select[name$='layout']");
    const draid = form.querySelector(".draid-only");
    if (layout && draid) draid.hidden = !layout.value.startsWith("draid");
    const disk = form.querySelector("select[name$='disk']");
    const custom = form.querySelector(".custom-disk");
    if (disk && custom) custom.hidden = disk.value !== "__custom__";
    const type = form.querySelector("select[name$='-type']");
    if (type) {
      const volume = type.value === "volume";
      form.querySelectorAll(".field-volsize, .field-volblocksize").forEach(function (el) { el.hidden = !volume; });
      form.querySelectorAll(".field-recordsize, .field-file_count").forEach(function (el) { el.hidden = volume; });
    }
  }

  function showTab(root, id) {
    root.querySelectorAll(".tab-panel").forEach(function (p) { p.hidden = p.id !== id; });
    root.querySelectorAll(".tabs a").forEach(function (a) { a.classList.toggle("active", a.dataset.tab === id); });
  }

  function init(root) {
    root.querySelectorAll("form.vdev-form, form.dataset-form").forEach(syncForm);
  }

  document.addEventListener("change", function (e) {
    const form = e.target.closest && e.target.closest("form.vdev-form, form.dataset-form");
    if (form) syncForm(form);
  });
  document.addEventListener("click", function (e) {
    const tab = e.target.closest && e.target.closest(".tabs a[data-tab]");
    if (!tab) return;
    e.preventDefault();
    showTab(document.getElementById("designer") || document, tab.dataset.tab);
  });
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  // A swap may replace a whole form (a vdev group's role brings that role's defaults): sync every form.
  document.addEventListener("htmx:afterSwap", function () { init(document); });
})();
