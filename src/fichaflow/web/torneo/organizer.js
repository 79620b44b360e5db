// The organizer's page: create a torneo, register and withdraw, pair the next round, enter each
// table's result and correct one (a line of the history). It holds the organizer's code
// (?o=CODE); everything it shows is the server's answer to the last action.
import {
  api, confirmPath, describe, el, languageSwitch, lang, presetName, results, sideName,
  standingsTable, t, tiebreakWords, translatePage,
} from "./common.js";
import { saveSeatTicket } from "../js/session.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let code = params.get("o");
let view = null;

translatePage();
languageSwitch($("lang"));

function showError(error) {
  $("error").textContent = error ? error.message : "";
  $("error").hidden = !error;
  if (error) $("error").scrollIntoView({ block: "nearest" });
}

/** Do one action; the page redraws from the server's answer, or says why it was refused. */
async function act(path, body) {
  try {
    const answer = await api(path, body);
    showError(null);
    draw(answer);
    return true;
  } catch (error) {
    showError(error);
    return false;
  }
}

function withLang(url) {
  return lang === "en" ? `${url}${url.includes("?") ? "&" : "?"}lang=en` : url;
}

function resultForm(record, made, table, had) {
  const duplicate = record.settings.duplicate > 0;
  const names = [sideName(record, table.a), sideName(record, table.b)];
  const form = el("form", { class: "result", autocomplete: "off",
    "data-testid": `result-${made.number}-${table.table}` });
  if (duplicate) {
    form.append(el("label", {}, el("span", { text: t("deals") }),
      el("input", { name: "deals", required: true })));
  } else {
    names.forEach((name, i) => form.append(el("label", {},
      el("span", { text: t("score_of", { name }) }),
      el("input", { name: `score${i}`, type: "number", min: 0, max: 10000, required: true,
        inputMode: "numeric" }))));
  }
  if (had) {
    form.append(el("label", {}, el("span", { text: t("note") }),
      el("input", { name: "note", maxLength: 200 })));
  }
  const send = el("button", { type: "submit", class: "primary",
    text: had ? t("save_correction") : t("enter") });
  form.append(send);
  for (const side of ["a", "b"]) {
    const absent = names[side === "a" ? 0 : 1];
    const button = el("button", { type: "button", class: "quiet", text: t("forfeit", { name: absent }) });
    button.addEventListener("click", () => enter({ forfeit: side }));
    form.append(button);
  }
  async function enter(body) {
    if (had) Object.assign(body, { correct: true, note: form.elements.note.value });
    const path = `POST ${code}/rounds/${made.number}/tables/${table.table}/result`;
    await act(path, body);
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (duplicate) {
      const deals = form.elements.deals.value.trim().split(/\s+/).map((d) => d.split("-").map(Number));
      enter({ deals });
    } else {
      enter({ score: [Number(form.elements.score0.value), Number(form.elements.score1.value)] });
    }
  });
  return form;
}

// A table played online: the server makes a game mesa with the torneo's rules whose seats are
// the table's players' (side a in seats 0 and 2, side b in 1 and 3; each sits from their own
// page, with their seat's token); its partida starts at once and its result is entered by
// itself when it ends. This browser may open it as its host (the server gives the host's token
// to the organizer). A mesa made apart still brings its result from its code or link.
function mesaCode(text) {
  const found = text.trim().match(/(?:\/m\/)?([A-Za-z0-9_-]+)\/?$/);
  return found ? found[1] : "";
}

function onlineTable(record, made, table) {
  const online = view.mesas.find((m) => m.round === made.number && m.table === table.table);
  const box = el("div", { class: "online", "data-testid": `online-${made.number}-${table.table}` });
  const input = el("input", { name: "mesa", value: online?.mesa ?? "", autocomplete: "off" });
  const label = el("label", {}, el("span", { text: t("online_code") }), input);
  const link = el("p", { class: "muted" });
  if (online) {
    const host = el("a", { href: `/m/${encodeURIComponent(online.mesa)}`, text: t("online_host"), target: "_blank" });
    // This browser is the mesa's host: the game's page opened here may seat a bot for an absent player.
    host.addEventListener("click", () => saveSeatTicket(online.mesa, { token: online.host }));
    link.replaceChildren(
      el("a", { href: `/m/${encodeURIComponent(online.mesa)}`, text: t("online_watch"), target: "_blank" }),
      ` · ${t("online_seats", { a: sideName(record, table.a), b: sideName(record, table.b) })} · `, host,
      el("br"), t("online_auto"));
  }
  const make = el("button", { type: "button", class: "quiet", text: t("online_make"), hidden: Boolean(online) });
  make.addEventListener("click", () => act(`POST ${code}/rounds/${made.number}/tables/${table.table}/mesa`));
  const bring = el("button", { type: "button", class: "quiet", text: t("online_bring") });
  bring.addEventListener("click", async () => {
    const mesa = mesaCode(input.value);
    try {
      const response = await fetch(`/api/mesas/${encodeURIComponent(mesa)}/partidas/1/record`);
      const data = await response.json();
      if (!response.ok) throw new Error((lang === "en" ? data.error?.message_en : data.error?.message) || response.status);
      await act(`POST ${code}/rounds/${made.number}/tables/${table.table}/result`,
        { record: data, by: t("online_by", { mesa }) });
    } catch (error) {
      showError(error);
    }
  });
  box.append(el("h5", { text: t("online_title") }), make, link, label, bring);
  return box;
}

// A table kept at a physical table: the server binds an anotador sheet to it (the torneo's
// rules, the pairing's players, the pairs' names), and each side gets its own code to confirm
// the sheet's result when the partida ends (printed on the round's page opened with the
// organizer's code, or its link handed over). With both sides', the result goes into the
// standings; until then it is pending, and the organizer may approve it from the sheet.
function physicalTable(record, made, table) {
  const kept = view.sheets.find((s) => s.round === made.number && s.table === table.table);
  const box = el("div", { class: "physical", "data-testid": `sheet-${made.number}-${table.table}` },
    el("h5", { text: t("sheet_title") }));
  const path = `${code}/rounds/${made.number}/tables/${table.table}/sheet`;
  if (!kept) {
    const make = el("button", { type: "button", class: "quiet", text: t("sheet_make") });
    make.addEventListener("click", () => act(`POST ${path}`));
    box.append(make);
    return box;
  }
  const names = { a: sideName(record, table.a), b: sideName(record, table.b) };
  box.append(el("p", {}, el("a", { href: withLang(`/anotador/?mesa=${encodeURIComponent(kept.sheet)}`),
    text: t("sheet_open"), target: "_blank", "data-testid": "sheet-open" })));
  box.append(el("ul", { class: "plain codes" }, ...["a", "b"].map((side) => el("li", { "data-side": side },
    el("span", { text: t("sheet_code", { side: side.toUpperCase(), name: names[side], code: kept.codes[side] }) }),
    " · ", el("a", { href: withLang(confirmPath(view.public, made.number, table.table, kept.codes[side])),
      text: t("sheet_link"), target: "_blank" })))));
  const score = kept.score ? `${kept.score[0]}-${kept.score[1]}` : "";
  const state = el("p", { class: "pending", "data-testid": "sheet-state" });
  if (!kept.over) {
    state.textContent = kept.score && (kept.score[0] || kept.score[1])
      ? t("sheet_playing", { score }) : t("sheet_empty");
    box.append(state, el("p", { class: "muted", text: t("sheet_hint") }));
    return box;
  }
  const who = ["a", "b"].map((side) => t(kept.confirmed[side] ? "sheet_confirmed_by" : "sheet_waiting",
    { name: names[side] }));
  state.append(el("strong", { text: t("sheet_pending", { score }) }), ` · ${who.join(" · ")}`);
  const approve = el("button", { type: "button", class: "quiet", text: t("sheet_approve") });
  approve.addEventListener("click", () => act(`POST ${path}/approve`, {}));
  box.append(state, approve);
  return box;
}

function drawRound(record, made, logged) {
  const box = el("section", { class: "round", "data-round": String(made.number) },
    el("h3", { text: t("round_of", { round: made.number, rounds: record.settings.rounds }) }));
  const waiting = made.tables.filter((x) => !logged.has(`${made.number}:${x.table}`)
    && !view.mesas.some((m) => m.round === made.number && m.table === x.table)
    && !view.sheets.some((s) => s.round === made.number && s.table === x.table));
  if (waiting.length) {
    const all = el("button", { type: "button", class: "quiet", text: t("online_round", { round: made.number }) });
    all.addEventListener("click", () => act(`POST ${code}/rounds/${made.number}/mesas`));
    box.append(el("p", {}, all));
  }
  for (const table of made.tables) {
    const entered = logged.get(`${made.number}:${table.table}`);
    const item = el("article", { class: "table", "data-table": String(table.table) },
      el("h4", { text: t("table", { table: table.table }) }),
      el("p", { class: "sides" },
        el("span", { class: "side", text: sideName(record, table.a) }),
        el("span", { class: "muted", text: ` ${t("versus")} ` }),
        el("span", { class: "side", text: sideName(record, table.b) })));
    if (entered) {
      const shown = el("p", { class: "entered", "data-testid": "entered" },
        el("strong", { text: describe(record, table, entered) }));
      const fix = el("button", { type: "button", class: "quiet", text: t("correct") });
      fix.addEventListener("click", () => {
        fix.replaceWith(resultForm(record, made, table, true));
      });
      item.append(shown, fix);
    } else {
      const kept = view.sheets.some((s) => s.round === made.number && s.table === table.table);
      const online = view.mesas.some((m) => m.round === made.number && m.table === table.table);
      item.append(resultForm(record, made, table, false));
      // A table is played online or kept at a physical table, not both.
      if (!kept) item.append(onlineTable(record, made, table));
      if (!online) item.append(physicalTable(record, made, table));
    }
    box.append(item);
  }
  for (const bye of made.byes) {
    box.append(el("p", { class: "bye", text: t("bye", { name: record.entrants[bye - 1].name }) }));
  }
  return box;
}

function draw(answer) {
  view = answer;
  const record = view.record;
  const { settings } = record;
  $("title").textContent = settings.name;
  document.title = `${settings.name} · FichaFlow`;
  const pub = encodeURIComponent(view.public);
  $("standings-link").href = withLang(`clasificacion.html?p=${pub}`);
  $("projector-link").href = withLang(`clasificacion.html?p=${pub}&proyector=1`);
  $("tables-link").href = withLang(`ronda.html?p=${pub}`);
  $("csv-link").href = withLang(`/api/torneos/export/${pub}.csv`);
  $("json-link").href = `/api/torneos/export/${encodeURIComponent(code)}.json`;
  // The duplicate's deal slips are the organizer's (the seed is secret while a round is played).
  $("slips-link").href = withLang(`ronda.html?o=${encodeURIComponent(code)}`);
  $("slips-link").hidden = !(settings.duplicate > 0 && record.rounds.length);

  const made = record.rounds.length;
  const pair = $("pair");
  pair.hidden = !view.can_pair;
  pair.textContent = t("pair", { round: made + 1 });
  $("pair-state").textContent = made >= settings.rounds ? t("all_rounds")
    : view.can_pair ? (made ? "" : t("no_rounds")) : t("round_open", { round: made });
  const logged = results(record);
  // The newest round first: it is the one being played.
  $("rounds").replaceChildren(...[...record.rounds].reverse().map((r) => drawRound(record, r, logged)));

  $("standings").replaceChildren(standingsTable(view));
  $("tiebreaks").textContent = tiebreakWords(view);

  const signup = `inscripcion.html?p=${pub}`;
  $("signup-link").href = withLang(signup);
  $("signup-link").textContent = new URL(signup, location.href).href;
  $("signup-open").checked = view.registration.open;
  $("signup-limit").value = view.registration.limit ?? "";

  $("entrants").replaceChildren(...record.entrants.map((e) => {
    const item = el("li", { text: e.name });
    item.append(" · ", el("a", { href: withLang(view.players[String(e.id)]), text: t("player_link"),
      "aria-label": `${t("player_link")}: ${e.name}` }), " ");
    if (e.withdrawn !== undefined) {
      const gone = e.withdrawn ? t("withdrawn", { round: e.withdrawn }) : t("withdrawn_before");
      item.append(el("span", { class: "muted", text: ` · ${gone}` }));
    } else {
      const out = el("button", { type: "button", class: "quiet", text: t("withdraw"),
        "aria-label": t("withdraw_named", { name: e.name }) });
      out.addEventListener("click", () => act(`POST ${code}/entrants/${e.id}/withdraw`));
      item.append(" ", out);
    }
    return item;
  }));
  if (!record.entrants.length) $("entrants").replaceChildren(el("li", { text: t("no_entrants") }));

  $("audit").replaceChildren(...view.audit.map((c) => {
    const table = record.rounds[c.round - 1].tables[c.table - 1];
    return el("li", { text: t("audit_line", {
      round: c.round, table: c.table, before: describe(record, table, c.before),
      after: describe(record, table, c.after), by: c.by, at: c.at,
    }) + (c.note ? ` — «${c.note}»` : "") });
  }));
  if (!view.audit.length) $("audit").replaceChildren(el("li", { text: t("no_corrections") }));
  $("create").hidden = true;
  $("run").hidden = false;
}

async function presets() {
  const answer = await (await fetch("/api/presets")).json();
  const select = $("preset");
  for (const [name, options] of Object.entries(answer.presets)) {
    if (options.mode !== "parejas") continue;
    select.append(el("option", { value: name, text: presetName(name) }));
  }
  select.value = answer.presets[answer.default_preset]?.mode === "parejas"
    ? answer.default_preset : select.options[0]?.value;
}

$("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target.elements;
  let body;
  if (form.json.value.trim()) {
    try {
      body = JSON.parse(form.json.value);
    } catch (error) {
      showError(error);
      return;
    }
  } else {
    const individual = form.format.value === "individual";
    body = {
      name: form.name.value,
      date: form.date.value,
      rules: { preset: form.preset.value },
      format: form.format.value,
      pairing: individual ? "rotation" : form.pairing.value,
      rounds: Number(form.rounds.value),
      entrants: form.entrants.value.split("\n").map((s) => s.trim()).filter(Boolean),
    };
  }
  try {
    const answer = await api("POST ", body);
    code = answer.code;
    const next = new URLSearchParams(location.search);
    next.set("o", code);
    history.replaceState(null, "", `?${next}`);
    showError(null);
    draw(answer);
  } catch (error) {
    showError(error);
  }
});

$("pair").addEventListener("click", () => act(`POST ${code}/rounds`));

$("signup-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const limit = $("signup-limit").value.trim();
  act(`POST ${code}/registration`, { open: $("signup-open").checked, limit: limit ? Number(limit) : null });
});

// While a table is played online, its result comes by itself, and a physical table's sheet is
// being kept or confirmed: the page asks every few seconds. A sheet that moved is drawn again
// in its place (the rest of the page, a result being typed, stays as it is).
setInterval(async () => {
  if (!view || document.hidden) return;
  const logged = results(view.record);
  const open = (x) => !logged.has(`${x.round}:${x.table}`);
  if (!view.mesas.some(open) && !view.sheets.some(open)) return;
  try {
    const fresh = await api(encodeURIComponent(code));
    if (fresh.version !== view.version) {
      draw(fresh);
      return;
    }
    const before = view.sheets;
    view = fresh;
    for (const kept of fresh.sheets) {
      const old = before.find((s) => s.round === kept.round && s.table === kept.table);
      if (JSON.stringify(old) === JSON.stringify(kept)) continue;
      const box = document.querySelector(`[data-testid=sheet-${kept.round}-${kept.table}]`);
      const made = fresh.record.rounds[kept.round - 1];
      box?.replaceWith(physicalTable(fresh.record, made, made.tables[kept.table - 1]));
    }
  } catch {
    // offline for a moment: the next try will do
  }
}, 5000);

$("register-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target.elements;
  const players = [form.player1.value.trim(), form.player2.value.trim()].filter(Boolean);
  const body = players.length ? { name: form.name.value, players } : { name: form.name.value };
  if (await act(`POST ${code}/entrants`, body)) event.target.reset();
});

if (code) {
  try {
    draw(await api(encodeURIComponent(code)));
  } catch (error) {
    showError(error);
  }
} else {
  await presets();
  $("create").hidden = false;
}
