// report.html's script: sortable tables, the item explorer of each dataset, and a count of the charts drawn.
// Every text from the data is set with textContent, never as markup.

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

// LaTeX drawn by KaTeX where the page embeds it (a dataset whose kind's view draws LaTeX), else shown as source.
function drawTex(el, tex) {
  if (window.katex) {
    try { window.katex.render(tex, el, {throwOnError: false}); return; } catch (e) { /* shown as source */ }
  }
  el.textContent = tex;
}

// A transcript line "role: text", its class the role's, appended to `parent`.
function roleLine(parent, role, text) {
  const line = document.createElement("div"), label = document.createElement("span");
  line.className = role;
  label.className = "role";
  label.textContent = role + ": ";
  line.appendChild(label);
  line.appendChild(document.createTextNode(text));
  parent.appendChild(line);
}

// A tool call "→ text" with its result "← result" (of class `resultClass`) beneath it, appended to `parent`.
function callLine(parent, text, result, resultClass) {
  const call = document.createElement("div"), shown = document.createElement("div");
  call.className = "call";
  call.textContent = "→ " + text;
  shown.className = resultClass;
  shown.textContent = "← " + result;
  call.appendChild(shown);
  parent.appendChild(call);
}

// A BFCL multi-turn episode: each turn's user messages, the model's calls step by step with their results (none
// where the checker stopped before the turn), what it said, the ground truth's calls and the turn's verdict.
function episodeTurns(parent, fields) {
  const list = document.createElement("ol");
  list.className = "transcript turns";
  fields.turns.forEach(function (turn) {
    const li = document.createElement("li");
    li.className = "turn";
    turn.user.forEach(function (text) { roleLine(li, "user", text); });
    turn.steps.forEach(function (step) {
      step.forEach(function (c) { callLine(li, c.call, c.result === null ? "(not run)" : c.result, "result"); });
    });
    turn.said.forEach(function (text) { roleLine(li, "assistant", text); });
    const expected = document.createElement("div"), verdict = document.createElement("div");
    expected.className = "muted";
    expected.textContent = "ground truth: " + (turn.expected.join("; ") || "no call");
    verdict.className = turn.verdict === "right" || turn.verdict === "no call expected" ? "verdict valid" : "verdict";
    verdict.textContent = "turn verdict: " + turn.verdict;
    li.appendChild(expected);
    li.appendChild(verdict);
    list.appendChild(li);
  });
  parent.appendChild(list);
  const verdict = document.createElement("div");
  verdict.className = fields.verdict === "valid" ? "verdict valid" : "verdict";
  verdict.textContent = (fields.category ? fields.category + ": " : "") + fields.verdict;
  parent.appendChild(verdict);
}

// Each kind's view of what was read from a reply (stages/report/renderers): plain adds nothing to the reading; math
// draws the answer read and the gold from their LaTeX; instructions lists IFEval's verdicts; calls a
// function-calling reply's calls beside BFCL's possible answers (a multi-turn episode's turns); choices each
// choice's loglikelihoods; program the program as run and the sandbox's verdict; episodes each tau2 trial's reward,
// its components and its transcript.
const VIEWS = {
  plain: function () {},
  math: function (parent, fields) {
    [["answer", fields.answer], ["gold", fields.gold]].forEach(function (pair) {
      if (!pair[1]) return;
      const line = document.createElement("div"), label = document.createElement("span");
      const tex = document.createElement("span");
      label.className = "muted";
      label.textContent = pair[0] + (pair[0] === "answer" && fields.how ? " (" + fields.how + ")" : "") + ": ";
      tex.className = "tex";
      drawTex(tex, pair[1]);
      line.appendChild(label);
      line.appendChild(tex);
      parent.appendChild(line);
    });
  },
  instructions: function (parent, fields) {
    const list = document.createElement("ul");
    list.className = "instructions";
    (fields.instructions || []).forEach(function (i) {
      const li = document.createElement("li");
      li.className = i.strict ? "followed" : i.loose ? "loosely" : "not-followed";
      li.textContent = i.name + ": strict " + (i.strict ? "✓" : "✗") + ", loose " + (i.loose ? "✓" : "✗")
        + (i.reason ? " — " + i.reason : "");
      list.appendChild(li);
    });
    parent.appendChild(list);
  },
  calls: function (parent, fields) {
    if (fields.turns) {
      episodeTurns(parent, fields);
      return;
    }
    const grid = document.createElement("div"), mine = document.createElement("div");
    const theirs = document.createElement("div");
    grid.className = "side-by-side calls";
    mine.textContent = "calls: " + (fields.calls || "none");
    theirs.textContent = "possible answers: " + ((fields.answers || []).join("; ") || "none (no call expected)");
    grid.appendChild(mine);
    grid.appendChild(theirs);
    parent.appendChild(grid);
    const verdict = document.createElement("div");
    verdict.className = fields.verdict === "valid" ? "verdict valid" : "verdict";
    verdict.textContent = (fields.category ? fields.category + ": " : "") + fields.verdict;
    parent.appendChild(verdict);
  },
  choices: function (parent, fields) {
    if (!(fields.choices || []).length) return;
    const table = document.createElement("table");
    table.className = "choices";
    const head = table.createTHead().insertRow();
    ["choice", "loglikelihood", "per character", "picked by"].forEach(function (h) {
      const th = document.createElement("th");
      th.textContent = h;
      head.appendChild(th);
    });
    const body = table.createTBody();
    fields.choices.forEach(function (c) {
      const row = body.insertRow();
      row.className = c.gold ? "gold" : "";
      [c.text + (c.gold ? " (gold)" : ""), c.loglikelihood.toFixed(3),
       c.per_char === null ? "–" : c.per_char.toFixed(4),
       [c.acc ? "acc" : "", c.acc_norm ? "acc_norm" : ""].filter(Boolean).join(", ")].forEach(function (v) {
        row.insertCell().textContent = v;
      });
    });
    parent.appendChild(table);
  },
  episodes: function (parent, fields) {
    (fields.trials || []).forEach(function (t) {
      const fold = document.createElement("details"), head = document.createElement("summary");
      const calls = t.turns.reduce(function (n, turn) { return n + turn.calls.length; }, 0);
      fold.className = "episode";
      head.textContent = "trial " + t.trial + ": " + (t.reward === null ? t.status : "reward " + t.reward) + " · "
        + t.termination_reason + " · " + t.turns.length + " turns, " + calls + " tool call" + (calls === 1 ? "" : "s");
      fold.appendChild(head);
      const parts = document.createElement("ul");
      parts.className = "components";
      t.components.forEach(function (c) {
        const li = document.createElement("li");
        li.className = c.value === 0 ? "failed" : c.value === null ? "undecided" : "";
        li.textContent = c.name + " " + (c.value === null ? "–" : c.value) + (c.reason ? " — " + c.reason : "");
        parts.appendChild(li);
      });
      fold.appendChild(parts);
      [["note", t.note], ["database differs at", t.db_difference.join(", ")]].forEach(function (pair) {
        if (!pair[1]) return;
        const line = document.createElement("div");
        line.className = pair[0] === "note" ? "note" : "db-difference";
        line.textContent = pair[0] + ": " + pair[1];
        fold.appendChild(line);
      });
      const list = document.createElement("ol");
      list.className = "transcript";
      t.turns.forEach(function (turn) {
        const li = document.createElement("li"), role = document.createElement("span");
        li.className = "turn " + turn.role;
        role.className = "role";
        role.textContent = turn.role + ": ";
        li.appendChild(role);
        if (turn.text) li.appendChild(document.createTextNode(turn.text));
        turn.calls.forEach(function (c) {
          callLine(li, c.name + "(" + c.arguments + ")", c.result === null ? "(no result)" : c.result,
                   c.error ? "result error" : "result");
        });
        list.appendChild(li);
      });
      fold.appendChild(list);
      parent.appendChild(fold);
    });
  },
  program: function (parent, fields) {
    if (fields.program) {
      const fold = document.createElement("details"), head = document.createElement("summary");
      const code = document.createElement("pre");
      head.textContent = "program (" + fields.program.split("\n").length + " lines)";
      code.className = "program";
      code.textContent = fields.program;
      fold.appendChild(head);
      fold.appendChild(code);
      parent.appendChild(fold);
    }
    const line = document.createElement("div");
    line.className = "outcome";
    line.textContent = fields.outcome || "";
    parent.appendChild(line);
    if ((fields.tampering || []).length) {
      const signs = document.createElement("div");
      signs.className = "tampering";
      signs.textContent = "tampering signs: " + fields.tampering.join(", ");
      parent.appendChild(signs);
    }
    [["stdout", fields.stdout], ["stderr", fields.stderr]].forEach(function (pair) {
      if (!pair[1]) return;
      const fold = document.createElement("details"), head = document.createElement("summary");
      const body = document.createElement("pre");
      head.textContent = pair[0] + " (its end)";
      body.textContent = pair[1];
      fold.appendChild(head);
      fold.appendChild(body);
      parent.appendChild(fold);
    });
  }
};

// A reply: its answer, then its reasoning folded behind it with its length and whether it never closed.
function replyText(parent, r) {
  const answer = document.createElement("div");
  answer.className = "reply";
  answer.textContent = r.unfinished ? "(no answer: the reply ends inside its reasoning)" : r.prediction;
  parent.appendChild(answer);
  if (r.reasoning === undefined) return;
  const fold = document.createElement("details"), head = document.createElement("summary");
  const body = document.createElement("div");
  fold.className = "reasoning" + (r.unfinished ? " unfinished" : "");
  head.textContent = "reasoning (" + r.reasoning_chars.toLocaleString("en") + " characters"
    + (r.unfinished ? ", unfinished" : "") + ")";
  body.className = "reply";
  body.textContent = r.reasoning;
  fold.appendChild(head);
  fold.appendChild(body);
  parent.appendChild(fold);
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
    return c.replies ? c.replies.map(function (r) { return r.prediction; }).join(" ") : c.prediction;
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
    count.textContent = shown.length + " of " + data.items.length + " items shown (" + data.total
      + " in the dataset, " + data.not_right + " not right " + ((data.sampled || []).length ? "in every reply " : "")
      + "for some model)" + (waiting ? "; " + waiting + " more chosen items are beside the page, not loaded yet"
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
  render();
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
