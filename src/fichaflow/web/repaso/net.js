// Talking to the server: the game client's JSON helper (a refusal comes back as the server
// worded it, in Spanish and in English), and the path of a mesa.

export { call, ServerError as Refusal } from '/js/api.js';

export const mesaPath = (code) => `/api/mesas/${encodeURIComponent(code)}`;
