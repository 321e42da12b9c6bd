// Report page: a print button and a copy-link button (no inline scripts: the CSP allows only files).
document.addEventListener("click", (event) => {
  const print = event.target.closest("[data-print]");
  if (print) {
    window.print();
    return;
  }
  const copy = event.target.closest("[data-copy]");
  if (!copy) return;
  const field = document.querySelector(copy.dataset.copy);
  const status = document.getElementById("copy-status");
  const done = (text) => { if (status) status.textContent = text; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(() => done("Copied."), () => done("Select the link and copy it."));
  } else {
    field.select();
    done(document.execCommand && document.execCommand("copy") ? "Copied." : "Select the link and copy it.");
  }
});
