/* Results: sort the table by a column; filter it and the leaderboards by dataset, metric and
   text. The chosen dataset and metric stay in the address, so a filtered page can be shared. */
(function () {
  "use strict";
  var table = document.getElementById("results-table");
  if (!table) { return; }
  var tbody = table.tBodies[0];
  var rows = Array.prototype.filter.call(tbody.rows, function (r) { return !r.classList.contains("empty"); });
  var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var text = document.getElementById("filter-text");
  var metric = document.getElementById("filter-metric");
  var dataset = document.getElementById("filter-dataset");
  var count = document.getElementById("row-count");
  var boards = Array.prototype.slice.call(document.querySelectorAll("#leaderboards .board"));
  var collator = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});

  function cellKey(row, index, numeric) {
    var c = row.cells[index];
    if (numeric) {
      var n = parseFloat(c.dataset.value);
      return isNaN(n) ? -Infinity : n;
    }
    return c.textContent.trim();
  }

  function sortBy(index) {
    var th = headers[index];
    var numeric = th.dataset.kind === "number";
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    headers.forEach(function (h) { h.setAttribute("aria-sort", "none"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var sorted = rows.slice().sort(function (a, b) {
      var x = cellKey(a, index, numeric), y = cellKey(b, index, numeric);
      var d = numeric ? (x - y) : collator.compare(x, y);
      return ascending ? d : -d;
    });
    sorted.forEach(function (r) { tbody.appendChild(r); });
  }

  function applyFilters() {
    var needle = text.value.trim().toLowerCase();
    var m = metric.value, d = dataset.value;
    var shown = 0;
    rows.forEach(function (r) {
      var ok = (!needle || r.textContent.toLowerCase().indexOf(needle) >= 0) &&
        (!m || r.dataset.metric === m) && (!d || r.dataset.dataset === d);
      r.hidden = !ok;
      if (ok) { shown++; }
    });
    count.textContent = shown + " of " + rows.length + " results";
    boards.forEach(function (b) {
      b.hidden = !((!m || b.dataset.metric === m) && (!d || b.dataset.dataset === d));
    });
  }

  function remember() {
    var params = new URLSearchParams(window.location.search);
    [["dataset", dataset.value], ["metric", metric.value]].forEach(function (pair) {
      if (pair[1]) { params.set(pair[0], pair[1]); } else { params.delete(pair[0]); }
    });
    var query = params.toString();
    window.history.replaceState(null, "", window.location.pathname + (query ? "?" + query : ""));
  }

  headers.forEach(function (th, i) {
    var button = th.querySelector("button");
    (button || th).addEventListener("click", function () { sortBy(i); });
  });
  text.addEventListener("input", applyFilters);
  metric.addEventListener("change", function () { applyFilters(); remember(); });
  dataset.addEventListener("change", function () { applyFilters(); remember(); });
  applyFilters();
})();
