// A round's tables (?p=PUBLIC&ronda=N; the newest round without ronda): who sits where, the
// result once entered, and on paper a card per table with room for the score and signatures.
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

translatePage();
languageSwitch($("lang"));
$("print").addEventListener("click", () => print());

function link(number) {
  const next = new URLSearchParams(organizer ? { o: organizer } : { p: pub });
  next.set("ronda", String(number));
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

try {
  const view = await api(organizer ? encodeURIComponent(organizer) : `public/${encodeURIComponent(pub)}`);
  const { record } = view;
  const wanted = Number(params.get("ronda")) || record.rounds.length;
  const made = record.rounds[wanted - 1];
  $("title").textContent = record.settings.name;
  $("rounds-nav").replaceChildren(...record.rounds.map((r) => el("a", {
    href: link(r.number), text: t("round", { round: r.number }),
    ...(r.number === wanted ? { "aria-current": "page" } : {}),
  })));
  if (!made) {
    $("round").textContent = t("no_rounds");
  } else {
    document.title = `${record.settings.name} · ${t("round", { round: made.number })}`;
    $("round").textContent = t("round_of", { round: made.number, rounds: record.settings.rounds });
    const logged = results(record);
    $("tables").replaceChildren(...made.tables.map((table) => {
      const entered = logged.get(`${made.number}:${table.table}`);
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
        entered ? null : confirmStrips(view, record, made, table));
    }));
    $("byes").textContent = made.byes.map((b) => t("bye", { name: record.entrants[b - 1].name })).join(" · ");
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
} catch (error) {
  $("error").textContent = error.message;
  $("error").hidden = false;
}
