// rolemark preview: tabs, and a reload when a file in the directory changes.
(function () {
  "use strict";
  var body = document.body;
  var version = body.getAttribute("data-version");
  var poll = parseInt(body.getAttribute("data-poll"), 10) || 500;

  // saving is set while Save as case waits for its answer: the file it
  // writes changes the version, and the page goes to its cases itself.
  var saving = false;

  function tick() {
    fetch("/version", { cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(function (v) {
        if (saving) {
          setTimeout(tick, poll);
          return;
        }
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
    if (!show(want) && !show(document.getElementById("pane-compare") ? "compare" : "")) show("chat");
    tabs.forEach(function (b) {
      b.addEventListener("click", function () {
        var name = b.getAttribute("data-tab");
        show(name);
        history.replaceState(null, "", "#" + name);
      });
    });
  }

  var runBox = document.getElementById("run");
  var runButton = document.getElementById("run-button");
  if (runBox && runButton && !runButton.disabled) {
    runButton.addEventListener("click", function () { startRun(); });
  }

  // startRun posts the form to /run/PATH and shows the reply as it streams
  // in: text, tool calls as calls, then tokens and latency.
  function startRun() {
    var out = document.getElementById("run-out");
    var reply = document.getElementById("reply");
    var calls = document.getElementById("calls");
    var stats = document.getElementById("run-stats");
    var status = document.getElementById("run-status");
    var errBox = document.getElementById("run-error");
    out.hidden = false;
    reply.textContent = "";
    calls.textContent = "";
    stats.textContent = "";
    errBox.hidden = true;
    errBox.textContent = "";
    status.textContent = "running…";
    runButton.disabled = true;
    runBox.setAttribute("data-state", "running");
    var callEls = [];
    var usage = { input_tokens: 0, output_tokens: 0 };
    function callEl(i) {
      if (!callEls[i]) {
        var d = document.createElement("div");
        d.className = "toolcall";
        var k = document.createElement("span"); k.className = "kind"; k.textContent = "tool call";
        var n = document.createElement("span"); n.className = "tname";
        var id = document.createElement("span"); id.className = "callid";
        var pre = document.createElement("pre"); pre.className = "args";
        d.append(k, " ", n, " ", id, pre);
        calls.appendChild(d);
        callEls[i] = { el: d, name: n, id: id, args: pre };
      }
      return callEls[i];
    }
    function handle(ev) {
      switch (ev.type) {
        case "start":
          status.textContent = "running " + ev.model + " at " + ev.target + "…";
          break;
        case "text":
          reply.textContent += ev.text;
          break;
        case "tool_call":
          var c = callEl(ev.index || 0);
          if (ev.name) c.name.textContent = ev.name;
          if (ev.id) c.id.textContent = ev.id;
          if (ev.arguments) c.args.textContent += ev.arguments;
          break;
        case "usage":
          usage = ev;
          break;
        case "done":
          status.textContent = "done" + (ev.stop_reason ? " (" + ev.stop_reason + ")" : "");
          stats.textContent = ev.input_tokens + " tokens in · " + ev.output_tokens + " tokens out · first byte " +
            ev.first_byte_ms + " ms · total " + ev.latency_ms + " ms";
          callEls.forEach(function (c) {
            try { c.args.textContent = JSON.stringify(JSON.parse(c.args.textContent), null, 2); } catch (e) { /* as written */ }
          });
          runBox.setAttribute("data-state", "done");
          break;
        case "error":
          status.textContent = "failed";
          errBox.hidden = false;
          errBox.textContent = ev.msg;
          runBox.setAttribute("data-state", "error");
          break;
      }
    }
    var target = document.getElementById("run-target");
    var body = JSON.stringify({
      form: new URLSearchParams(new FormData(document.getElementById("inputs"))).toString(),
      target: target ? target.value : "",
      model: document.getElementById("run-model").value,
      config: document.getElementById("run-config").value
    });
    fetch("/run/" + runBox.getAttribute("data-path").split("/").map(encodeURIComponent).join("/"), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: body, cache: "no-store"
    }).then(function (r) {
      if (!r.ok) {
        return r.text().then(function (t) { handle({ type: "error", msg: t }); });
      }
      var reader = r.body.getReader();
      var dec = new TextDecoder();
      var buf = "";
      function pump() {
        return reader.read().then(function (chunk) {
          if (chunk.done) {
            if (buf.trim()) handle(JSON.parse(buf));
            return;
          }
          buf += dec.decode(chunk.value, { stream: true });
          var nl;
          while ((nl = buf.indexOf("\n")) >= 0) {
            var line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (line.trim()) handle(JSON.parse(line));
          }
          return pump();
        });
      }
      return pump();
    }).catch(function (e) {
      handle({ type: "error", msg: String(e) });
    }).then(function () {
      runButton.disabled = false;
      if (runBox.getAttribute("data-state") === "running") runBox.setAttribute("data-state", "done");
    });
  }

  // Save as case (rolemark serve --write-cases): posts the form and the
  // name to /case/PATH; once saved, shows the template's cases run, the
  // new one among them.
  var saveBox = document.getElementById("save-case");
  if (saveBox) {
    var saveButton = document.getElementById("save-case-button");
    var nameBox = document.getElementById("case-name");
    var saveStatus = document.getElementById("save-status");
    var say = function (text, ok) {
      saveStatus.hidden = false;
      saveStatus.textContent = text;
      saveStatus.className = ok ? "ok" : "error";
    };
    var save = function () {
      var name = nameBox.value.trim();
      if (!name) {
        say("Name the case first.", false);
        nameBox.focus();
        return;
      }
      var inputs = document.getElementById("inputs");
      var path = saveBox.getAttribute("data-path").split("/").map(encodeURIComponent).join("/");
      saving = true;
      saveButton.disabled = true;
      say("saving…", true);
      fetch("/case/" + path, {
        method: "POST", headers: { "Content-Type": "application/json" }, cache: "no-store",
        body: JSON.stringify({ form: new URLSearchParams(new FormData(inputs)).toString(), name: name })
      }).then(function (r) {
        if (!r.ok) {
          return r.text().then(function (t) { throw new Error(t.trim()); });
        }
        return r.json();
      }).then(function (saved) {
        say("Saved “" + saved.case + "” to " + saved.file + ".", true);
        var q = new URLSearchParams(new FormData(inputs));
        q.set("cases", "run");
        location.assign("/t/" + path + "?" + q.toString() + "#cases");
      }).catch(function (e) {
        saving = false;
        saveButton.disabled = false;
        say(e.message, false);
      });
    };
    saveButton.addEventListener("click", save);
    nameBox.addEventListener("keydown", function (e) {
      if (e.key === "Enter") {
        e.preventDefault();
        save();
      }
    });
  }

  var form = document.getElementById("inputs");
  if (form) {
    form.addEventListener("submit", function () {
      // keep the tab shown across the render, or show the side by side
      // when one is asked for
      var bformat = document.getElementById("bformat");
      var bvars = form.querySelector('[name="bvars"]');
      var hash = location.hash;
      if ((bformat && bformat.value) || (bvars && bvars.value.trim())) hash = "#compare";
      form.action = form.action.split("#")[0] + hash;
    });
    var format = document.getElementById("format");
    format.addEventListener("change", function () {
      if (tabs.length) history.replaceState(null, "", "#prompt");
      form.requestSubmit();
    });
  }
})();
