// Live updates for the mco dashboard: the server sends an event on
// /events when what the page shows may have changed; the page then fetches
// its own main section again and swaps it in, keeping focus and scroll.
(function () {
  "use strict";
  var main = document.getElementById("main");
  var state = document.getElementById("live-state");
  if (!main || !window.EventSource) { return; }
  var pending = false, busy = false;
  function refresh() {
    if (busy) { pending = true; return; }
    busy = true;
    fetch(window.location.pathname + window.location.search, { headers: { "X-MCO-Partial": "1" }, credentials: "same-origin" })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
      .then(function (html) {
        var active = document.activeElement && document.activeElement.id;
        main.innerHTML = html;
        if (active) { var el = document.getElementById(active); if (el) { el.focus(); } }
        state.textContent = "Live, updated " + new Date().toLocaleTimeString();
      })
      .catch(function () { state.textContent = "Live updates paused: the dashboard does not answer"; })
      .then(function () { busy = false; if (pending) { pending = false; refresh(); } });
  }
  var events = new EventSource("/events");
  events.addEventListener("changed", refresh);
  events.onerror = function () { state.textContent = "Reconnecting…"; };
  events.onopen = function () { state.textContent = "Live"; };
})();
