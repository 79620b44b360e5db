// A round's tables (?p=PUBLIC&ronda=N; the newest round without ronda): who sits where, the
// result once entered, and on paper a card per table with room for the score and signatures.
// One table's own page (&mesa=M, linked from each card): the same card alone, with the link to
// watch it when it is played online, kept up to date until its result is in.
// With the organizer's code instead (?o=CODE), a duplicate round also gets its deal slips: one
// per table, every seat's tiles for each deal and the seat that leads (the server's
// /rounds/N/deals, the organizer's only while the round's seed is secret), each on its own page;
// and a table kept in the anotador gets, on its card, one strip per side to cut and hand over:
// that side's code and the address where it confirms the sheet's result.
import {
  api, confirmPath, describe, el, languageSwitch, lang, results, sideName, t, translatePage,
} from "./common.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const organizer = params.get("o");
const pub = params.get("p") ?? "";
const single = Number(params.get("mesa")) || null;
const REFRESH_MS = 5000;

translatePage();
languageSwitch($("lang"));
$("print").addEventListener("click", () => print());

function link(number, table = null) {
  const next = new URLSearchParams(organizer ? { o: organizer } : { p: pub });
  next.set("ronda", String(number));
  if (table) next.set("mesa", String(table));
  if (lang === "en") next.set("lang", "en");
  return `?${next}`;
}

/** Who sits at ``seat`` of ``table``: side a at 0 and 2, b at 1 and 3; a pair's own player
 * when the pair named its two, else the pair (or, individual, the player). */
function seatName(record, table, seat) {
  const side = seat % 2 === 0 ? table.a : table.b;
  const half = seat < 2 ? 0 : 1;
  if (side.length === 2) return record.entrants[side[half] - 1].name;
  const entrant = record.entrants[side[0] - 1];
  return entrant.players?.[half] ? `${entrant.players[half]} (${entrant.name})` : entrant.name;
}

function slip(record, made, table, dealt) {
  const seats = [0, 1, 2, 3];
  const head = el("tr", {},
    el("th", { scope: "col", text: t("slip_deal") }),
    el("th", { scope: "col", text: t("slip_leads") }),
    ...seats.map((seat) => el("th", { scope: "col" },
      el("span", { text: t("slip_seat", { seat }) }),
      el("small", { text: ` ${t(seat % 2 === 0 ? "slip_ns" : "slip_ew")}` }),
      el("br"), el("span", { class: "slip-name", text: seatName(record, table, seat) }))));
  const rows = dealt.deals.map((deal) => el("tr", { "data-deal": String(deal.deal) },
    el("th", { scope: "row", text: String(deal.deal) }),
    el("td", { text: String(deal.leader) }),
    ...deal.hands.map((hand, seat) => el("td", { class: "tiles", "data-seat": String(seat),
      text: hand.join(" ") }))));
  return el("article", { class: "slip", "data-table": String(table.table) },
    el("h3", { text: t("slip", { table: table.table, round: made.number }) }),
    el("table", { class: "slip-deals" }, el("thead", {}, head), el("tbody", {}, ...rows)),
    el("p", { class: "muted commitment", text: t("slip_commitment", { commitment: dealt.commitment }) }));
}

/** The organizer's strips for a table kept in the anotador: each side's code, to cut apart. */
function confirmStrips(view, record, made, table) {
  const kept = view.sheets.find((s) => s.round === made.number && s.table === table.table);
  if (!kept?.codes) return null;
  return el("div", { class: "strips" }, ...["a", "b"].map((side) => {
    const address = new URL(confirmPath(view.public, made.number, table.table, kept.codes[side]), location.href);
    return el("p", { class: "strip", "data-side": side },
      el("strong", { text: t("sheet_code", { side: side.toUpperCase(),
        name: sideName(record, table[side]), code: kept.codes[side] }) }),
      el("br"), el("small", { text: address.href }));
  }));
}

async function show() {
  const view = await api(organizer ? encodeURIComponent(organizer) : `public/${encodeURIComponent(pub)}`);
  const { record } = view;
  const wanted = Number(params.get("ronda")) || record.rounds.length;
  const made = record.rounds[wanted - 1];
  $("title").textContent = record.settings.name;
  $("rounds-nav").replaceChildren(...record.rounds.map((r) => el("a", {
    href: link(r.number), text: t("round", { round: r.number }),
    ...(r.number === wanted && !single ? { "aria-current": "page" } : {}),
  })));
  if (!made) {
    $("round").textContent = t("no_rounds");
    return;
  }
  const shown = single ? made.tables.filter((table) => table.table === single) : made.tables;
  const heading = t("round_of", { round: made.number, rounds: record.settings.rounds });
  if (single && !shown.length) throw new Error(t("no_table", { round: made.number, table: single }));
  const named = single ? `${t("table", { table: single })} · ${heading}` : heading;
  document.title = `${record.settings.name} · ${named}`;
  $("round").textContent = named;
  const logged = results(record);
  const online = new Map((view.mesas ?? []).map((m) => [`${m.round}:${m.table}`, m.mesa]));
  $("tables").replaceChildren(...shown.map((table) => {
    const entered = logged.get(`${made.number}:${table.table}`);
    const mesa = online.get(`${made.number}:${table.table}`);
    return el("article", { class: "card", "data-table": String(table.table) },
      el("h3", { text: t("table", { table: table.table }) }),
      el("p", {}, el("strong", { text: sideName(record, table.a) }),
        el("span", { class: "muted", text: ` · ${t("seats_a")}` })),
      el("p", { class: "muted", text: t("versus") }),
      el("p", {}, el("strong", { text: sideName(record, table.b) }),
        el("span", { class: "muted", text: ` · ${t("seats_b")}` })),
      entered
        ? el("p", { class: "entered", text: describe(record, table, entered) })
        : el("p", { class: "blank" }, el("span", { class: "screen-only muted", text: t("pending") }),
          el("span", { class: "print-only", text: t("score_line") })),
      el("p", { class: "print-only signatures", text: `${t("signature")}: ____________   ${t("signature")}: ____________` }),
      entered ? null : confirmStrips(view, record, made, table),
      el("p", { class: "screen-only table-links" },
        single ? null : el("a", { href: link(made.number, table.table), text: t("table_page") }),
        single || !mesa ? null : " · ",
        mesa ? el("a", { href: `/m/${encodeURIComponent(mesa)}`, text: t("online_watch") }) : null));
  }));
  $("byes").textContent = single ? "" : made.byes.map((b) => t("bye", { name: record.entrants[b - 1].name })).join(" · ");
  if (single) {
    if (!logged.has(`${made.number}:${single}`)) setTimeout(() => show().catch(failed), REFRESH_MS);
    return;
  }
  if (record.settings.duplicate > 0 && made.tables.length) {
    if (organizer) {
      const dealt = await api(`${encodeURIComponent(organizer)}/rounds/${made.number}/deals`);
      $("slip-list").replaceChildren(...made.tables.map((table) => slip(record, made, table, dealt)));
      $("slips").hidden = false;
    } else {
      $("slips-secret").hidden = false;
    }
  }
}

function failed(error) {
  $("error").textContent = error.message;
  $("error").hidden = false;
}

await show().catch(failed);
