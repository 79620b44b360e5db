// The server's HTTP side: presets, bots, creating and joining a mesa. Errors come back as the
// server wrote them (a code and a Spanish and an English text).

export class ServerError extends Error {
  constructor(error) {
    super(error?.message || 'error');
    this.error = error || {};
  }

  /** The server's own words in ``lang`` (Spanish unless English was asked for and given). */
  text(lang) {
    return (lang === 'en' && this.error.message_en) || this.error.message || this.message;
  }
}

let csrf = null; // the signed-in player's CSRF token: with it the game seats them as their account

// Set and cleared by the server with the session's cookie (which no script can read): without it
// this browser has no session, and asking who is signed in would only log a 401 for a guest.
const SIGNED_IN_HINT = 'fichaflow_signed_in';

/** Whether this browser may be signed in (the server's hint is there). */
export function maybeSignedIn() {
  return document.cookie.split(';').some((part) => part.trim().startsWith(`${SIGNED_IN_HINT}=`));
}

/** The hint of a session that has ended elsewhere (signed out everywhere, or past its date). */
export function forgetSignedIn() {
  document.cookie = `${SIGNED_IN_HINT}=; Max-Age=0; Path=/; SameSite=Lax`;
}

/** One JSON request; a refusal throws a ServerError with the server's code and texts. */
export async function call(method, path, body) {
  let response;
  const headers = body === undefined ? {} : { 'Content-Type': 'application/json' };
  if (csrf && method !== 'GET') headers['X-CSRF-Token'] = csrf;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ServerError({ code: 'client.offline' });
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ServerError(data?.error
      || { code: 'client.http', status: response.status, message: `HTTP ${response.status}` });
  }
  return data;
}

export const api = {
  presets: () => call('GET', '/api/presets'),
  bots: () => call('GET', '/api/bots'),
  mesa: (code) => call('GET', `/api/mesas/${encodeURIComponent(code)}`),
  create: (body) => call('POST', '/api/mesas', body),
  quick: (body) => call('POST', '/api/quick', body),
  join: (code, body) => call('POST', `/api/mesas/${encodeURIComponent(code)}/join`, body),
  /** Who is signed in (null: a guest, who is not asked); from then on this page's changes
   * carry their token. */
  me: async () => {
    if (!maybeSignedIn()) return null;
    try {
      const me = await call('GET', '/api/accounts/me');
      csrf = me.csrf;
      return me.account;
    } catch (error) {
      if (error instanceof ServerError && error.error.code === 'accounts.signed_out') forgetSignedIn();
      return null;
    }
  },
};
