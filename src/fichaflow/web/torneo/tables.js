// A round's tables (?p=PUBLIC&ronda=N; the newest round without ronda): who sits where, the
// result once entered, and on paper a card per table with room for the score and signatures.
import { api, describe, el, languageSwitch, lang, results, sideName, t, translatePage } from "./common.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const pub = params.get("p") ?? "";

translatePage();
languageSwitch($("lang"));
$("print").addEventListener("click", () => print());

function link(number) {
  const next = new URLSearchParams({ p: pub, ronda: String(number) });
  if (lang === "en") next.set("lang", "en");
  return `?${next}`;
}

try {
  const view = await api(`public/${encodeURIComponent(pub)}`);
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
        el("p", { class: "print-only signatures", text: `${t("signature")}: ____________   ${t("signature")}: ____________` }));
    }));
    $("byes").textContent = made.byes.map((b) => t("bye", { name: record.entrants[b - 1].name })).join(" · ");
  }
} catch (error) {
  $("error").textContent = error.message;
  $("error").hidden = false;
}
