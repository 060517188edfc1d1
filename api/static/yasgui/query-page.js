/* The query page: YASGUI pointed at this server's endpoint, with the project's prefixes for
   its result tables, the page's query in the editor (run at once when the address asked
   for it) and the example queries a choice away. No request leaves the server: YASGUI's
   autocompleters that ask outside services are off, and nothing is kept in the browser. */
(function () {
  "use strict";
  var element = document.getElementById("yasgui");
  if (!element || typeof Yasgui === "undefined") { return; }
  var data = JSON.parse(document.getElementById("query-page-data").textContent);
  var endpoint = new URL(element.dataset.endpoint || "/sparql", window.location.href).href;
  var yasgui = new Yasgui(element, {
    requestConfig: { endpoint: endpoint, method: "POST" },
    endpointCatalogueOptions: { getData: function () { return [{ endpoint: endpoint }]; } },
    copyEndpointOnNewTab: true,
    persistenceId: null,
    populateFromUrl: false,
    autofocus: true,
    yasqe: { value: data.query, autocompleters: [], resizeable: true },
    yasr: { prefixes: data.prefixes, pluginOrder: ["table", "response"], defaultPlugin: "table" },
  });
  var tab = yasgui.getTab();
  tab.setQuery(data.query);
  if (element.dataset.run === "true") { tab.query(); }
  var examples = document.getElementById("examples");
  examples.addEventListener("change", function () {
    if (examples.value === "") { return; }
    var current = yasgui.getTab();
    current.setQuery(data.examples[Number(examples.value)]);
    current.query();
  });
  window.paperkgYasgui = yasgui;
})();
