// An entrant's own page (?p=PUBLIC&e=NUMBER&k=KEY, the address their registration gave, or
// the organizer handed them): their table in the newest round and, where it is played online,
// a link to sit in each of their seats (its token kept in this browser as the game's page
// keeps a seat's, so the game puts them in their chair). Asked again every few seconds.
import { api, el, languageSwitch, lang, sideName, t, translatePage } from "./common.js";
import { saveSeatTicket } from "../js/session.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const pub = params.get("p") ?? "";
const number = params.get("e") ?? "";
const key = params.get("k") ?? "";
const EVERY_MS = 4000;
let version = null;

translatePage();
languageSwitch($("lang"));
$("standings-link").href = `clasificacion.html?p=${encodeURIComponent(pub)}${lang === "en" ? "&lang=en" : ""}`;

function draw(view) {
  const { record } = view;
  const me = view.entrant;
  $("title").textContent = record.settings.name;
  document.title = `${me.name} · ${record.settings.name}`;
  $("who").textContent = me.name;
  const made = record.rounds[record.rounds.length - 1];
  const table = made?.tables.find((x) => x.a.includes(me.id) || x.b.includes(me.id));
  if (!made) $("where").textContent = t("no_rounds");
  else if (!table) $("where").textContent = t("player_rests", { round: made.number });
  else {
    const mine = table.a.includes(me.id) ? table.a : table.b;
    const theirs = mine === table.a ? table.b : table.a;
    $("where").textContent = t("player_table", {
      round: made.number, table: table.table, rivals: sideName(record, theirs),
    });
  }
  $("seats").replaceChildren(...view.seats
    .filter((s) => !made || s.round === made.number)
    .map((s) => {
      const go = el("a", { href: `/m/${encodeURIComponent(s.mesa)}${lang === "en" ? "?lang=en" : ""}`,
        class: "primary-link", "data-seat": String(s.seat),
        text: t("player_sit", { table: s.table, seat: s.seat, name: s.name }) });
      go.addEventListener("click", () => saveSeatTicket(s.mesa, { token: s.token }));
      return el("li", {}, go);
    }));
}

async function refresh() {
  try {
    const view = await api(`public/${encodeURIComponent(pub)}/entrants/${encodeURIComponent(number)}?k=${encodeURIComponent(key)}`);
    $("error").hidden = true;
    if (view.version !== version || view.seats.length !== document.querySelectorAll("#seats li").length) {
      version = view.version;
      draw(view);
    }
  } catch (error) {
    $("error").textContent = error.status ? error.message : t("offline");
    $("error").hidden = false;
    if (error.status === 403 || error.status === 404) return;
  }
  setTimeout(refresh, EVERY_MS);
}

refresh();
