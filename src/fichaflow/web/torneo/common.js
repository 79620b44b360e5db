// What the torneo's pages share: their words (the torneo.* keys of FichaFlow's one catalogue),
// the API's answers and refusals, the side of a table by its names, and the standings table.
// Every figure comes from the server, which asks the torneo engine: the pages compute nothing.
import { loadCatalogues, section } from "../js/i18n.js";

await loadCatalogues();

const WORDS = { es: section("es", "torneo.web."), en: section("en", "torneo.web.") };
const FIGURES = { es: section("es", "torneo."), en: section("en", "torneo.") };
const PRESET_NAMES = { es: section("es", "preset."), en: section("en", "preset.") };

export const lang = new URLSearchParams(location.search).get("lang") === "en" ? "en" : "es";
document.documentElement.lang = lang;

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

/** A word of these pages, with its {params} filled in. */
export function t(key, params = {}) {
  return fill(WORDS[lang][key] ?? WORDS.es[key] ?? key, params);
}

/** A figure's heading or a tie-break's words (torneo.pg, torneo.tiebreak_pg …). */
export function figure(key, params = {}) {
  return fill(FIGURES[lang][key] ?? FIGURES.es[key] ?? key, params);
}

export function presetName(preset) {
  return PRESET_NAMES[lang][preset] ?? PRESET_NAMES.es[preset] ?? preset;
}

/** Every element with data-t gets its word (the HTML carries the Spanish as written). */
export function translatePage() {
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
}

export class Refusal extends Error {
  constructor(body, status) {
    const error = body?.error ?? {};
    super((lang === "en" ? error.message_en : error.message) || `HTTP ${status}`);
    this.code = error.code;
    this.status = status;
  }
}

/** A request to the torneos' API: the answer's JSON, or a Refusal with the server's words. */
export async function api(path, body = undefined) {
  const options = body === undefined && !path.startsWith("POST ")
    ? {}
    : { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body ?? {}) };
  const rest = path.replace(/^POST /, "");
  const url = rest ? `/api/torneos/${rest}` : "/api/torneos";
  const response = await fetch(url, options);
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Refusal(data, response.status);
  return data;
}

/** An element with its class and text, and its children. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "for") {
      node.setAttribute(key, value);
    } else node[key] = value;
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

/** A side of a table by its names: a pair's name, or two players' («Ana y Beto»). */
export function sideName(record, side) {
  const names = side.map((id) => record.entrants[id - 1].name);
  return names.length === 1 ? names[0] : figure("partners", { first: names[0], second: names[1] });
}

/** Each table's result as the log last says it, by "round:table". */
export function results(record) {
  const out = new Map();
  for (const line of record.log) out.set(`${line.round}:${line.table}`, line);
  return out;
}

/** The page where a side of a physical table confirms its sheet's result (with its code). */
export function confirmPath(pub, round, table, code = "") {
  const query = new URLSearchParams({ p: pub, ronda: String(round), mesa: String(table) });
  if (code) query.set("c", code);
  return `/torneo/confirmar.html?${query}`;
}

/** A result in a few words: 100-62, a forfeit, or each deal's points. */
export function describe(record, table, result) {
  if (result.forfeit) {
    const absent = result.forfeit === "a" ? table.a : table.b;
    return t("result_forfeit", { name: sideName(record, absent) });
  }
  if (result.deals) return result.deals.map(([a, b]) => `${a}-${b}`).join(" ");
  return `${result.score[0]}-${result.score[1]}`;
}

function signed(value) {
  return value > 0 ? `+${value}` : value < 0 ? `−${-value}` : "0";
}

/** The standings as a table (the server's figures, in its order). */
export function standingsTable(view, rows = view.standings) {
  const duplicate = view.record.settings.duplicate > 0;
  const heads = [
    ["#", "position"], [figure("name"), "name"], [figure("pj"), "n"], [figure("pg"), "n"],
    [figure("pp"), "n"], [figure("pf"), "n"], [figure("pc"), "n"], [figure("diff"), "n"],
  ];
  if (duplicate) heads.push([figure("mp"), "n"]);
  const head = el("tr", {}, ...heads.map(([text, kind]) =>
    el("th", { scope: "col", class: kind, text })));
  const body = rows.map((s) => {
    const cells = [s.pj, s.pg, s.pp, s.pf, s.pc, signed(s.diff)];
    if (duplicate) cells.push(s.mp);
    return el("tr", { "data-entrant": String(s.entrant) },
      el("td", { class: "position", text: String(s.position) }),
      el("th", { scope: "row", class: "name", text: s.name }),
      ...cells.map((c) => el("td", { class: "n", text: String(c) })));
  });
  return el("table", { class: "standings", "data-testid": "standings" },
    el("thead", {}, head), el("tbody", {}, ...body));
}

export function tiebreakWords(view) {
  const order = view.record.settings.tiebreaks.map((k) => figure(`tiebreak_${k}`)).join(", ");
  return t("tiebreaks", { order });
}

/** The same page in the other language (the switch every page has). */
export function languageSwitch(button) {
  const other = lang === "en" ? "es" : "en";
  button.textContent = other === "en" ? "English" : "Español";
  button.lang = other;
  button.addEventListener("click", () => {
    const params = new URLSearchParams(location.search);
    if (other === "en") params.set("lang", "en"); else params.delete("lang");
    location.search = params.toString();
  });
}
