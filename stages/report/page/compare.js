// compare.html's script: sortable tables, the flipped items' replies drawn by their kind's view (views.js, which comes
// before it), the flipped items' filters, and deep links (#dataset/model/id) opened and scrolled to.

document.querySelectorAll("table.sortable > thead > tr > th").forEach(function (th) {
  th.addEventListener("click", function () {
    const table = th.closest("table"), body = table.tBodies[0], col = th.cellIndex, asc = th.dataset.order !== "asc";
    const key = function (row) {
      const c = row.cells[col], v = c.dataset.value !== undefined ? c.dataset.value : c.textContent.trim();
      return v !== "" && isFinite(v) ? [0, parseFloat(v)] : [v === "" ? 2 : 1, v];
    };
    table.querySelectorAll("th").forEach(function (h) { delete h.dataset.order; });
    th.dataset.order = asc ? "asc" : "desc";
    Array.from(body.rows).sort(function (r1, r2) {
      const a = key(r1), b = key(r2);
      const c = a[0] !== b[0] ? a[0] - b[0] : a[0] === 0 ? a[1] - b[1] : String(a[1]).localeCompare(b[1]);
      return asc ? c : -c;
    }).forEach(function (r) { body.appendChild(r); });
  });
});

// Each run's replies to a flipped item, as report.html draws them: status and reading, the answer with its reasoning
// folded, then what its kind's view shows.
document.querySelectorAll("ol.replies[data-replies]").forEach(function (list) {
  const view = VIEWS[list.dataset.view] || VIEWS.plain;
  JSON.parse(list.dataset.replies).forEach(function (r) {
    const li = document.createElement("li");
    if (r.status !== undefined) {
      const head = document.createElement("div"), mark = document.createElement("span");
      mark.className = "status " + String(r.status).replace(/ /g, "-");
      mark.textContent = r.status;
      head.appendChild(mark);
      if (r.reading) head.appendChild(document.createTextNode(" " + r.reading));
      li.appendChild(head);
    }
    replyText(li, r);
    view(li, r.fields || {});
    list.appendChild(li);
  });
});

(function () {
const flips = Array.from(document.querySelectorAll("details.flip"));
const dataset = document.querySelector(".flip-dataset"), direction = document.querySelector(".flip-direction");
const search = document.querySelector(".flip-search"), count = document.querySelector(".flip-count");

function filterFlips() {
  const q = search.value.trim().toLowerCase();
  let shown = 0;
  flips.forEach(function (f) {
    const keep = (!dataset.value || f.dataset.dataset === dataset.value)
      && (!direction.value || f.dataset.direction === direction.value)
      && (!q || f.textContent.toLowerCase().includes(q));
    f.hidden = !keep;
    shown += keep ? 1 : 0;
  });
  count.textContent = shown + " of " + flips.length + " flipped items shown";
  document.body.dataset.flipsShown = String(shown);
}

// The item a deep link names: shown whatever the filters say, opened and scrolled to.
function followLink() {
  const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (!target || !target.classList.contains("flip")) return;
  dataset.value = ""; direction.value = ""; search.value = "";
  filterFlips();
  target.open = true;
  target.classList.add("linked");
  target.scrollIntoView({block: "start"});
}

[dataset, direction, search].forEach(function (el) { el.addEventListener("input", filterFlips); });
window.addEventListener("hashchange", followLink);
filterFlips();
followLink();
})();
