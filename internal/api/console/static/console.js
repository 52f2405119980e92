// msgx console: the admin token, kept in this browser tab's sessionStorage
// only, sent as "Authorization: Bearer" on the console's calls of /admin/*;
// and the msgx-json htmx extension, which posts a form as the JSON body the
// admin API takes. No inline script anywhere: the page's CSP forbids it.
(function () {
  "use strict";
  var KEY = "msgx-admin-token";
  function token() { try { return sessionStorage.getItem(KEY) || ""; } catch (e) { return ""; } }

  function showState() {
    var form = document.getElementById("token-form");
    var state = document.getElementById("token-state");
    if (!form || !state) { return; }
    var set = token() !== "";
    state.textContent = set ? "admin token: kept for this session" : "admin token: not set";
    form.classList.toggle("set", set);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("token-form");
    var input = document.getElementById("token-input");
    if (form && input) {
      form.addEventListener("submit", function (ev) {
        ev.preventDefault();
        if (input.value.trim() !== "") { sessionStorage.setItem(KEY, input.value.trim()); }
        input.value = "";
        showState();
      });
      document.getElementById("token-forget").addEventListener("click", function () {
        sessionStorage.removeItem(KEY);
        showState();
      });
    }
    showState();
  });

  // Times are airport local time with their offset; the UTC box (kept in
  // localStorage) shows each <time data-utc> in UTC instead.
  var UTC = "msgx-utc";
  function utcWanted() { try { return localStorage.getItem(UTC) === "1"; } catch (e) { return false; } }
  function showTimes(root) {
    var utc = utcWanted();
    (root || document).querySelectorAll("time[data-utc]").forEach(function (el) {
      if (!el.dataset.local) { el.dataset.local = el.textContent; }
      el.textContent = utc ? el.dataset.utc : el.dataset.local;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("utc-toggle");
    if (box) {
      box.checked = utcWanted();
      box.addEventListener("change", function () {
        try { localStorage.setItem(UTC, box.checked ? "1" : "0"); } catch (e) { /* private mode */ }
        showTimes();
      });
    }
    showTimes();
  });
  document.addEventListener("htmx:afterSwap", function (ev) { showTimes(ev.detail.target); });

  // The token goes to the admin routes only.
  document.addEventListener("htmx:configRequest", function (ev) {
    var t = token();
    if (t !== "" && ev.detail.path.indexOf("/admin/") === 0) {
      ev.detail.headers["Authorization"] = "Bearer " + t;
    }
  });

  // An error answer (JSON {"error": ...}) is shown in the target as text.
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var xhr = ev.detail.xhr;
    if (xhr.status < 400) { return; }
    var msg = xhr.status + " " + xhr.statusText;
    try { msg = xhr.status + ": " + JSON.parse(xhr.responseText).error; } catch (e) { /* not JSON */ }
    if (xhr.status === 401 || (xhr.status === 403 && document.getElementById("token-form"))) { msg += " — enter the admin token (top right)"; }
    ev.detail.shouldSwap = false;
    var p = document.createElement("p");
    p.className = "error-msg";
    p.textContent = msg;
    ev.detail.target.replaceChildren(p);
  });

  // htmx is loaded before this file (both deferred, in order).
  if (window.htmx) {
    // The admin API's bodies: ids a list of numbers, dry_run a boolean, a
    // day the range from..to of an RQFD, empty fields left out (the API refuses unknown or empty filters).
    window.htmx.defineExtension("msgx-json", {
      onEvent: function (name, ev) {
        if (name === "htmx:configRequest") { ev.detail.headers["Content-Type"] = "application/json"; }
      },
      encodeParameters: function (xhr, parameters) {
        xhr.overrideMimeType("text/html");
        var body = {};
        parameters.forEach(function (value, name) {
          value = String(value).trim();
          if (value === "") { return; }
          if (name === "ids") {
            body.ids = value.split(/[\s,]+/).filter(Boolean).map(Number);
          } else if (name === "day") { // an RQFD for a whole day, airport time
            body.from = value + "T00:00";
            body.to = value + "T23:59";
          } else if (name === "dry_run") {
            body.dry_run = value === "true";
          } else {
            body[name] = value;
          }
        });
        return JSON.stringify(body);
      }
    });
  }
})();
