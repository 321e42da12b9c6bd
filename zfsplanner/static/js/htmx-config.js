// htmx 2 does not swap 4xx responses by default; an invalid form comes back with 422
// and must replace the form so its error messages show; an edit conflict (409) comes back as
// the designer with the user's input kept and the message shown.
document.addEventListener("DOMContentLoaded", function () {
  if (!window.htmx) return;
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "422", swap: true },
    { code: "409", swap: true },
    { code: "[45]..", swap: false, error: true },
    { code: "...", swap: true },
  ];
});
