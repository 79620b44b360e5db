// The account page (/cuenta/): sign up and sign in with a passkey or a password, see the
// recovery codes once, allow their partidas for problemas, sign out (here or everywhere),
// export and delete. Accounts are optional:
// the game never needs one. Its words are the cuenta.* keys of the one catalogue; the server's
// refusals come with their own Spanish and English text.
import { forgetSignedIn, maybeSignedIn } from '../js/api.js';
import { loadCatalogues, section } from '../js/i18n.js';

await loadCatalogues();

const TEXT = { es: section('es', 'cuenta.'), en: section('en', 'cuenta.') };
const state = { lang: localStorage.getItem('fichaflow.lang') === 'en' ? 'en' : 'es', me: null, csrf: null };
const $ = (id) => document.getElementById(id);

function t(key, params = {}) {
  const text = TEXT[state.lang][key] ?? TEXT.es[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

function draw() {
  document.documentElement.lang = state.lang;
  for (const node of document.querySelectorAll('[data-t]')) node.textContent = t(node.dataset.t);
  $('lang').textContent = state.lang === 'es' ? 'English' : 'Español';
  $('lang').lang = state.lang === 'es' ? 'en' : 'es';
  const me = state.me;
  $('guest').hidden = Boolean(me) || !$('codes').hidden;
  $('account').hidden = !me || !$('codes').hidden;
  if (me) {
    $('hello').textContent = t('hello', { name: me.account.name });
    $('facts').textContent = t('facts', { passkeys: me.passkeys, codes: me.codes_left });
    $('problemas-allowed').checked = Boolean(me.problemas);
    $('my-page').href = `/jugadores/?id=${encodeURIComponent(me.account.id)}`;
    $('mesas').replaceChildren(...(state.mesas ?? []).map((kept) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `/m/${encodeURIComponent(kept.mesa)}`;
      link.textContent = t('mesa_item', { name: kept.name, mesa: kept.mesa });
      item.append(link);
      return item;
    }));
    $('mesas-none').hidden = Boolean(state.mesas?.length);
  }
}

function say(text, ok = false) {
  $('message').textContent = text;
  $('message').classList.toggle('ok', ok);
  $('message').hidden = !text;
}

class Refused extends Error {}

/** One request to the accounts' API: JSON in and out, the CSRF token on every change. */
async function api(method, path, body) {
  const headers = { 'Content-Type': 'application/json' };
  if (state.csrf && method !== 'GET') headers['X-CSRF-Token'] = state.csrf;
  const response = await fetch(`/api/accounts${path}`, {
    method, headers, body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = data.error;
    throw new Refused(error ? (state.lang === 'en' ? error.message_en : error.message) : t('failed'));
  }
  if (data.csrf) state.csrf = data.csrf;
  return data;
}

async function refresh() {
  try {
    if (!maybeSignedIn()) throw new Refused('guest'); // a guest is not asked (no 401 to log)
    state.me = await api('GET', '/me');
    state.csrf = state.me.csrf;
    state.mesas = (await api('GET', '/mesas')).mesas;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    forgetSignedIn(); // no session here (any more): the hint goes too
    state.me = null;
    state.csrf = null;
  }
  draw();
}

function showCodes(codes) {
  const list = $('code-list');
  list.replaceChildren(...codes.map((code) => {
    const item = document.createElement('li');
    item.textContent = code;
    return item;
  }));
  $('codes').hidden = false;
  draw();
  $('codes-done').focus();
}

/** Run an action from a button or form: its refusal is said in words, never thrown. */
function action(run) {
  return async (event) => {
    event?.preventDefault();
    say('');
    try {
      await run();
    } catch (error) {
      if (error instanceof Refused) say(error.message);
      else if (error?.name === 'InvalidStateError') say(t('passkey_exists'));
      else if (error?.name === 'NotAllowedError' || error?.name === 'AbortError') say(t('passkey_cancelled'));
      else say(t('failed'));
    }
  };
}

function passkeysWork() {
  const ok = window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON;
  if (!ok) throw new Refused(t('no_passkeys'));
}

async function createPasskey(begun) {
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(begun.options);
  const made = await navigator.credentials.create({ publicKey });
  return { challenge: begun.challenge, credential: made.toJSON() };
}

/** The guest who signs up keeps the mesas this browser sat at (the game keeps each seat's token
 * under ``fichaflow.mesa.<code>``): each becomes the new account's. One that is gone or already
 * someone else's is left as it is. */
async function keepMesas() {
  const prefix = 'fichaflow.mesa.';
  const tickets = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key?.startsWith(prefix)) tickets.push([key.slice(prefix.length), JSON.parse(localStorage.getItem(key))]);
    }
  } catch {
    return; // no storage, or a ticket that is not ours to read
  }
  for (const [mesa, ticket] of tickets) {
    if (!ticket?.token) continue;
    try {
      await api('POST', '/mesas', { mesa, token: ticket.token });
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
    }
  }
}

function field(form, name) {
  return form.elements[name].value;
}

$('signup-passkey').addEventListener('click', action(async () => {
  passkeysWork();
  const form = $('signup');
  if (!form.elements.name.reportValidity()) return;
  const begun = await api('POST', '/passkeys/signup/options', { name: field(form, 'name') });
  const made = await api('POST', '/passkeys/signup', await createPasskey(begun));
  await keepMesas();
  await refresh();
  showCodes(made.recovery_codes);
}));

$('signup').addEventListener('submit', action(async () => {
  const form = $('signup');
  const body = { name: field(form, 'name'), password: field(form, 'password') };
  if (!body.password) throw new Refused(t('password_needed'));
  const made = await api('POST', '/signup', body);
  await keepMesas();
  await refresh();
  showCodes(made.recovery_codes);
}));

$('signin-passkey').addEventListener('click', action(async () => {
  passkeysWork();
  const begun = await api('POST', '/passkeys/signin/options', {});
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(begun.options);
  const used = await navigator.credentials.get({ publicKey });
  await api('POST', '/passkeys/signin', { challenge: begun.challenge, credential: used.toJSON() });
  await refresh();
}));

$('signin').addEventListener('submit', action(async () => {
  const form = $('signin');
  await api('POST', '/signin', { name: field(form, 'name'), password: field(form, 'password') });
  form.reset();
  await refresh();
}));

$('recover').addEventListener('submit', action(async () => {
  const form = $('recover');
  const body = { name: field(form, 'name'), code: field(form, 'code') };
  if (field(form, 'password')) body.password = field(form, 'password');
  const back = await api('POST', '/recover', body);
  form.reset();
  await refresh();
  say(t('recovered', { codes: back.codes_left }), true);
}));

$('codes-done').addEventListener('click', () => {
  $('code-list').replaceChildren();
  $('codes').hidden = true;
  draw();
});

$('add-passkey').addEventListener('click', action(async () => {
  passkeysWork();
  const begun = await api('POST', '/passkeys/add/options', {});
  await api('POST', '/passkeys/add', await createPasskey(begun));
  await refresh();
  say(t('passkey_added'), true);
}));

$('new-codes').addEventListener('click', action(async () => {
  const fresh = await api('POST', '/recovery-codes', {});
  await refresh();
  showCodes(fresh.recovery_codes);
}));

$('signout').addEventListener('click', action(async () => {
  await api('POST', '/signout', {});
  await refresh();
  say(t('signed_out'), true);
}));

$('signout-everywhere').addEventListener('click', action(async () => {
  const ended = await api('POST', '/signout-everywhere', {});
  await refresh();
  say(t('signed_out_everywhere', { count: ended.signed_out }), true);
}));

$('problemas-allowed').addEventListener('change', action(async () => {
  const wanted = $('problemas-allowed').checked;
  try {
    await api('POST', '/problemas', { allowed: wanted });
  } finally {
    await refresh(); // the box shows what the server keeps, refused or not
  }
  say(t(wanted ? 'problemas_on' : 'problemas_off'), true);
}));

$('delete').addEventListener('click', () => {
  $('delete-confirm').hidden = false;
  $('delete-now').focus();
});
$('delete-cancel').addEventListener('click', () => { $('delete-confirm').hidden = true; });
$('delete-now').addEventListener('click', action(async () => {
  await api('DELETE', '/me');
  $('delete-confirm').hidden = true;
  await refresh();
  say(t('deleted'), true);
}));

$('lang').addEventListener('click', () => {
  state.lang = state.lang === 'es' ? 'en' : 'es';
  localStorage.setItem('fichaflow.lang', state.lang);
  draw();
});

await refresh();
document.body.dataset.ready = 'yes';
