"use strict";
// The account page: each form or button with data-api="METHOD /path" sends its fields as
// JSON with the page's CSRF token, then goes to data-then (or says what went wrong).
(() => {
  const { send } = window.hraj;
  const errorBox = document.getElementById("account-error");

  async function run(element, fields) {
    const [method, path] = element.dataset.api.split(" ");
    if (element.dataset.confirm && !window.confirm(element.dataset.confirm)) return;
    errorBox.hidden = true;
    try {
      await send(method, path, fields);
      location.assign(element.dataset.then || "/");
    } catch (error) {
      errorBox.textContent = error.message;
      errorBox.hidden = false;
    }
  }

  for (const form of document.querySelectorAll("form[data-api]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      run(form, Object.fromEntries(new FormData(form).entries()));
    });
  }
  for (const button of document.querySelectorAll("button[data-api]")) {
    button.addEventListener("click", () => run(button, null));
  }
})();
