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
  /** Who is signed in (null: a guest); from then on this page's changes carry their token. */
  me: async () => {
    try {
      const me = await call('GET', '/api/accounts/me');
      csrf = me.csrf;
      return me.account;
    } catch {
      return null;
    }
  },
};
