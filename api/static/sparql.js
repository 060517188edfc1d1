/* SPARQL page: a small highlighter over a textarea, a results table, downloads.
   Everything from the server or the query is put in the page as text (textContent), never
   as markup. */
(function () {
  "use strict";
  var app = document.getElementById("sparql-app");
  if (!app) { return; }
  var endpoint = app.dataset.endpoint || "/sparql";
  var prefixes = JSON.parse(app.dataset.prefixes || "{}");
  var base = app.dataset.base || "";
  var textarea = document.getElementById("query");
  var pre = document.getElementById("highlight");
  var statusLine = document.getElementById("status");
  var resultsBox = document.getElementById("results");
  var examples = JSON.parse(document.getElementById("example-queries").textContent);

  var KEYWORDS = ("select construct describe ask where from named prefix base distinct reduced " +
    "optional union minus graph service filter bind values as order by asc desc limit offset " +
    "group having not exists in a true false count sum min max avg sample group_concat " +
    "separator str lang langmatches datatype bound iri uri bnode rand abs ceil floor round " +
    "concat strlen ucase lcase encode_for_uri contains strstarts strends strbefore strafter " +
    "year month day hours minutes seconds timezone tz now uuid struuid md5 sha1 sha256 sha384 " +
    "sha512 coalesce if strlang strdt sameterm isiri isuri isblank isliteral isnumeric regex " +
    "substr replace").split(" ");
  var KEYWORD_SET = {};
  KEYWORDS.forEach(function (k) { KEYWORD_SET[k] = true; });

  // One regex, one alternative per token class, tried left to right.
  var TOKEN = new RegExp([
    "(#[^\\n]*)",                                    // 1 comment
    "(\"\"\"[\\s\\S]*?\"\"\"|'''[\\s\\S]*?'''|\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*')", // 2 string
    "(<[^<>\"{}|^`\\\\\\s]*>)",                      // 3 IRI
    "([?$][A-Za-z_0-9\\u00C0-\\uFFFF]+)",            // 4 variable
    "([A-Za-z][\\w.-]*)?:([\\w.%-]*)",               // 5,6 prefixed name
    "(\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)",          // 7 number
    "([A-Za-z_]+)",                                  // 8 word
  ].join("|"), "g");

  function highlight() {
    var text = textarea.value;
    var frag = document.createDocumentFragment();
    var last = 0;
    var match;
    TOKEN.lastIndex = 0;
    while ((match = TOKEN.exec(text)) !== null) {
      if (match[0] === "") { TOKEN.lastIndex++; continue; }
      if (match.index > last) { frag.appendChild(document.createTextNode(text.slice(last, match.index))); }
      var cls = null;
      if (match[1] !== undefined) { cls = "tok-comment"; }
      else if (match[2] !== undefined) { cls = "tok-string"; }
      else if (match[3] !== undefined) { cls = "tok-iri"; }
      else if (match[4] !== undefined) { cls = "tok-var"; }
      else if (match[6] !== undefined) { cls = "tok-pname"; }
      else if (match[7] !== undefined) { cls = "tok-number"; }
      else if (match[8] !== undefined && KEYWORD_SET[match[8].toLowerCase()]) { cls = "tok-keyword"; }
      if (cls) {
        var span = document.createElement("span");
        span.className = cls;
        span.textContent = match[0];
        frag.appendChild(span);
      } else {
        frag.appendChild(document.createTextNode(match[0]));
      }
      last = match.index + match[0].length;
    }
    if (last < text.length) { frag.appendChild(document.createTextNode(text.slice(last))); }
    // A trailing newline in a <pre> collapses; keep the heights of pre and textarea equal.
    frag.appendChild(document.createTextNode("\n"));
    pre.textContent = "";
    pre.appendChild(frag);
    syncScroll();
  }

  function syncScroll() {
    pre.scrollTop = textarea.scrollTop;
    pre.scrollLeft = textarea.scrollLeft;
  }

  function withPrefixes(query) {
    var declared = {};
    query.replace(/^\s*PREFIX\s+([A-Za-z][\w.-]*)?:/gim, function (m, name) {
      declared[name || ""] = true;
      return m;
    });
    var head = "";
    Object.keys(prefixes).forEach(function (name) {
      if (!declared[name] && new RegExp("(^|[\\s(/^|,;])" + name + ":").test(query)) {
        head += "PREFIX " + name + ": <" + prefixes[name] + ">\n";
      }
    });
    return head + query;
  }

  function queryForm(query) {
    var body = query.replace(/#[^\n]*/g, " ")
      .replace(/^\s*(PREFIX\s+[^:]*:\s*<[^>]*>|BASE\s*<[^>]*>)\s*/gi, "");
    var m = /\b(SELECT|CONSTRUCT|DESCRIBE|ASK)\b/i.exec(body);
    return m ? m[1].toUpperCase() : "SELECT";
  }

  var ACCEPT = {
    table: {SELECT: "application/sparql-results+json", ASK: "application/sparql-results+json",
            CONSTRUCT: "text/turtle", DESCRIBE: "text/turtle"},
    json: {SELECT: "application/sparql-results+json", ASK: "application/sparql-results+json",
           CONSTRUCT: "application/ld+json", DESCRIBE: "application/ld+json"},
    csv: {SELECT: "text/csv", ASK: "text/csv", CONSTRUCT: "application/n-triples",
          DESCRIBE: "application/n-triples"},
    tsv: {SELECT: "text/tab-separated-values", ASK: "text/tab-separated-values",
          CONSTRUCT: "application/n-triples", DESCRIBE: "application/n-triples"},
    xml: {SELECT: "application/sparql-results+xml", ASK: "application/sparql-results+xml",
          CONSTRUCT: "application/rdf+xml", DESCRIBE: "application/rdf+xml"},
  };
  var EXTENSION = {"application/sparql-results+json": "json", "application/ld+json": "jsonld",
    "text/csv": "csv", "text/tab-separated-values": "tsv", "application/n-triples": "nt",
    "application/sparql-results+xml": "xml", "application/rdf+xml": "rdf", "text/turtle": "ttl"};

  function request(query, accept) {
    var full = withPrefixes(query);
    var url = endpoint + "?query=" + encodeURIComponent(full);
    if (url.length < 6000) {
      return fetch(url, {headers: {Accept: accept}});
    }
    return fetch(endpoint, {method: "POST", headers: {Accept: accept,
      "Content-Type": "application/x-www-form-urlencoded"}, body: new URLSearchParams({query: full})});
  }

  function errorText(response) {
    return response.text().then(function (body) {
      try {
        var parsed = JSON.parse(body);
        if (parsed && parsed.error && parsed.error.message) { return parsed.error.message; }
      } catch (e) { /* not JSON */ }
      return body.slice(0, 500) || response.statusText;
    });
  }

  function setStatus(text, isError) {
    statusLine.textContent = text;
    statusLine.classList.toggle("error", !!isError);
  }

  function pageFor(iri) {
    if (!base || iri.indexOf(base) !== 0) { return null; }
    var rest = iri.slice(base.length).split("/");
    if (rest.length !== 2 || !rest[1]) { return null; }
    if (rest[0] === "paper") { return "/paper/" + encodeURIComponent(rest[1]); }
    if (["method", "dataset", "model", "task", "metric", "domain", "claim"].indexOf(rest[0]) >= 0) {
      return "/entity/" + rest[0] + "/" + encodeURIComponent(rest[1]);
    }
    return null;
  }

  function cell(term) {
    var td = document.createElement("td");
    if (!term) { return td; }
    if (term.type === "uri") {
      var href = pageFor(term.value);
      if (href) {
        var a = document.createElement("a");
        a.href = href;
        a.textContent = term.value;
        td.appendChild(a);
      } else {
        td.textContent = term.value;
      }
      td.className = "iri";
    } else {
      td.textContent = term.value;
      if (term.type === "bnode") { td.textContent = "_:" + term.value; }
      if (term["xml:lang"]) { td.title = "@" + term["xml:lang"]; }
      else if (term.datatype) { td.title = term.datatype; }
    }
    return td;
  }

  function showTable(data) {
    resultsBox.textContent = "";
    if (typeof data.boolean === "boolean") {
      var p = document.createElement("p");
      p.className = "boolean";
      p.textContent = data.boolean ? "true" : "false";
      resultsBox.appendChild(p);
      setStatus("ASK: " + p.textContent);
      return;
    }
    var vars = (data.head && data.head.vars) || [];
    var rows = (data.results && data.results.bindings) || [];
    var table = document.createElement("table");
    table.className = "data";
    table.id = "sparql-results";
    var thead = table.createTHead().insertRow();
    vars.forEach(function (v) {
      var th = document.createElement("th");
      th.textContent = v;
      thead.appendChild(th);
    });
    var tbody = table.createTBody();
    rows.forEach(function (binding) {
      var tr = tbody.insertRow();
      vars.forEach(function (v) { tr.appendChild(cell(binding[v])); });
    });
    resultsBox.appendChild(table);
    setStatus(rows.length + " row" + (rows.length === 1 ? "" : "s"));
  }

  function showText(text) {
    resultsBox.textContent = "";
    var out = document.createElement("pre");
    out.className = "graph-result";
    out.textContent = text;
    resultsBox.appendChild(out);
  }

  function run() {
    var query = textarea.value;
    var form = queryForm(query);
    var started = performance.now();
    setStatus("Running…");
    history.replaceState(null, "", "?query=" + encodeURIComponent(query));
    request(query, ACCEPT.table[form]).then(function (response) {
      if (!response.ok) {
        return errorText(response).then(function (msg) {
          resultsBox.textContent = "";
          setStatus("Error " + response.status + ": " + msg, true);
        });
      }
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("json") >= 0) {
        return response.json().then(function (data) {
          showTable(data);
          statusLine.textContent += " in " + Math.round(performance.now() - started) + " ms";
        });
      }
      return response.text().then(function (text) {
        showText(text);
        setStatus(form + " result in " + Math.round(performance.now() - started) + " ms");
      });
    }).catch(function (err) {
      setStatus("Request failed: " + err, true);
    });
  }

  function download(format) {
    var query = textarea.value;
    var accept = ACCEPT[format][queryForm(query)];
    setStatus("Preparing download…");
    request(query, accept).then(function (response) {
      if (!response.ok) {
        return errorText(response).then(function (msg) {
          setStatus("Error " + response.status + ": " + msg, true);
        });
      }
      return response.blob().then(function (blob) {
        var a = document.createElement("a");
        a.href = URL.createObjectURL(blob);
        a.download = "results." + (EXTENSION[accept] || format);
        document.body.appendChild(a);
        a.click();
        setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
        setStatus("Downloaded " + a.download);
      });
    }).catch(function (err) { setStatus("Request failed: " + err, true); });
  }

  textarea.addEventListener("input", highlight);
  textarea.addEventListener("scroll", syncScroll);
  textarea.addEventListener("keydown", function (event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      run();
    } else if (event.key === "Tab" && !event.shiftKey) {
      event.preventDefault();
      var s = textarea.selectionStart;
      textarea.setRangeText("  ", s, textarea.selectionEnd, "end");
      highlight();
    }
  });
  document.getElementById("run").addEventListener("click", run);
  Array.prototype.forEach.call(document.querySelectorAll("button.download"), function (b) {
    b.addEventListener("click", function () { download(b.dataset.format); });
  });
  document.getElementById("examples").addEventListener("change", function (event) {
    var i = parseInt(event.target.value, 10);
    if (!isNaN(i) && examples[i] !== undefined) {
      textarea.value = examples[i];
      highlight();
    }
  });
  window.paperkgSparql = {run: run, highlight: highlight, withPrefixes: withPrefixes};
  highlight();
})();
