// The per-kind views of report.html and compare.html (stages/report/renderers): what a model did on an item drawn from
// its renderer's fields. Every text from the data is set with textContent, never as markup.

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
  callsVerdict(parent, fields);
}

// A function-calling item's verdict line, under its calls or its episode: the category, then BFCL's verdict.
function callsVerdict(parent, fields) {
  const verdict = document.createElement("div");
  verdict.className = fields.verdict === "valid" ? "verdict valid" : "verdict";
  verdict.textContent = (fields.category ? fields.category + ": " : "") + fields.verdict;
  parent.appendChild(verdict);
}

// Each kind's view of what was read from a reply (stages/report/renderers): plain adds nothing to the reading; math
// draws the answer read and the gold from their LaTeX; instructions lists IFEval's verdicts; calls a
// function-calling reply's calls beside BFCL's possible answers (a multi-turn episode's turns); choices each
// choice's loglikelihoods; program the program as run (highlighted), each test's outcome and the sandbox's verdict;
// episodes each tau2 trial's reward, its components and its transcript; labels an annotation document's characters
// and events, each with its labels, relationships and the gold event it was aligned with.
const VIEWS = {
  plain: function () {},
  labels: function (parent, fields) {
    if (!fields.events) return;
    const box = document.createElement("details"), head = document.createElement("summary");
    box.className = "labels";
    head.textContent = "the document's labels (" + fields.events_total + " events, " + fields.characters.length
      + " characters)";
    box.appendChild(head);
    if (fields.characters.length) {
      const line = document.createElement("div");
      line.className = "characters";
      line.textContent = "characters: " + fields.characters.join("; ");
      box.appendChild(line);
    }
    const list = document.createElement("ol");
    list.className = "events";
    fields.events.forEach(function (e) {
      const li = document.createElement("li");
      li.className = e.gold ? "aligned" : "extra";
      li.textContent = [e.id, e.span ? "“" + e.span + "”" : "", e.labels].filter(Boolean).join(" ")
        + (e.relationships.length ? "; " + e.relationships.join("; ") : "")
        + (e.gold ? " (aligned with gold " + e.gold + ")" : " (no gold event)");
      list.appendChild(li);
    });
    box.appendChild(list);
    const more = fields.events_total - fields.events.length;
    [[more > 0, more + " more events not listed"],
     [fields.missing.length > 0, "gold events not annotated: " + fields.missing.join(", ")]].forEach(function (p) {
      if (!p[0]) return;
      const line = document.createElement("div");
      line.className = "muted";
      line.textContent = p[1];
      box.appendChild(line);
    });
    parent.appendChild(box);
  },
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
    callsVerdict(parent, fields);
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
      const pre = document.createElement("pre"), code = document.createElement("code");
      head.textContent = "program (" + fields.program.split("\n").length + " lines)";
      pre.className = "program";
      code.textContent = fields.program;
      // hljs escapes the text itself; with the grammar of the dataset's language (B4's `language`), else it guesses
      if (window.hljs && fields.language && window.hljs.getLanguage(fields.language)) {
        code.className = "language-" + fields.language;
      }
      if (window.hljs) window.hljs.highlightElement(code);
      pre.appendChild(code);
      fold.appendChild(head);
      fold.appendChild(pre);
      parent.appendChild(fold);
    }
    const line = document.createElement("div");
    line.className = "outcome";
    line.textContent = fields.outcome || "";
    parent.appendChild(line);
    if ((fields.checks || []).length) {
      const list = document.createElement("ul");
      list.className = "checks";
      fields.checks.forEach(function (c) {
        const li = document.createElement("li"), runs = c.held + c.failed;
        li.className = c.failed ? "failed" : "held";
        li.textContent = (c.failed ? "✗ " : "✓ ") + c.test
          + (runs > 1 ? " (held " + c.held + " of " + runs + " times)" : "") + (c.error ? " — " + c.error : "");
        list.appendChild(li);
      });
      parent.appendChild(list);
    }
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

// A reply: its answer (or its renderer's readable stand-in where the raw reply is a kind's JSON or list: report.html's
// `prediction` with the raw one as `raw`, compare.html's `fields.reply` beside the raw `prediction`; the raw reply
// then folded behind it), then its reasoning folded behind it with its length and whether it never closed.
function replyText(parent, r) {
  const answer = document.createElement("div"), readable = r.fields && r.fields.reply;
  const raw = r.raw !== undefined ? r.raw : readable !== undefined ? r.prediction : undefined;
  answer.className = "reply";
  answer.textContent = r.unfinished ? "(no answer: the reply ends inside its reasoning)"
    : readable !== undefined ? readable : r.prediction;
  parent.appendChild(answer);
  if (raw) foldedText(parent, "raw", "the reply as given (" + raw.length.toLocaleString("en") + " characters)", raw,
                      "raw-reply");
  if (r.reasoning === undefined) return;
  foldedText(parent, "reasoning" + (r.unfinished ? " unfinished" : ""), "reasoning (" + r.reasoning_chars.toLocaleString("en")
    + " characters" + (r.unfinished ? ", unfinished" : "") + ")", r.reasoning, "reply");
}

// A text (of class `textClass`) folded behind its summary line, of class `cls`, appended to `parent`.
function foldedText(parent, cls, summary, text, textClass) {
  const box = document.createElement("details"), head = document.createElement("summary");
  const body = document.createElement("div");
  box.className = cls;
  head.textContent = summary;
  body.className = textClass;
  body.textContent = text;
  box.appendChild(head);
  box.appendChild(body);
  parent.appendChild(box);
}

