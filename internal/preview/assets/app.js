// rolemark preview: tabs, and a reload when a file in the directory changes.
(function () {
  "use strict";
  var body = document.body;
  var version = body.getAttribute("data-version");
  var poll = parseInt(body.getAttribute("data-poll"), 10) || 500;

  function tick() {
    fetch("/version", { cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(function (v) {
        if (v !== version) {
          location.reload();
          return;
        }
        setTimeout(tick, poll);
      })
      .catch(function () {
        document.getElementById("live").textContent = "server stopped";
        setTimeout(tick, poll * 4);
      });
  }
  setTimeout(tick, poll);

  var tabs = document.querySelectorAll("[data-tab]");
  function show(name) {
    var found = false;
    tabs.forEach(function (b) {
      var on = b.getAttribute("data-tab") === name;
      found = found || on;
      b.setAttribute("aria-selected", on ? "true" : "false");
      document.getElementById("pane-" + b.getAttribute("data-tab")).hidden = !on;
    });
    return found;
  }
  if (tabs.length) {
    var want = location.hash.replace(/^#/, "");
    if (!show(want)) show("chat");
    tabs.forEach(function (b) {
      b.addEventListener("click", function () {
        var name = b.getAttribute("data-tab");
        show(name);
        history.replaceState(null, "", "#" + name);
      });
    });
  }

  var form = document.getElementById("inputs");
  if (form) {
    form.addEventListener("submit", function () {
      // keep the tab shown across the render
      form.action = form.action.split("#")[0] + location.hash;
    });
    var format = document.getElementById("format");
    format.addEventListener("change", function () {
      if (tabs.length) history.replaceState(null, "", "#prompt");
      form.requestSubmit();
    });
  }
})();
