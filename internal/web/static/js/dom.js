// Small DOM helpers. Text always goes in as text, never as HTML: every
// string from the API is data.

let nextID = 0;

// uid returns a page-unique id for aria-* references.
export function uid(prefix = "id") {
  nextID += 1;
  return `${prefix}-${nextID}`;
}

// h builds an element: h("button", {class: "btn", onclick: f}, "Go").
// Attributes starting with "on" are listeners; true/false toggle boolean
// attributes; null and undefined are skipped.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVGNS = "http://www.w3.org/2000/svg";

// s builds an SVG element.
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") {
      el.addEventListener(k.slice(2), v);
    } else if (k === "dataset") {
      Object.assign(el.dataset, v);
    } else {
      el.setAttribute(k, v === true ? "" : String(v));
    }
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// icon returns a small stroke icon by name.
export function icon(name) {
  const paths = {
    check: "M5 12.5l4.5 4.5L19 7.5",
    copy: "M9 9h10v10H9zM5 15V5h10",
    chevron: "M8 10l4 4 4-4",
    alert: "M12 8v5M12 16.5v.5M10.3 3.9 2.4 18a2 2 0 0 0 1.7 3h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z",
    retry: "M4 12a8 8 0 1 0 2.3-5.7M4 4v4h4",
    table: "M4 5h16v14H4zM4 10h16M4 15h16M10 5v14",
    chart: "M4 19h16M6 16l4-5 3 3 5-7",
    code: "M9 8l-4 4 4 4M15 8l4 4-4 4",
    download: "M12 4v11M7 10l5 5 5-5M5 20h14",
    spark: "M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5 18 18M6 18l2.5-2.5M15.5 8.5 18 6",
  };
  return s("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false", class: `icon icon-${name}` },
    s("path", { d: paths[name] || "" }));
}

// announce says text through the page's polite live region.
export function announce(text) {
  const el = document.getElementById("announcer");
  if (!el) return;
  el.textContent = "";
  // a fresh text node a tick later is announced even when the text repeats
  setTimeout(() => { el.textContent = text; }, 50);
}
