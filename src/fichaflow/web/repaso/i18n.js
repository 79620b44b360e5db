// The Repaso page's words: the repaso.* keys of FichaFlow's one catalogue per language (the same
// files the table and the server speak from), Spanish first. Domino words stay Spanish in English
// too. Both languages load with the page, so switching language asks nothing more of the server.
import { loadCatalogues, section } from '../js/i18n.js';

await loadCatalogues();

export const TEXT = { es: section('es', 'repaso.'), en: section('en', 'repaso.') };

export function t(lang, key, params = {}) {
  const text = (TEXT[lang] && TEXT[lang][key]) ?? TEXT.es[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}
