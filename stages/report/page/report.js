// report.html's script: sortable tables, the item explorer of each dataset (each kind's view from views.js, which
// comes before it), and a count of the charts drawn. Every text from the data is set with textContent, never as markup.

function sortKey(cell) {
  const v = cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent.trim();
  const n = parseFloat(v);
  return v !== "" && !isNaN(n) && isFinite(v) ? [0, n] : [v === "" ? 2 : 1, v];
}

function compareKeys(a, b) {
  if (a[0] !== b[0]) return a[0] - b[0];
  return a[0] === 0 ? a[1] - b[1] : String(a[1]).localeCompare(b[1]);
}

document.querySelectorAll("table.sortable > thead > tr > th").forEach(function (th) {
  th.addEventListener("click", function () {
    const table = th.closest("table"), body = table.tBodies[0], col = th.cellIndex, asc = th.dataset.order !== "asc";
    table.querySelectorAll("th").forEach(function (h) { delete h.dataset.order; });
    th.dataset.order = asc ? "asc" : "desc";
    Array.from(body.rows).sort(function (r1, r2) {
      const c = compareKeys(sortKey(r1.cells[col]), sortKey(r2.cells[col]));
      return asc ? c : -c;
    }).forEach(function (r) { body.appendChild(r); });
  });
});

// The judge's verdicts of one cell, criterion by criterion, each with the raters' labels beside it.
function judged(cell) {
  return Object.keys(cell.judge || {}).map(function (name) {
    const verdict = cell.judge[name], raters = cell.raters[name] || {};
    const people = Object.keys(raters).map(function (r) { return r + " " + raters[r]; }).join(", ");
    return name + ": " + (verdict.label === null ? "unparsed" : verdict.label)
      + (people ? " (raters: " + people + ")" : "") + (verdict.reason ? " — " + verdict.reason : "");
  }).join("; ");
}

document.querySelectorAll("details.explorer").forEach(function (box) {
  const data = JSON.parse(box.dataset.items), pick = function (c) { return box.querySelector(c); };
  const items = explorerItems(data);  // report_items.js: the items embedded, those beside the page on demand
  const a = pick(".model-a"), b = pick(".model-b"), filter = pick(".filter"), search = pick(".search");
  const order = pick(".order"), body = pick("tbody"), count = pick(".count"), head = pick("thead tr");
  const withJudge = (data.criteria || []).length > 0, view = VIEWS[data.view] || VIEWS.plain;

  function cell(row, text, cls) {
    const td = row.insertCell();
    td.textContent = text === null || text === undefined ? "" : String(text);
    if (cls) td.className = cls;
    return td;
  }

  function score(v) { return v === null || v === undefined ? "–" : (Math.round(v * 1000) / 1000).toString(); }

  function statusClass(status) { return "status " + String(status).replace(/ /g, "-"); }

  // The item's figures over its replies: avg@n (its score), pass@k and the majority answer.
  function itemFigures(c) {
    const ks = Object.keys(c.pass || {}).sort(function (x, y) { return x - y; });
    const parts = ["avg@" + c.n + " " + score(c.score)].concat(ks.map(function (k) {
      return "pass@" + k + " " + score(c.pass[k]);
    }));
    const m = c.majority;
    if (m) parts.push("majority " + m.answer + " (" + m.votes + " of " + m.of + " votes, " + (m.right ? "right" : "wrong") + ")");
    return parts.join(" · ");
  }

  // A model's prediction: its reply, or with several replies per item the item's figures and each reply folded
  // behind its status and reading.
  function prediction(row, c) {
    if (!c.replies) {
      const single = row.insertCell();
      replyText(single, c);
      return single;
    }
    const td = row.insertCell(), figures = document.createElement("div"), list = document.createElement("ol");
    figures.className = "item-figures muted";
    figures.textContent = itemFigures(c);
    td.appendChild(figures);
    list.className = "replies";
    c.replies.forEach(function (r) {
      const li = document.createElement("li"), fold = document.createElement("details");
      const head = document.createElement("summary"), mark = document.createElement("span");
      const text = document.createElement("div");
      mark.className = statusClass(r.status);
      mark.textContent = r.status;
      head.appendChild(mark);
      head.appendChild(document.createTextNode(r.reading ? " " + r.reading : ""));
      replyText(text, r);
      view(text, r.fields || {});
      fold.appendChild(head);
      fold.appendChild(text);
      li.appendChild(fold);
      list.appendChild(li);
    });
    td.appendChild(list);
    return td;
  }

  function status(row, c) {
    return cell(row, c.status + (c.replies ? " (" + c.right + " of " + c.n + ")" : ""), statusClass(c.status));
  }

  function text(c) {
    const own = function (r) { return r.prediction + (r.raw ? " " + r.raw : ""); };
    return c.replies ? c.replies.map(own).join(" ") : own(c);
  }

  function keep(item) {
    const A = item.cells[a.value], B = b.value ? item.cells[b.value] : null, f = filter.value;
    if (f === "a-right-b-wrong" && !(B && A.status === "correct" && B.status !== "correct")) return false;
    if (f === "a-wrong-b-right" && !(B && A.status !== "correct" && B.status === "correct")) return false;
    if (f === "judge-differs" && !A.judge_differs) return false;
    if (f === "not-right" && A.status === "correct") return false;
    if (f.startsWith("status:") && A.status !== f.slice(7)) return false;
    const q = search.value.trim().toLowerCase();
    return !q || [item.id, item.question, item.gold, text(A), B ? text(B) : ""].join(" ").toLowerCase().includes(q);
  }

  function render() {
    const shown = data.items.filter(keep), s = order.value;
    if (s !== "question") {
      shown.sort(function (x, y) {
        const u = x.cells[a.value].score, v = y.cells[a.value].score;
        return (u === null) - (v === null) || (s === "score-asc" ? u - v : v - u);
      });
    }
    const columns = ["id", "question", "gold", a.value + ": prediction", "read as", "score", "status"]
      .concat(withJudge ? ["judge"] : [])
      .concat(b.value ? [b.value + ": prediction", "score", "status"].concat(withJudge ? ["judge"] : []) : []);
    head.innerHTML = "";
    columns.forEach(function (h) {
      const th = document.createElement("th");
      th.textContent = h;
      head.appendChild(th);
    });
    body.innerHTML = "";
    shown.forEach(function (item) {
      const row = body.insertRow(), A = item.cells[a.value];
      row.id = box.dataset.dataset + "/" + a.value + "/" + item.id;
      cell(row, item.id); cell(row, item.question); cell(row, item.gold); prediction(row, A);
      view(cell(row, A.reading, "muted"), A.fields || {}); cell(row, score(A.score), "num"); status(row, A);
      if (withJudge) cell(row, judged(A), A.judge_differs ? "judge differs" : "judge");
      if (b.value) {
        const B = item.cells[b.value];
        prediction(row, B); cell(row, score(B.score), "num"); status(row, B);
        if (withJudge) cell(row, judged(B), B.judge_differs ? "judge differs" : "judge");
      }
    });
    const waiting = items.waiting();
    const whole = function (n) { return n.toLocaleString("en"); };
    count.textContent = whole(shown.length) + " of " + whole(data.items.length) + " items shown ("
      + whole(data.total) + " in the dataset, " + whole(data.not_right) + " not right " + ((data.sampled || []).length ? "in every reply " : "")
      + "for some model)" + (waiting ? "; " + whole(waiting) + " more chosen items are beside the page, not loaded yet"
      + (narrowed() ? " — this filter covers only the " + data.items.length + " loaded items" : "")
      + (items.failure ? " (" + items.failure + ")" : narrowed() ? ", loading them…" : "") : "");
    more.hidden = !waiting;
    more.textContent = "load the " + waiting + " more items";
    box.dataset.shown = String(shown.length);
    box.dataset.loaded = String(data.items.length);
  }

  // Whether the items shown are picked (a filter, a search) or ordered by score: then every item is needed.
  function narrowed() {
    return filter.value !== "all" || search.value.trim() !== "" || order.value !== "question";
  }

  // Shown at once with the items loaded, then again with every item when the view is narrowed.
  function update() {
    render();
    if (narrowed() && items.waiting() && !items.failure) items.load(items.unloaded()).then(render);
  }

  const more = document.createElement("button");
  more.type = "button";
  more.className = "load-items";
  more.hidden = true;
  more.addEventListener("click", function () { items.load(items.unloaded()).then(render); });
  count.after(more);

  data.models.forEach(function (m, i) {
    [a, b].forEach(function (s, j) {
      const o = document.createElement("option");
      o.value = m;
      o.textContent = m;
      if (j === 0 && i === 0) o.selected = true;
      s.appendChild(o);
    });
  });
  [a, b, filter, search, order].forEach(function (el) {
    el.addEventListener("input", update);
    el.addEventListener("change", update);
  });
  // A deep link (#dataset/model/id) to one of this dataset's items: its model chosen, every item shown (the file
  // beside the page holding it loaded first), the item's row opened and scrolled to.
  function follow() {
    const link = decodeURIComponent(location.hash.slice(1)), prefix = box.dataset.dataset + "/";
    if (!link.startsWith(prefix)) return;
    const model = data.models.find(function (m) { return link.startsWith(prefix + m + "/"); });
    if (model === undefined) return;
    const id = link.slice((prefix + model + "/").length);
    a.value = model; filter.value = "all"; search.value = ""; order.value = "question";
    items.load(items.holding(id)).then(function () {
      render();
      const row = document.getElementById(link);
      if (!row) return;
      box.open = true;
      row.classList.add("linked");
      row.scrollIntoView({block: "center"});
    });
  }
  window.addEventListener("hashchange", follow);
  // Rows are drawn when the explorer is first opened (a click on its summary, or opened otherwise), a control is
  // used or a deep link is followed: a closed explorer costs its page's load nothing but its data.
  box.querySelector("summary").addEventListener("click", function () { if (!box.dataset.shown) render(); });
  box.addEventListener("toggle", function () { if (box.open && !box.dataset.shown) render(); });
  if (box.open) render();
  follow();
});

(function () {
  const charts = Array.from(document.querySelectorAll("svg.chart"));
  const drawn = charts.filter(function (c) {
    const box = c.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && c.querySelector(".bar,.cell,circle,polyline") !== null;
  });
  document.body.dataset.charts = String(charts.length);
  document.body.dataset.chartsDrawn = String(drawn.length);
})();
