// SharePipe's web page, live: follows the shelf's changes (`/events`, Server-Sent Events) and, when
// something changed, reads the page again from the server and puts in the parts marked
// `data-live` (the shelf's cards, a link's preview, the navigation's count of new items). Every
// page works without it; it only saves a reload. Loaded with `defer`, under the page's
// Content-Security-Policy (`script-src 'self'; connect-src 'self'`).
(function () {
  "use strict";
  if (!window.EventSource || !window.fetch || !window.DOMParser) return;
  if (!document.querySelector("[data-live]")) return;

  var waiting = false;

  // Whether the person is in the middle of something a swap would disturb: a menu open, or typing
  // in a field inside a part that would be replaced.
  function busy() {
    var focused = document.activeElement;
    var parts = document.querySelectorAll("[data-live]");
    for (var i = 0; i < parts.length; i++) {
      if (parts[i].querySelector("details[open]")) return true;
      if (focused && focused !== document.body && parts[i].contains(focused) && /^(INPUT|TEXTAREA|SELECT)$/.test(focused.tagName)) return true;
    }
    return false;
  }

  function refresh() {
    waiting = false;
    if (busy()) {
      later(2000);
      return;
    }
    // A fetch, not a navigation: the server counts no impression for it.
    fetch(location.pathname + location.search, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("status " + response.status);
        return response.text();
      })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, "text/html");
        var parts = document.querySelectorAll("[data-live]");
        for (var i = 0; i < parts.length; i++) {
          var name = parts[i].getAttribute("data-live");
          var fresh = next.querySelector('[data-live="' + name + '"]');
          if (fresh) parts[i].replaceWith(document.importNode(fresh, true));
        }
      })
      .catch(function () {
        later(5000);
      });
  }

  // Several changes close together make one read.
  function later(delay) {
    if (waiting) return;
    waiting = true;
    setTimeout(refresh, delay);
  }

  // An EventSource reconnects by itself after a dropped connection, but not after a refusal (too
  // many streams open for a moment): then it is opened again here. Leaving the page closes it, so
  // that a page kept for the back button holds no connection (and no place among the user's
  // streams on the server); coming back opens it again.
  // The changes after the one the page was made at: none made while the stream connects is missed.
  var after = document.body.getAttribute("data-events-after");
  var events = null;
  function connect() {
    if (events) return;
    events = new EventSource("/events" + (after ? "?lastEventId=" + encodeURIComponent(after) : ""));
    events.addEventListener("highlightsDidChange", function (event) {
      if (event.lastEventId) after = event.lastEventId;
      later(250);
    });
    events.onerror = function () {
      if (events && events.readyState === EventSource.CLOSED) {
        events = null;
        setTimeout(connect, 4000);
      }
    };
  }
  function disconnect() {
    if (events) events.close();
    events = null;
  }
  window.addEventListener("pagehide", disconnect);
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      connect();
      later(0);
    }
  });
  connect();
})();
