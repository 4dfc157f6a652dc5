// The front end's one DOM helper: an element with its attributes and text in
// one call. It uses only `createElement(NS)`, `setAttribute` and
// `textContent`, so the rules page also renders in the small fake DOM of
// e2e/i18n-keys.test.mjs.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Attributes by their HTML names ("class", "data-square", "aria-label");
 * undefined ones are left out.
 * @typedef {Record<string, string | number | undefined>} Attributes
 */

/**
 * @param {Element} element
 * @param {Attributes} attributes
 * @param {string} [text]
 */
function fill(element, attributes, text) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) element.setAttribute(name, String(value));
  }
  if (text !== undefined) element.textContent = text;
}

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attributes} [attributes]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attributes = {}, text) {
  const element = document.createElement(tag);
  fill(element, attributes, text);
  return element;
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Attributes} [attributes]
 * @param {string} [text]
 * @returns {SVGElement}
 */
export function svgEl(tag, attributes = {}, text) {
  const element = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  fill(element, attributes, text);
  return element;
}
