(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var body = document.body;
  if (!data.nodes.length) { body.dataset.graphState = "still"; return; }
  var nodes = new vis.DataSet(data.nodes);
  var edges = new vis.DataSet(data.edges);
  var network = new vis.Network(document.getElementById("graph"),
                                {nodes: nodes, edges: edges}, data.options);
  window.paperkgNetwork = network;
  network.once("stabilizationIterationsDone", function () {
    network.setOptions({physics: false});
    if (data.zoom && data.zoom !== 1) {
      // fit() frames the nodes, not their labels: step back so the outer labels show.
      network.fit({animation: false});
      network.moveTo({scale: network.getScale() * data.zoom, animation: false});
    }
    window.paperkgStillAt = performance.now();
    body.dataset.graphState = "still";
  });
  network.on("hoverNode", function (params) {
    var node = nodes.get(params.node);
    network.canvas.body.container.style.cursor = node && node.url ? "pointer" : "default";
  });
  network.on("blurNode", function () {
    network.canvas.body.container.style.cursor = "default";
  });
  network.on("click", function (params) {
    if (params.nodes.length !== 1) { return; }
    var node = nodes.get(params.nodes[0]);
    if (!node || !node.url) { return; }
    var target = window;
    // Inside the paper/entity pages' iframe, open the page in the whole tab.
    try {
      if (window.top && window.top.location.host === window.location.host) { target = window.top; }
    } catch (e) { target = window; }
    target.location.assign(node.url);
  });
})();
