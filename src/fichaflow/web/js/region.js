// The rules a new mesa starts from follow the country the browser's language names, where
// FichaFlow knows that country's table: es-VE → Venezuela, es-DO → the Dominican one
// (``region_presets`` of GET /api/presets, from the core). Anywhere else: the server's default.

/** The region of a language tag («es-VE» → «VE», «es-419» → «419», «es» → null). */
export function regionOf(tag) {
  const parts = String(tag).split(/[-_]/).slice(1);
  const region = parts.find((part) => /^([A-Za-z]{2}|\d{3})$/.test(part));
  return region ? region.toUpperCase() : null;
}

/** The preset for ``languages`` (the first one with a region FichaFlow has a table for). */
export function regionalPreset(presets, languages = navigator.languages || [navigator.language]) {
  const known = presets.region_presets || {};
  for (const tag of languages) {
    const preset = known[regionOf(tag)];
    if (preset && presets.presets?.[preset]) return preset;
  }
  return presets.default_preset;
}
