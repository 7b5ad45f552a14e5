// Presence dots: every [data-presence] element on the page (seat chips, player lists, player pages) shows
// whether its person is online, asked of /presence/ when the page loads, every 30 s, and after a live frame
// redrew part of the page. The server renders what it knew; this keeps it true while the page stays open.
(function () {
  "use strict";
  const words = document.getElementById("toast");
  if (!words || !words.dataset.presenceUrl) return;
  let pending = null;
  let known = {};  // the last answer: a chip drawn again shows it at once
  function names() {
    const seen = {};
    document.querySelectorAll("[data-presence]").forEach(function (el) { seen[el.dataset.presence] = true; });
    return Object.keys(seen).slice(0, 100);
  }
  function show(online) {
    known = online;
    document.querySelectorAll("[data-presence]").forEach(function (el) {
      const name = el.dataset.presence;
      if (!(name in online)) return;
      const on = online[name] === true;
      el.classList.toggle("on", on);
      el.classList.add("known");
      let label = el.querySelector(".visually-hidden");
      if (!label) {
        label = document.createElement("span");
        label.className = "visually-hidden";
        el.appendChild(label);
      }
      label.textContent = on ? words.dataset.online : words.dataset.away;
    });
  }
  // Seat chips (drawn in live frames, which stay small) name their person with data-u; the face is added here.
  function faces() {
    document.querySelectorAll(".seat-chip[data-u]").forEach(function (chip) {
      if (chip.querySelector(".face")) return;
      const name = chip.dataset.u;
      const face = document.createElement("span");
      face.className = "face";
      const img = document.createElement("img");
      img.className = "avatar";
      img.alt = "";
      img.width = img.height = 18;
      img.src = words.dataset.avatarUrl.replace("~", encodeURIComponent(name));
      const dot = document.createElement("span");
      dot.className = "presence";
      dot.dataset.presence = name;
      face.appendChild(img);
      face.appendChild(dot);
      chip.insertBefore(face, chip.firstChild);
    });
  }
  function refresh() {
    faces();
    pending = null;
    const list = names();
    if (!list.length) return;
    const query = list.map(function (n) { return "u=" + encodeURIComponent(n); }).join("&");
    fetch(words.dataset.presenceUrl + "?" + query, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : {}; })
      .then(show)
      .catch(function () { /* offline: the dots stay as they were */ });
  }
  function soon() {
    faces();  // at once: the chips were just drawn again
    show(known);
    if (pending === null) pending = setTimeout(refresh, 300);
  }
  refresh();
  setInterval(refresh, 30000);
  document.addEventListener("cardclub:swapped", soon);
  document.body.addEventListener("htmx:afterSwap", soon);
})();
