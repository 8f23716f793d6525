// report.html's explorer items past the page's budget (stages/report/item_files.py): they are in files beside the
// page (report_items/<digest>.js), each loaded by a script element — file:// allows that where it blocks fetch — and
// handing its items to evalpipeItems under its key. One promise per file, so a file asked for twice is read once; it
// fails when the file is missing or hands nothing.
const ITEM_FILES = {};
window.evalpipeItems = function (key, items) {
  if (ITEM_FILES[key]) ITEM_FILES[key].resolve(items);
};

function itemFile(part) {
  if (!ITEM_FILES[part.key]) {
    const waiting = {};
    waiting.promise = new Promise(function (resolve, reject) { waiting.resolve = resolve; waiting.reject = reject; });
    ITEM_FILES[part.key] = waiting;
    const tag = document.createElement("script");
    tag.src = part.src;
    tag.onerror = function () { waiting.reject(new Error(part.src + " could not be read")); };
    tag.onload = function () { waiting.reject(new Error(part.src + " holds no items")); };  // after it ran
    document.head.appendChild(tag);
  }
  return ITEM_FILES[part.key].promise;
}

// A dataset explorer's items: `data.items` holds those embedded, then each file beside the page in question order
// once loaded; `waiting()` counts the chosen items not loaded yet, `failure` names a file that could not be read.
function explorerItems(data) {
  const embedded = data.items, parts = (data.beside || []).map(function (p) {
    return {key: p.key, src: p.src, ids: p.ids, items: null};
  });
  const found = {failure: ""};
  found.unloaded = function () { return parts.filter(function (p) { return !p.items; }); };
  found.waiting = function () { return data.chosen - data.items.length; };
  found.holding = function (id) { return found.unloaded().filter(function (p) { return p.ids.indexOf(id) >= 0; }); };
  found.load = function (wanted) {
    return Promise.all(wanted.map(function (part) {
      return itemFile(part).then(function (items) { part.items = items; });
    })).catch(function (error) { found.failure = error.message; }).then(function () {
      data.items = embedded.concat.apply(embedded, parts.filter(function (p) { return p.items; })
        .map(function (p) { return p.items; }));
    });
  };
  return found;
}
