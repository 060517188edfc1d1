/* Home page: an example query runs when clicked and its answer shows under the list.
   Cells are set with textContent: nothing from the graph becomes markup. */
(function () {
  "use strict";
  var list = document.getElementById("example-list");
  if (!list) { return; }
  var endpoint = list.dataset.endpoint || "/sparql";
  var box = document.getElementById("example-answer");
  var status = document.getElementById("example-status");
  var table = document.getElementById("example-table");
  var MAX_ROWS = 50;

  function cell(row, tag, text) {
    var c = document.createElement(tag);
    c.textContent = text;
    row.appendChild(c);
  }

  function show(title, answer) {
    var vars = answer.head.vars || [];
    var rows = answer.results.bindings || [];
    var head = table.tHead, body = table.tBodies[0];
    head.textContent = "";
    body.textContent = "";
    var tr = document.createElement("tr");
    vars.forEach(function (v) { cell(tr, "th", v); });
    head.appendChild(tr);
    rows.slice(0, MAX_ROWS).forEach(function (binding) {
      var r = document.createElement("tr");
      vars.forEach(function (v) { cell(r, "td", binding[v] ? binding[v].value : ""); });
      body.appendChild(r);
    });
    status.textContent = title + ": " + rows.length + " row" + (rows.length === 1 ? "" : "s") +
      (rows.length > MAX_ROWS ? " (the first " + MAX_ROWS + " shown)" : "");
  }

  list.addEventListener("click", function (event) {
    var link = event.target.closest("a.run-example");
    if (!link) { return; }
    event.preventDefault();
    box.hidden = false;
    status.textContent = "Running…";
    var body = new URLSearchParams({query: link.dataset.query});
    fetch(endpoint, {method: "POST", body: body,
                     headers: {"Accept": "application/sparql-results+json"}})
      .then(function (response) {
        return response.json().then(function (json) {
          if (!response.ok) { throw new Error((json.error && json.error.message) || response.statusText); }
          return json;
        });
      })
      .then(function (json) { show(link.textContent, json); })
      .catch(function (error) { status.textContent = "The query failed: " + error.message; });
  });
})();
