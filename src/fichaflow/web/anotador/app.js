// The anotador's page: set up a mesa, enter each hand with a few taps, correct, follow live.
// The server does every sum (the engine's scoring); this page only asks what the rule needs
// (the forms come with the sheet) and keeps entries in the browser until they are stored.
import { section } from "../js/i18n.js";
import { PRESETS, TEXT, translate } from "./i18n.js";
import { Outbox } from "./outbox.js";
import { offerUpdates } from "../js/install.js";
import { regionalPreset } from "../js/region.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// The language the player chose anywhere in FichaFlow (the game keeps it under this key).
const LANG_KEY = "fichaflow.lang";
let lang = localStorage.getItem(LANG_KEY) || localStorage.getItem("fichaflow-lang") || "es";
const t = (key, values) => translate(lang, key, values);
const code = params.get("mesa");
const watch = params.get("ver");
let payload = null; // the server's last answer: {version, watch, code?, state}
let outbox = null;
let offline = false;
let presets = null; // the server's description of the rules: GET /api/presets

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "on") for (const [event, fn] of Object.entries(value)) node.addEventListener(event, fn);
    else if (name === "class") node.className = value;
    else if (value === true) node.setAttribute(name, "");
    else if (value !== false && value != null) node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child != null) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.hidden = true), 4000);
}

function hideToast() {
  clearTimeout(toast.timer);
  $("toast").hidden = true;
}

function translateStatic() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  // Named as the game names it: the other language, in that language.
  $("lang").textContent = lang === "es" ? "English" : "Español";
  $("lang").lang = lang === "es" ? "en" : "es";
}

// A refusal in the page's language (the server sends both).
const errorMessage = (error) => (lang === "en" ? error.message_en : error.message);

async function getJSON(url) {
  const response = await fetch(url);
  const data = await response.json();
  if (!response.ok) {
    const refusal = new Error(data.error ? errorMessage(data.error) : response.statusText);
    refusal.code = data.error?.code; // which refusal, for the page to act on
    throw refusal;
  }
  return data;
}

// The mesas made on this device, newest last, for the «recent» list of the setup page.
const RECENT = "fichaflow-anotador-mesas";
const recentMesas = () => JSON.parse(localStorage.getItem(RECENT) || "[]");
const keepRecent = (mesas) => localStorage.setItem(RECENT, JSON.stringify(mesas));

// --- setting up a mesa ------------------------------------------------------------------------

// The rules form is built from the server's description of every rule option (GET /api/presets,
// read from the core): its choices, its range, the modes it applies to and each mode's seats.
// Options, presets and values are named with the game's keys of the one catalogue (already
// loaded by ./i18n.js), so that both pages call a rule by the same name.
const gameWords = { es: section("es", ""), en: section("en", "") };
const ruleWord = (key, fallback) => gameWords[lang]?.[key] ?? gameWords.es[key] ?? fallback;

let draft = null; // the rules being set up: {preset, options}

function setupProblem(message) {
  $("setup-error").textContent = message;
  $("setup").prepend($("setup-error"));
}

async function showSetup(problem = null) {
  $("setup").hidden = false;
  $("title").textContent = t("title");
  try {
    presets = await getJSON("/api/presets");
  } catch (error) {
    // No network (or no server): a new mesa needs the server, the mesas already made do not.
    $("setup-form").hidden = true;
    setupProblem(error instanceof TypeError ? t("setup_offline") : error.message);
    showRecent();
    return;
  }
  if (problem) setupProblem(problem);
  const select = $("preset");
  for (const name of Object.keys(presets.presets)) select.append(el("option", { value: name }));
  select.value = regionalPreset(presets);
  select.addEventListener("change", () => {
    draft = null;
    renderSetupFields();
  });
  $("setup-form").target.addEventListener("input", (event) => (draft.options.target = event.target.value));
  renderSetupFields();
  showRecent();
  $("setup-form").noValidate = true; // the range is said in the page's words (rulesProblem)
  $("setup-form").addEventListener("submit", createMesa);
}

function showRecent() {
  const recent = recentMesas();
  if (recent.length) {
    $("recent").hidden = false;
    for (const mesa of recent.slice(-8).reverse()) {
      $("recent-list").append(el("li", {}, el("a", { href: `?mesa=${encodeURIComponent(mesa.code)}` }, mesa.name)));
    }
  }
}

const targetSpec = () => presets.options.find((spec) => spec.name === "target");

function renderSetupFields() {
  const preset = $("preset").value;
  if (!draft) draft = { preset, options: { ...presets.presets[preset] } };
  for (const option of $("preset").options) option.textContent = ruleWord(`preset.${option.value}`, option.value);
  $("preset-label").textContent = ruleWord("rules.preset", "preset");
  $("target-label").textContent = ruleWord("option.target", "target");
  const target = $("setup-form").target;
  Object.assign(target, { min: targetSpec().min, max: targetSpec().max, value: draft.options.target });
  renderSeats();
  renderOptions();
}

function renderSeats() {
  const fieldset = $("seats-fields");
  const kept = [...fieldset.querySelectorAll("input")].map((input) => input.value);
  fieldset.replaceChildren(el("legend", { "data-t": "seats" }, t("seats")));
  const seats = presets.seats[draft.options.mode];
  for (let seat = 0; seat < seats; seat++) {
    const side = seats === 4 ? ` · ${"AB"[seat % 2]}` : "";
    fieldset.append(
      el("div", { class: "seat-input" },
        el("small", {}, `${seat + 1}${side}`),
        el("input", { name: `player${seat}`, required: true, maxlength: 30, value: kept[seat] || "", "aria-label": t("seat", { n: seat + 1 }) })),
    );
  }
}

/** One row per option the mode plays by, the target apart (it sits above, always in sight). */
function renderOptions() {
  const mode = draft.options.mode;
  const box = $("options");
  box.replaceChildren();
  for (const spec of presets.options) {
    if (spec === targetSpec() || !spec.modes.includes(mode)) continue;
    const value = draft.options[spec.name];
    let input;
    if (spec.kind === "integer") {
      input = el("input", { name: spec.name, type: "number", inputmode: "numeric", min: spec.min, max: spec.max, step: 1, value });
      input.addEventListener("input", () => (draft.options[spec.name] = input.value));
    } else {
      // The choices this mode allows, and the current one (a refusal then says why).
      const allowed = spec.choices.filter((v) => v === value || (spec.choice_modes[v] || [mode]).includes(mode));
      input = el("select", { name: spec.name },
        allowed.map((v) => el("option", { value: v }, ruleWord(`value.${spec.name}.${v}`, v))));
      input.value = value;
      input.addEventListener("change", () => {
        draft.options[spec.name] = input.value;
        if (spec.name === "mode") {
          renderSeats();
          renderOptions();
        }
      });
    }
    box.append(el("label", {}, el("span", {}, ruleWord(`option.${spec.name}`, spec.name)), input));
  }
}

/** A number out of the range the server describes, said with the field's name as the form shows
 * it (the game's words for the same mistake), or null. An emptied bonus is the preset's. */
function rulesProblem() {
  const mode = draft.options.mode;
  for (const spec of presets.options) {
    if (spec.kind !== "integer" || !spec.modes.includes(mode)) continue;
    const text = String(draft.options[spec.name] ?? "").trim();
    if (text === "" && spec !== targetSpec()) continue;
    const number = /^\d+$/.test(text) ? Number(text) : NaN;
    if (number >= spec.min && number <= spec.max) continue;
    const key = text === "" ? "error.client.option_missing" : "error.client.option_range";
    const values = { option: ruleWord(`option.${spec.name}`, spec.name), min: spec.min, max: spec.max, value: text };
    return ruleWord(key, key).replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
  }
  return null;
}

/** A chair left without a name, called as the form calls it («2 · B»), or null. */
function missingPlayer() {
  const inputs = [...$("setup-form").querySelectorAll("#seats-fields input")];
  const empty = inputs.findIndex((input) => !input.value.trim());
  if (empty < 0) return null;
  inputs[empty].focus();
  return t("need_player", { seat: inputs[empty].previousElementSibling.textContent });
}

async function createMesa(event) {
  event.preventDefault();
  const form = event.target;
  const problem = rulesProblem() || missingPlayer();
  if (problem) {
    $("setup-error").textContent = problem;
    return; // said here, in the form's words, before any request goes out
  }
  const base = presets.presets[draft.preset];
  const rules = { preset: draft.preset };
  for (const spec of presets.options) {
    let value = draft.options[spec.name];
    if (spec.kind === "integer") {
      const text = String(value ?? "").trim();
      if (text === "") continue; // an emptied bonus is the preset's (the target is required)
      value = /^\d+$/.test(text) ? Number(text) : text;
    }
    if (value !== base[spec.name]) rules[spec.name] = value;
  }
  const players = [...form.querySelectorAll("#seats-fields input")].map((input) => input.value);
  const queue = form.queue.value.split("\n").map((name) => name.trim()).filter(Boolean);
  const response = await fetch(`/api/anotador/mesas?lang=${lang}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: form.name.value, rules, players, queue }),
  });
  const data = await response.json();
  if (!response.ok) {
    $("setup-error").textContent = errorMessage(data.error);
    return;
  }
  keepRecent([...recentMesas(), { code: data.code, name: data.state.name }]);
  location.search = `?mesa=${encodeURIComponent(data.code)}`;
}

// --- the sheet --------------------------------------------------------------------------------

function state() {
  return payload.state;
}

function sideName(team) {
  return state().partida.sides[team];
}

function gainsText(gains) {
  return gains
    .map((gain, team) => (gain ? `${sideName(team)} ${gain > 0 ? "+" : ""}${gain}` : null))
    .filter(Boolean)
    .join(" · ");
}

function pendingLabel(action) {
  const players = state().partida.players;
  if (action.type === "hand") return `${t(action.end)} · ${players[action.seat]}`;
  if (action.type === "adjust") return `${t("adjust_line")} · ${sideName(action.team)} ${action.points > 0 ? "+" : ""}${action.points}`;
  if (action.type === "edit") return `${t("edit")} ${action.target}`;
  if (action.type === "delete") return `${t("delete")} ${action.target}`;
  if (action.type === "undo") return t("undo");
  return action.type;
}

function render() {
  const s = state();
  const sheet = s.partida;
  $("title").textContent = `${s.name} · ${t("partida_n", { n: sheet.number })}`;
  $("score").replaceChildren(
    ...sheet.sides.map((side, team) =>
      el("div", { class: `side${sheet.winner === team ? " won" : ""}`, "data-team": team },
        el("div", { class: "who" }, side),
        el("div", { class: "total", "data-testid": `total-${team}` }, sheet.totals[team]))),
  );
  $("target").textContent = `${t("to_target", { target: s.target })} · ${t("rules_line", { preset: PRESETS[s.rules.preset] || s.rules.preset })}`;
  const banner = $("banner");
  banner.hidden = sheet.winner === null;
  if (sheet.winner !== null) {
    // A pair wins together: «¡Ganan Ana y Carla!».
    const pair = s.teams < s.seats;
    const words = [t(pair ? "wins_pair" : "wins", { side: sheet.sides[sheet.winner] })];
    if (sheet.zapato) words.push(t("zapato"));
    if (sheet.chancleta) words.push(t("chancleta"));
    banner.replaceChildren(el("strong", {}, words.join(" ")));
    if (!watch) {
      banner.append(el("div", { class: "row" },
        el("button", { class: "big primary", type: "button", on: { click: () => send({ type: "new_partida", custom: "same" }) } }, t("new_same")),
        s.queue.length ? el("button", { class: "big", type: "button", on: { click: () => send({ type: "new_partida", custom: "parados" }) } }, t("new_parados")) : null));
    }
  }
  const items = sheet.lines.map((line) =>
    el("li", { "data-id": line.id, on: watch ? {} : { click: () => openLine(line) } },
      el("span", { class: "what" }, line.hand ? t("hand_n", { n: line.hand }) : t("adjust_line")),
      el("span", { class: "gains" }, gainsText(line.gains) || "0"),
      el("span", { class: "expl" }, line.explanation.join(" ")),
      el("span", { class: "status" }, `${t("saved")} ✓ · ${line.totals.join(" – ")}`)));
  if (outbox) {
    for (const item of outbox.items) {
      items.push(el("li", { class: "pending" },
        el("span", { class: "what" }, pendingLabel(item.action)),
        el("span", { class: "gains" }, "…"),
        el("span", { class: "status" }, offline ? t("pending") : t("sending"))));
    }
  }
  if (!items.length) items.push(el("li", {}, el("span", { class: "expl" }, t("no_lines"))));
  $("lines").replaceChildren(...items);
  const next = $("next");
  next.textContent = sheet.winner !== null || !sheet.lines.length ? "" :
    sheet.next_leader === null ? t("next_unknown") : t("next_leader", { name: sheet.players[sheet.next_leader] });
  const over = sheet.winner !== null;
  for (const id of ["btn-domino", "btn-tranque", "btn-adjust"]) $(id).disabled = over;
  $("btn-undo").disabled = !s.can_undo;
  $("net").hidden = !offline && !watch;
  $("net").className = `chip${offline ? " offline" : ""}`;
  $("net").textContent = watch ? [t("readonly"), offline ? t("offline") : null].filter(Boolean).join(" · ")
    : offline ? t("offline") : t("online");
}

// The sheet as the server last sent it, kept in the browser: with the outbox (the entries not yet
// stored), it is what the page opens with when there is no network.
const sheetKey = () => `fichaflow-anotador-sheet-${code}`;

function keep(answer) {
  payload = answer;
  try {
    localStorage.setItem(sheetKey(), JSON.stringify(answer));
  } catch { /* a full storage only costs the offline copy */ }
}

/** The sheet from the server; with no network, the copy this browser kept (or the error). */
async function loadSheet() {
  try {
    keep(await getJSON(`/api/anotador/mesas/${encodeURIComponent(code)}?lang=${lang}`));
    offline = false;
  } catch (error) {
    const copy = localStorage.getItem(sheetKey());
    if (!(error instanceof TypeError) || !copy) throw error; // a refusal is the server's word
    payload = JSON.parse(copy);
    offline = true;
  }
}

function report(news) {
  if (news.offline !== undefined) offline = news.offline;
  if (news.state) keep(news.state);
  if (news.error) {
    const message = errorMessage(news.error);
    report.lastError = { key: news.item.key, message };
    toast(t("not_saved", { msg: message }));
  }
  if (payload) render();
}

async function send(action) {
  hideToast(); // what it showed (the line just saved) may be what this action undoes
  const promise = outbox.add(action, pendingLabel(action));
  render();
  await promise;
}

async function showSheet() {
  if (watch) {
    $("sheet").hidden = false;
    document.body.classList.add("readonly");
    return follow();
  }
  try {
    await loadSheet();
  } catch (error) {
    // A code the server does not know: said where a mesa is made, not on an empty sheet, and
    // gone from the recent mesas (a mesa the server no longer keeps is no use to come back to).
    if (error.code === "anotador.mesa_not_found") {
      keepRecent(recentMesas().filter((mesa) => mesa.code !== code));
    }
    return showSetup(error.message);
  }
  outbox = new Outbox(code, report);
  $("btn-domino").addEventListener("click", () => openHand("domino"));
  $("btn-tranque").addEventListener("click", () => openHand("tranque"));
  $("btn-adjust").addEventListener("click", () => openAdjust());
  $("btn-undo").addEventListener("click", () => send({ type: "undo" }));
  $("btn-menu").addEventListener("click", openMenu);
  $("entry-cancel").addEventListener("click", () => $("entry").close());
  $("line-close").addEventListener("click", () => $("line-dialog").close());
  $("menu-close").addEventListener("click", () => $("menu").close());
  // Shown only now, with the sheet loaded and its buttons answering: a tap made as soon as the
  // bar appears is never lost.
  render();
  $("sheet").hidden = false;
  $("bar").hidden = false;
  outbox.flush(lang);
  addEventListener("online", () => outbox.flush(lang));
  setInterval(() => outbox.items.length && outbox.flush(lang), 3000);
}

async function follow() {
  // Mirones: long polling; each answer comes when the sheet changes (or after a while).
  let version = -1;
  const kept = `fichaflow-anotador-watch-${watch}`;
  for (;;) {
    try {
      const after = version < 0 ? "" : `&after=${version}`;
      payload = await getJSON(`/api/anotador/watch/${encodeURIComponent(watch)}?lang=${lang}${after}`);
      version = payload.version;
      offline = false;
      try { localStorage.setItem(kept, JSON.stringify(payload)); } catch { /* only the copy */ }
      render();
    } catch {
      offline = true;
      // No network: the sheet as it was last seen here, marked offline, until it comes back.
      if (!payload && localStorage.getItem(kept)) payload = JSON.parse(localStorage.getItem(kept));
      if (payload) render();
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }
}

// --- entering a hand --------------------------------------------------------------------------

let form = null; // what the open entry dialog holds

function openHand(end, line = null) {
  const entry = line ? line.entry : null;
  form = {
    kind: "hand", end, line,
    seat: entry ? entry.seat : null,
    values: {}, active: null,
    toggles: { capicua: !!entry?.capicua, chuchazo: !!entry?.chuchazo, salida_pasada: !!entry?.salida_pasada },
    pase: entry?.pase_redondo ? [...entry.pase_redondo] : [],
    leader: entry ? entry.leader : null,
    pickLeader: false,
  };
  if (entry) {
    (entry.pips || []).forEach((value, seat) => value !== null && (form.values[`s${seat}`] = String(value)));
    (entry.team_pips || []).forEach((value, team) => (form.values[`t${team}`] = String(value)));
  }
  $("entry-error").textContent = "";
  $("entry-result").textContent = "";
  renderEntry();
  $("toast").hidden = true;
  $("entry").showModal();
}

function fieldsOf() {
  const s = state();
  const spec = s.forms[form.end][form.seat];
  if (spec.teams.length) return spec.teams.map((team) => ({ key: `t${team}`, label: s.partida.sides[team] }));
  return spec.seats.map((seat) => ({ key: `s${seat}`, label: s.partida.players[seat] }));
}

function knownLeader() {
  // Who led, if nobody says otherwise: the line's own, or the next salida the sheet expects.
  if (form.line) return form.line.leader;
  return state().partida.next_leader;
}

function keypad(onKey) {
  const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "→"];
  return el("div", { class: "keypad" },
    keys.map((key) => el("button", { type: "button", "data-key": key, on: { click: () => onKey(key) } }, key)));
}

function pickRow(names, selected, onPick, testid) {
  return el("div", { class: "grid2", "data-testid": testid },
    names.map((name, index) => el("button", {
      class: "big pick", type: "button", "aria-pressed": String(selected === index),
      on: { click: () => onPick(index) },
    }, name)));
}

function renderEntry() {
  const s = state();
  const players = s.partida.players;
  const body = $("entry-body");
  if (form.kind === "adjust") return renderAdjust(body);
  const title = form.line ? t("edit_title", { n: form.line.hand }) : t(form.end);
  $("entry-title").textContent = title;
  const parts = [el("p", { class: "ask" }, t(form.end === "domino" ? "who_domino" : "who_tranque")),
    pickRow(players, form.seat, (seat) => { form.seat = seat; form.active = null; renderEntry(); }, "who")];
  if (form.seat !== null) {
    const fields = fieldsOf();
    if (!form.active || !fields.some((f) => f.key === form.active)) {
      form.active = (fields.find((f) => !form.values[f.key]) || fields[0] || {}).key || null;
    }
    if (fields.length) {
      parts.push(el("p", { class: "ask" }, t("pips_hint")));
      parts.push(el("div", { class: "fields" }, fields.map((field) =>
        el("button", { type: "button", class: `field${form.active === field.key ? " active" : ""}`,
          "data-field": field.key, on: { click: () => { form.active = field.key; renderEntry(); } } },
          el("span", {}, field.label), el("b", {}, form.values[field.key] ?? "–")))));
      parts.push(keypad((key) => {
        const value = form.values[form.active] || "";
        if (key === "⌫") form.values[form.active] = value.slice(0, -1);
        else if (key === "→") {
          const index = fields.findIndex((f) => f.key === form.active);
          form.active = fields[(index + 1) % fields.length].key;
        } else if (value.length < 3) form.values[form.active] = value === "0" ? key : value + key;
        renderEntry();
      }));
    }
    const spec = s.forms[form.end][form.seat];
    const toggles = spec.toggles.filter((name) => name !== "pase_redondo").map((name) =>
      el("button", { type: "button", class: "big pick", "data-toggle": name, "aria-pressed": String(form.toggles[name]),
        on: { click: () => { form.toggles[name] = !form.toggles[name]; renderEntry(); } } }, t(name)));
    if (toggles.length) parts.push(el("div", { class: "toggles" }, toggles));
    if (spec.toggles.includes("pase_redondo")) {
      parts.push(el("p", { class: "ask" }, `${t("pase_redondo")}: ${form.pase.map((seat) => players[seat]).join(", ") || "–"}`));
      parts.push(el("div", { class: "toggles" },
        players.map((name, seat) => el("button", { type: "button", class: "big", on: { click: () => { form.pase.push(seat); renderEntry(); } } }, `+ ${name}`)),
        el("button", { type: "button", class: "big", on: { click: () => { form.pase = []; renderEntry(); } } }, t("clear"))));
    }
    const leader = form.leader ?? knownLeader();
    if (leader === null || form.pickLeader) {
      parts.push(el("p", { class: "ask" }, t("who_led")));
      parts.push(pickRow(players, form.leader, (seat) => { form.leader = seat; form.pickLeader = false; renderEntry(); }, "leader"));
    } else {
      parts.push(el("p", { class: "ask" }, t("led", { name: players[leader] }), " · ",
        el("button", { type: "button", class: "chip change-leader", on: { click: () => { form.pickLeader = true; renderEntry(); } } }, t("change"))));
    }
  }
  body.replaceChildren(...parts);
}

/** The most pips ``players`` hands can hold: the heaviest tiles they can have at once, seven
 * each, and the whole montón besides when the mode draws (every mode but parejas). */
function mostPips(players) {
  const s = state();
  const stock = s.mode === "parejas" ? 0 : 28 - 7 * s.seats;
  const held = Math.min(28, 7 * players + stock);
  const tiles = [];
  for (let a = 0; a <= 6; a++) for (let b = a; b <= 6; b++) tiles.push(a + b);
  return tiles.sort((x, y) => y - x).slice(0, held).reduce((sum, pips) => sum + pips, 0);
}

function handAction() {
  const s = state();
  if (form.seat === null) return null;
  const fields = fieldsOf();
  for (const field of fields) {
    if (!form.values[field.key]) {
      $("entry-error").textContent = `${t("pips_of", { name: field.label })}?`;
      form.active = field.key;
      return null;
    }
  }
  for (const field of fields) {
    const max = mostPips(field.key[0] === "t" ? s.seats / s.teams : 1);
    const value = Number(form.values[field.key]);
    if (value > max) {
      $("entry-error").textContent = t("pips_too_many", { name: field.label, max, value });
      form.active = field.key;
      return null;
    }
  }
  if (form.leader === null && knownLeader() === null) {
    $("entry-error").textContent = t("need_leader");
    return null;
  }
  const spec = s.forms[form.end][form.seat];
  const entry = { type: "hand", end: form.end, seat: form.seat, leader: form.leader };
  if (spec.teams.length) entry.team_pips = spec.teams.map(() => 0);
  entry.pips = Array(s.seats).fill(null);
  for (const field of fields) {
    const index = Number(field.key.slice(1));
    if (field.key[0] === "t") entry.team_pips[index] = Number(form.values[field.key]);
    else entry.pips[index] = Number(form.values[field.key]);
  }
  if (spec.teams.length) entry.pips = [];
  for (const name of spec.toggles) if (name !== "pase_redondo" && form.toggles[name]) entry[name] = true;
  if (form.pase.length) entry.pase_redondo = form.pase;
  return form.line ? { type: "edit", target: form.line.id, entry } : entry;
}

// --- adjustments ------------------------------------------------------------------------------

function openAdjust(line = null) {
  const entry = line ? line.entry : null;
  form = { kind: "adjust", line, team: entry ? entry.team : null,
    value: entry ? String(Math.abs(entry.points)) : "", minus: entry ? entry.points < 0 : false,
    reason: entry ? entry.reason : "" };
  $("entry-error").textContent = "";
  $("entry-result").textContent = "";
  renderEntry();
  $("toast").hidden = true;
  $("entry").showModal();
}

function renderAdjust(body) {
  $("entry-title").textContent = form.line ? t("edit_adjust") : t("adjust_title");
  const sides = state().partida.sides;
  const reason = el("input", { id: "reason", maxlength: 80, value: form.reason, on: { input: (e) => (form.reason = e.target.value) } });
  body.replaceChildren(
    el("p", { class: "ask" }, t("adjust_to")),
    pickRow(sides, form.team, (team) => { form.team = team; renderEntry(); }, "team"),
    el("div", { class: "fields" },
      el("button", { type: "button", class: "field active" }, el("span", {}, t("points")), el("b", {}, `${form.minus ? "−" : "+"}${form.value || "–"}`)),
      el("button", { type: "button", class: "big pick", "aria-pressed": String(form.minus), on: { click: () => { form.minus = !form.minus; renderEntry(); } } }, t("minus"))),
    keypad((key) => {
      if (key === "⌫") form.value = form.value.slice(0, -1);
      else if (key !== "→" && form.value.length < 3) form.value = form.value === "0" ? key : form.value + key;
      renderEntry();
    }),
    el("label", {}, el("span", {}, t("reason")), reason),
    el("div", { class: "toggles" },
      ["reason_cabra", "reason_error"].map((key) => el("button", { type: "button", class: "big", on: { click: () => { form.reason = t(key); renderEntry(); } } }, t(key)))),
  );
}

function adjustAction() {
  if (form.team === null) return null;
  if (!Number(form.value)) {
    $("entry-error").textContent = t("need_points");
    return null;
  }
  if (!form.reason.trim()) {
    $("entry-error").textContent = t("need_reason");
    return null;
  }
  const entry = { type: "adjust", team: form.team, points: (form.minus ? -1 : 1) * Number(form.value), reason: form.reason.trim() };
  return form.line ? { type: "edit", target: form.line.id, entry } : entry;
}

async function saveEntry() {
  $("entry-error").textContent = "";
  const action = form.kind === "adjust" ? adjustAction() : handAction();
  if (!action) {
    if (form.kind !== "adjust") renderEntry();
    return;
  }
  const before = outbox.items.length;
  const promise = outbox.add(action, pendingLabel(action));
  const key = outbox.items[before]?.key;
  report.lastError = null;
  $("entry-save").disabled = true;
  $("entry-save").textContent = t("sending");
  render();
  await promise;
  $("entry-save").disabled = false;
  $("entry-save").textContent = t("save");
  if (report.lastError && report.lastError.key === key) {
    $("entry-error").textContent = report.lastError.message;
    return; // refused: the dialog stays open to correct it
  }
  $("entry").close();
  // Show what the saved line is worth: the corrected line, or the new one.
  const lines = payload.state.partida.lines;
  const line = action.type === "edit" ? lines.find((l) => l.id === action.target) : lines.at(-1);
  if (line && !offline) toast(line.explanation.join(" "));
  $("lines").lastElementChild?.scrollIntoView({ block: "nearest" });
}

// --- a line, the menu -------------------------------------------------------------------------

function openLine(line) {
  const body = $("line-body");
  body.replaceChildren(
    el("h2", {}, line.hand ? t("hand_n", { n: line.hand }) : t("adjust_line")),
    ...line.explanation.map((text) => el("p", {}, text)),
    el("p", { class: "muted" }, line.totals.join(" – ")));
  const remove = $("line-delete");
  remove.textContent = t("delete");
  remove.onclick = () => {
    if (remove.dataset.armed !== "1") {
      remove.dataset.armed = "1";
      remove.textContent = t("delete_confirm");
      return;
    }
    remove.dataset.armed = "";
    $("line-dialog").close();
    send({ type: "delete", target: line.id });
  };
  remove.dataset.armed = "";
  $("line-edit").onclick = () => {
    $("line-dialog").close();
    if (line.entry.type === "adjust") openAdjust(line);
    else openHand(line.entry.end, line);
  };
  $("toast").hidden = true;
  $("line-dialog").showModal();
}

function standingsTable(rows, nameOf) {
  const head = ["", "st_p", "st_w", "st_h", "st_f", "st_a", "st_zg", "st_zt"];
  return el("table", { class: "standings" },
    el("tr", {}, head.map((key) => el("th", {}, key ? t(key) : ""))),
    rows.map((row) => el("tr", {}, el("td", {}, nameOf(row)),
      ["partidas", "won", "hands_won", "points_for", "points_against", "zapatos_given", "zapatos_taken"].map((k) => el("td", {}, row[k])))));
}

function openMenu() {
  const s = state();
  const base = `${location.origin}${location.pathname}`;
  const watchLink = `${base}?ver=${encodeURIComponent(payload.watch)}`;
  const mineLink = `${base}?mesa=${encodeURIComponent(code)}`;
  const exportBase = `/api/anotador/export/${encodeURIComponent(code)}/${s.partida.number}`;
  // Each field is named by the heading above it (its label for a screen reader or voice control).
  const queue = el("textarea", { rows: 3, "aria-labelledby": "menu-queue" }, s.queue.join("\n"));
  $("menu-body").replaceChildren(
    el("h2", { id: "menu-share" }, t("share")),
    el("input", { readonly: true, value: watchLink, "data-testid": "watch-link", "aria-labelledby": "menu-share" }),
    el("button", { type: "button", class: "big", on: { click: async () => {
      try { await navigator.clipboard.writeText(watchLink); toast(t("copied")); } catch { /* shown above */ }
    } } }, t("copy")),
    el("h2", { id: "menu-mine" }, t("mine_link")),
    el("input", { readonly: true, value: mineLink, "aria-labelledby": "menu-mine" }),
    el("h2", {}, t("export")),
    el("div", { class: "toggles" },
      el("a", { class: "big", href: `${exportBase}.csv?lang=${lang}` }, "CSV"),
      el("a", { class: "big", href: `${exportBase}.json?lang=${lang}` }, "JSON"),
      el("a", { class: "big", href: `${exportBase}.html?lang=${lang}`, target: "_blank" }, t("print"))),
    el("h2", { id: "menu-queue" }, t("queue_title")),
    queue,
    el("button", { type: "button", class: "big", on: { click: () => {
      $("menu").close();
      send({ type: "queue", queue: queue.value.split("\n").map((n) => n.trim()).filter(Boolean) });
    } } }, t("queue_save")),
    s.partida.lines.length ? el("button", { type: "button", class: "big", on: { click: () => { $("menu").close(); send({ type: "new_partida", custom: "same" }); } } }, t("new_same")) : null,
    s.history.length ? el("h2", {}, t("history")) : null,
    el("ul", {}, s.history.map((p) => el("li", {},
      `${t("partida_n", { n: p.number })}: ${p.sides.map((side, i) => `${side} ${p.totals[i]}`).join(" – ")}${p.zapato ? ` · ${t("zapato")}` : ""}${p.chancleta ? ` · ${t("chancleta")}` : ""}`))),
    el("h2", {}, t("standings")),
    el("h3", {}, t("players")),
    standingsTable(s.standings.players, (row) => row.name),
    s.standings.pairs.length ? el("h3", {}, t("pairs")) : null,
    s.standings.pairs.length ? standingsTable(s.standings.pairs, (row) => t("pair_names", { a: row.names[0], b: row.names[1] })) : null,
  );
  $("menu").showModal();
}

// --- start ------------------------------------------------------------------------------------

$("lang").addEventListener("click", async () => {
  lang = lang === "es" ? "en" : "es";
  localStorage.setItem(LANG_KEY, lang);
  translateStatic();
  if (code) {
    await loadSheet();
    render();
  } else if (!watch) {
    renderSetupFields();
  }
});
$("entry-save").addEventListener("click", saveEntry);
translateStatic();
if (!TEXT[lang]) lang = "es";
if (code || watch) showSheet();
else showSetup();
offerUpdates("/anotador/sw.js", "/anotador/", t);
