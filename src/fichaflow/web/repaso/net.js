// Talking to the server: JSON in, JSON out; a refusal comes back as the server worded it, in
// Spanish and in English.

export class Refusal extends Error {
  constructor(error) {
    super(error?.message || 'error');
    this.error = error || {};
  }

  text(lang) {
    return (lang === 'en' && this.error.message_en) || this.error.message || this.message;
  }
}

export async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Refusal({ code: 'client.offline' });
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new Refusal(data?.error || { code: 'client.http', message: `HTTP ${response.status}` });
  return data;
}

export const mesaPath = (code) => `/api/mesas/${encodeURIComponent(code)}`;
