// Registering oneself by the torneo's public link (?p=PUBLIC) while registration is open: a
// name (a signed-in player's is their account's, sent with the session's CSRF token) and, for
// a pair, the partner's. The answer's own page is kept in this browser (the way to one's seat
// at the tables played online).
import { api, el, languageSwitch, lang, t, translatePage } from "./common.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const pub = params.get("p") ?? "";
let csrf = null;

translatePage();
languageSwitch($("lang"));
$("standings-link").href = `clasificacion.html?p=${encodeURIComponent(pub)}${lang === "en" ? "&lang=en" : ""}`;

function showError(error) {
  $("error").textContent = error ? error.message : "";
  $("error").hidden = !error;
}

function withLang(path) {
  return lang === "en" ? `${path}&lang=en` : path;
}

function done(answer) {
  localStorage.setItem(`fichaflow.torneo.player.${pub}`, answer.page);
  $("signup-form").hidden = true;
  $("done").hidden = false;
  $("done-name").textContent = t("signup_as", { name: answer.entrant.name, number: answer.entrant.id });
  $("done-link").href = withLang(answer.page);
}

async function me() {
  try {
    const response = await fetch("/api/accounts/me");
    if (!response.ok) return null;
    const data = await response.json();
    csrf = data.csrf;
    return data.account;
  } catch {
    return null;
  }
}

try {
  const [view, account] = await Promise.all([api(`public/${encodeURIComponent(pub)}`), me()]);
  const { settings } = view.record;
  $("title").textContent = `${t("signup_title")} · ${settings.name}`;
  document.title = `${settings.name} · ${t("signup_title")}`;
  const pairs = settings.format === "pairs";
  const kept = localStorage.getItem(`fichaflow.torneo.player.${pub}`);
  if (kept) {
    $("state").replaceChildren(el("a", { href: withLang(kept), text: t("signup_page") }));
  }
  if (!view.registration.open) {
    $("state").prepend(t("signup_closed"), " ");
  } else {
    const limit = view.registration.limit;
    const present = view.record.entrants.filter((e) => e.withdrawn === undefined).length;
    $("state").prepend(limit ? t("signup_places", { count: present, limit }) : t("signup_open"), " ");
    $("signup-form").hidden = false;
    $("partner-label").hidden = !pairs;
    $("signup-form").elements.partner.required = pairs;
    if (account) {
      $("as-account").hidden = false;
      $("as-account").textContent = t("signup_account", { name: account.name });
      $("name-label").hidden = true;
      $("signup-form").elements.name.required = false;
      $("signup-form").elements.name.value = account.name;
    }
  }
} catch (error) {
  showError(error);
}

$("signup-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target.elements;
  const body = { name: form.name.value.trim() };
  if (!$("partner-label").hidden) body.partner = form.partner.value.trim();
  try {
    const response = await fetch(`/api/torneos/public/${encodeURIComponent(pub)}/entrants`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(csrf ? { "X-CSRF-Token": csrf } : {}) },
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      const error = data?.error ?? {};
      throw new Error((lang === "en" ? error.message_en : error.message) || `HTTP ${response.status}`);
    }
    showError(null);
    done(data);
  } catch (error) {
    showError(error);
  }
});
