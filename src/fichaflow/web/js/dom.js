// A few lines instead of a framework: build elements from a tag, attributes and children.

const PROPERTIES = new Set(['value', 'checked', 'selected', 'disabled', 'hidden', 'open']);
const SVG_NS = 'http://www.w3.org/2000/svg';

function fill(element, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') element.setAttribute('class', value);
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') {
      element.addEventListener(key.slice(2), value);
    } else if (PROPERTIES.has(key) && !(element instanceof SVGElement)) element[key] = value;
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** An HTML element: h('button', {class: 'x', onclick: f}, 'text'). */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention. */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(element) {
  while (element.firstChild) element.firstChild.remove();
  return element;
}
