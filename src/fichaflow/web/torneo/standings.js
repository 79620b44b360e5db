// The live standings: the public view of a torneo (?p=PUBLIC), asked again every few seconds and
// redrawn when its version moves. With ?proyector=1: large type, and when the table does not fit
// the screen, its pages shown in turn.
import { api, languageSwitch, lang, standingsTable, t, tiebreakWords, translatePage } from "./common.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const pub = params.get("p") ?? "";
const projector = params.get("proyector") === "1";
const EVERY_MS = 3000;
const PAGE_MS = 8000;
let view = null;
let page = 0;

translatePage();
languageSwitch($("lang"));
if (projector) document.body.classList.add("projector");
$("tables-link").href = `ronda.html?p=${encodeURIComponent(pub)}${lang === "en" ? "&lang=en" : ""}`;

/** How many rows fit under the heading on this screen (the projector's pages). */
function rowsPerPage() {
  const row = parseFloat(getComputedStyle(document.body).fontSize) * 2.2;
  const top = $("standings").getBoundingClientRect().top;
  return Math.max(3, Math.floor((innerHeight - top - row * 3) / row));
}

function draw() {
  if (!view) return;
  const { record } = view;
  $("title").textContent = record.settings.name;
  document.title = `${record.settings.name} · ${t("standings")}`;
  $("round").textContent = record.rounds.length
    ? t("round_of", { round: record.rounds.length, rounds: record.settings.rounds })
    : t("no_rounds");
  let rows = view.standings;
  $("page").textContent = "";
  if (projector) {
    const size = rowsPerPage();
    const pages = Math.max(1, Math.ceil(rows.length / size));
    page %= pages;
    rows = rows.slice(page * size, (page + 1) * size);
    if (pages > 1) $("page").textContent = t("page_of", { page: page + 1, pages });
  }
  $("standings").replaceChildren(standingsTable(view, rows));
  $("tiebreaks").textContent = tiebreakWords(view);
}

async function refresh() {
  try {
    const since = view ? `?since=${view.version}` : "";
    const fresh = await api(`public/${encodeURIComponent(pub)}${since}`);
    $("error").hidden = true;
    const time = new Date().toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
    $("updated").textContent = t("updated", { time });
    if (!fresh.unchanged && (!view || fresh.version !== view.version)) {
      view = fresh;
      document.body.dataset.version = String(view.version);
      draw();
    }
  } catch (error) {
    $("error").textContent = error.status ? error.message : t("offline");
    $("error").hidden = false;
    if (error.status === 404) return; // no such torneo: nothing to wait for
  }
  setTimeout(refresh, EVERY_MS);
}

if (projector) {
  setInterval(() => { page += 1; draw(); }, PAGE_MS);
}
refresh();
