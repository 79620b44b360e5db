// The table's words: FichaFlow's one Spanish and one English catalogue (the package fichaflow.i18n,
// served at /i18n/es.json and /i18n/en.json), Spanish first. A missing English text falls back to
// the Spanish one, never to a bare key.

import { halves } from './tiles.js';

const STORE_KEY = 'fichaflow.lang';
const LANGUAGES = ['es', 'en'];
const catalogues = {};
let current = 'es';

// Each catalogue fetched is also kept in the browser, so that a page opened without network (the
// anotador is made for that) still has its words: the last copy it saw.
async function fetchCatalogue(lang) {
  if (!catalogues[lang]) {
    const kept = `fichaflow.catalogue.${lang}`;
    try {
      const response = await fetch(`/i18n/${lang}.json`);
      if (!response.ok) throw new Error(response.statusText);
      catalogues[lang] = await response.json();
      localStorage.setItem(kept, JSON.stringify(catalogues[lang]));
    } catch (error) {
      const copy = localStorage.getItem(kept);
      if (!copy) throw error;
      catalogues[lang] = JSON.parse(copy);
    }
  }
  return catalogues[lang];
}

/** Every language's catalogue, loaded at once: for the pages that switch language on the spot,
 * even when the network is gone by then. */
export async function loadCatalogues() {
  for (const lang of LANGUAGES) await fetchCatalogue(lang);
  return catalogues;
}

/** One owner's part of a loaded catalogue (``anotador.save`` becomes ``save``), for the pages
 * that name their words without the prefix. */
export function section(lang, prefix) {
  return Object.fromEntries(Object.entries(catalogues[lang] ?? {})
    .filter(([key]) => key.startsWith(prefix))
    .map(([key, text]) => [key.slice(prefix.length), text]));
}

/** Load Spanish (always, as the fallback) and the player's chosen language. */
export async function loadLanguage(lang = null) {
  let wanted = lang || localStorage.getItem(STORE_KEY) || 'es';
  if (!LANGUAGES.includes(wanted)) wanted = 'es';
  await fetchCatalogue('es');
  await fetchCatalogue(wanted);
  current = wanted;
  localStorage.setItem(STORE_KEY, wanted);
  document.documentElement.lang = wanted;
  return wanted;
}

export function language() {
  return current;
}

/** The text for ``key`` with {placeholders} filled in. */
export function t(key, params = {}) {
  const text = catalogues[current]?.[key] ?? catalogues.es?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    params[name] === undefined ? whole : String(params[name]));
}

/** A number's name on a tile: "blanco", "uno", ... "seis". */
export function numberName(n) {
  return t(`number.${n}`);
}

/** A number in the plural, as players say it: "un violín de cincos". */
export function numberPlural(n) {
  return t(`number_plural.${n}`);
}

/** A tile's accessible name, high half first, as the core's ``spoken``: "seis-cuatro". */
export function tileName(text) {
  const [a, b] = halves(text);
  const hi = Math.max(a, b);
  const lo = Math.min(a, b);
  return `${numberName(hi)}-${numberName(lo)}`;
}

/** A list in words: "Ana, Beto y Carla". */
export function listing(items) {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${t('word.and')} ${items[items.length - 1]}`;
}

/** A server error's text in the current language. */
export function errorText(error) {
  if (!error) return '';
  const text = current === 'en' && error.message_en ? error.message_en : error.message;
  if (text) return capitalized(text);
  // The page's own troubles (no network, a broken answer) have their words in the catalogue.
  return t(`error.${error.code}`, error);
}

export function capitalized(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
