// The page's words: the anotador.* keys of FichaFlow's one catalogue per language (the same files
// the table and the server speak from), Spanish first, English second. Domino words stay in
// Spanish in both. Both languages load with the page, so switching language needs no network.
import { loadCatalogues, section } from "../js/i18n.js";

await loadCatalogues();

export const TEXT = { es: section("es", "anotador."), en: section("en", "anotador.") };

/** The presets by the names the game gives them. */
export const PRESETS = section("es", "preset.");

export function translate(lang, key, params = {}) {
  const table = TEXT[lang] || TEXT.es;
  const text = table[key] ?? TEXT.es[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}
