// A side of a physical table confirms its anotador sheet's result (?p=PUBLIC&ronda=R&mesa=T,
// and &c=CODE when the link carries the side's code): the page shows the sheet's score as the
// server has it now and sends it with the code, so a side confirms exactly what it read. With
// both sides' confirmations the result goes into the standings; a refusal (a wrong code, a
// sheet not over, a side confirming twice) is the server's Spanish words and changes nothing.
import { api, describe, el, languageSwitch, lang, results, sideName, t, translatePage } from "./common.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const pub = params.get("p") ?? "";
const round = Number(params.get("ronda"));
const number = Number(params.get("mesa"));
const EVERY_MS = 4000;
let score = null;

translatePage();
languageSwitch($("lang"));
$("standings-link").href = `clasificacion.html?p=${encodeURIComponent(pub)}${lang === "en" ? "&lang=en" : ""}`;
$("confirm-form").elements.code.value = params.get("c") ?? "";

function showError(error) {
  $("error").textContent = error ? error.message : "";
  $("error").hidden = !error;
}

/** Draws the table and its sheet; true while there is something left to wait for. */
function draw(view) {
  const { record } = view;
  const table = record.rounds[round - 1]?.tables[number - 1];
  const kept = view.sheet;
  $("title").textContent = record.settings.name;
  if (!table) {
    showError({ message: t("no_rounds") });
    return false;
  }
  $("table").textContent = `${t("table", { table: number })} · ${t("round", { round })}`;
  $("sides").replaceChildren(el("span", { class: "side", text: `A: ${sideName(record, table.a)}` }),
    el("br"), el("span", { class: "side", text: `B: ${sideName(record, table.b)}` }));
  const entered = results(record).get(`${round}:${number}`);
  const form = $("confirm-form");
  if (entered) {
    $("state").textContent = t("confirm_entered", { score: describe(record, table, entered) });
    form.hidden = true;
    return false;
  }
  score = kept?.over ? kept.score : null;
  const shown = kept?.score ? `${kept.score[0]}-${kept.score[1]}` : "0-0";
  $("state").textContent = score ? t("sheet_pending", { score: shown }) : t("confirm_unfinished", { score: shown });
  $("send").textContent = score ? t("confirm_send", { score: shown }) : t("confirm_title");
  $("send").disabled = !score;
  form.hidden = !kept;
  return true;
}

async function refresh() {
  try {
    const more = draw(await api(`public/${encodeURIComponent(pub)}/rounds/${round}/tables/${number}/sheet`));
    if (more) setTimeout(refresh, EVERY_MS);
  } catch (error) {
    showError(error);
    if (error.status !== 404) setTimeout(refresh, EVERY_MS);
  }
}

$("confirm-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!score) return;
  try {
    const code = event.target.elements.code.value;
    const answer = await api(`POST public/${encodeURIComponent(pub)}/rounds/${round}/tables/${number}/confirm`,
      { code, score });
    showError(null);
    // Entered: the page's state says so (the form goes); else this side's confirmation stands.
    $("done").textContent = t("confirm_done", { side: answer.side.toUpperCase() });
    $("done").hidden = answer.sheet.entered;
    draw(answer);
  } catch (error) {
    showError(error);
  }
});

refresh();
