// How each chair is called, one way everywhere: the waiting room, the table, the hand's summary
// and the records. A bot goes by its word («gallo»), marked «bot» beside it; where two chairs
// share a name (two gallos, two Anas), each adds its seat, counted from 1 as the table shows
// seats: «gallo 2», «gallo 4». The server names the players of a partida by the same rule
// (``server.mesa.distinct_names``), so the table's names and the records' are these.

import { h } from './dom.js';

/** ``names`` made tellable apart: a name two chairs share gets each chair's seat number. */
export function distinctNames(names) {
  return names.map((name, seat) =>
    name && names.filter((other) => other === name).length > 1 ? `${name} ${seat + 1}` : name);
}

/** The names of a mesa's chairs (``mesa.seats``), as the table will call them; '' when free. */
export function seatNames(seats) {
  return distinctNames(seats.map((seat) =>
    seat.kind === 'bot' ? seat.bot : seat.kind === 'empty' ? '' : seat.name || ''));
}

/** A name for a narrow place: when it does not fit, it is cut in the middle, not at the end, so
 * that two long names sharing a beginning («Maximiliano Ramos», «Maximiliano Rivas») stay
 * tellable apart: «Maximi…Ramos», «Maximi…Rivas». The whole name is its title. */
export function cutName(name, attrs = {}) {
  const words = name.trim().split(/\s+/);
  const last = words.at(-1);
  const tailLength = words.length > 1 && last.length <= 10 ? last.length + 1 : Math.min(6, Math.floor(name.length / 2));
  const cut = name.length - tailLength;
  return h('span', { ...attrs, class: `${attrs.class || ''} cut-name`.trim(), title: name },
    h('span', { class: 'cut-head' }, name.slice(0, cut)),
    h('span', { class: 'cut-tail' }, name.slice(cut)));
}
