// Draw the explorers of a static page (site, slides): no kernel, no network.
// Each <div class="posenc-static"> holds a widget's state as JSON (written by
// posenc_lib.figures.browser.static_html); this gives explorer.js, whose text is
// in window.POSENC_WIDGET_MODULE, a model made of that state, as anywidget does.
(function () {
  function model(state) {
    const handlers = {};
    return {
      get: (name) => state[name],
      set(name, value) {
        if (state[name] === value) return;
        state[name] = value;
        for (const handler of handlers[`change:${name}`] || []) handler();
      },
      save_changes() {},
      on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); },
      off(event, handler) {
        handlers[event] = (handlers[event] || []).filter((h) => h !== handler);
      },
      send() {},
    };
  }

  function start() {
    const code = new Blob([window.POSENC_WIDGET_MODULE], { type: "text/javascript" });
    const url = URL.createObjectURL(code);
    import(url).then((module) => {
      for (const host of document.querySelectorAll(".posenc-static")) {
        const state = JSON.parse(host.querySelector("script").textContent);
        const root = document.createElement("div");
        host.appendChild(root);
        module.default.render({ model: model(state), el: root });
        host.classList.add("posenc-ready");
      }
    });
  }

  if (document.readyState === "loading")
    document.addEventListener("DOMContentLoaded", start);
  else start();
})();
