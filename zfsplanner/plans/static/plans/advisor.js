// The layout advisor: choosing "A disk not in the catalog" opens that disk's description.
(function () {
  "use strict";
  document.addEventListener("change", function (e) {
    const select = e.target.closest ? e.target.closest("select[data-custom-disk]") : null;
    if (!select) return;
    const details = document.querySelector('details[data-custom-for="' + select.id + '"]');
    if (!details) return;
    details.open = select.value === select.dataset.customDisk;
    if (details.open) {
      const size = details.querySelector("input");
      if (size && !size.value) size.focus();
    }
  });
})();
