// Where each tile of the line goes, so that the whole line always fits its box without scrolling.
//
// As on a real table, the salida sits in the middle and the line grows from it both ways: the
// right arm runs to the right and, at the edge, turns down and comes back; the left arm runs to
// the left and turns up. Doubles lie crosswise. The tile size is the largest that fits the box.
// Pure functions of numbers: they decide nothing about the game, only geometry.

/** Tile halves facing outward along one arm: [inner, outer] pairs, from the lead outward. */
function arms(line, leadIndex) {
  const right = line.slice(leadIndex + 1).map(([a, b]) => [a, b]);
  const left = line.slice(0, leadIndex).reverse().map(([a, b]) => [b, a]);
  return { left, right };
}

/**
 * Lay out one arm: tiles going outward from ``startX`` in ``direction`` (+1 right, -1 left) on
 * row 0, turning at the walls onto rows ``rowStep``, 2·``rowStep``, ... (−1 up, +1 down).
 */
function layArm(tiles, { startX, direction, rowStep, unit, gap, width }) {
  const placed = [];
  let row = 0;
  let dir = direction;
  let x = startX; // the edge the next tile touches
  for (const [inner, outer] of tiles) {
    const double = inner === outer;
    const w = double ? unit : 2 * unit;
    let from = dir > 0 ? x + gap : x - gap - w;
    if (dir > 0 ? from + w > width : from < 0) {
      // Turn at the wall: the next row runs the other way, starting right under (or over) the
      // outer edge of the last tile.
      row += rowStep;
      dir = -dir;
      from = Math.min(Math.max(dir > 0 ? x : x - w, 0), width - w);
      if (from < 0) return null;
    }
    const first = dir > 0 ? inner : outer; // the half drawn on the left
    const second = dir > 0 ? outer : inner;
    placed.push({ x: from, row, w, double, left: first, right: second, dir });
    x = dir > 0 ? from + w : from;
  }
  return placed;
}

/**
 * The line laid out in a ``width`` x ``height`` box. ``line`` is [[left, right], ...] from the
 * left end to the right end; ``leadIndex`` is where the salida is in it. Returns the unit (half a
 * tile's length), each tile's box ({index, x, y, w, h, left, right}) and the two open ends' boxes.
 */
export function layoutLine(line, leadIndex, width, height, { maxUnit = 34, minUnit = 4 } = {}) {
  if (!line.length || width <= 0 || height <= 0) return { unit: maxUnit, tiles: [], ends: null };
  const lead = Math.min(Math.max(leadIndex, 0), line.length - 1);
  const { left, right } = arms(line, lead);
  let unit = Math.min(maxUnit, height / 2, width / 2);
  for (; unit >= minUnit; unit -= 0.5) {
    const found = tryLayout(line, lead, left, right, width, height, unit);
    if (found) return found;
  }
  return tryLayout(line, lead, left, right, width, height, minUnit, true) || {
    unit: minUnit, tiles: [], ends: null,
  };
}

function tryLayout(line, lead, left, right, width, height, unit, force = false) {
  const gap = Math.max(1, unit * 0.08);
  const rowGap = unit * 0.45;
  const [la, lb] = line[lead];
  const leadDouble = la === lb;
  const leadW = leadDouble ? unit : 2 * unit;
  const leadX = (width - leadW) / 2;
  const common = { unit, gap, width };
  const rightArm = layArm(right, { ...common, startX: leadX + leadW, direction: 1, rowStep: 1 });
  const leftArm = layArm(left, { ...common, startX: leadX, direction: -1, rowStep: -1 });
  if (!rightArm || !leftArm) return null;
  const up = leftArm.reduce((m, t) => Math.max(m, -t.row), 0);
  const down = rightArm.reduce((m, t) => Math.max(m, t.row), 0);
  const rows = 1 + up + down;
  const rowH = 2 * unit;
  const total = rows * rowH + (rows - 1) * rowGap;
  if (total > height && !force) return null;
  const top = Math.max(0, (height - total) / 2);
  const rowTop = (row) => top + (row + up) * (rowH + rowGap);
  const box = (t, index) => {
    const h = t.double ? 2 * unit : unit;
    const y = rowTop(t.row) + (rowH - h) / 2;
    return { index, x: t.x, y, w: t.w, h, left: t.left, right: t.right, double: t.double };
  };
  const tiles = [];
  tiles.push(box({ x: leadX, row: 0, w: leadW, double: leadDouble, left: la, right: lb }, lead));
  rightArm.forEach((t, i) => tiles.push(box(t, lead + 1 + i)));
  leftArm.forEach((t, i) => tiles.push(box(t, lead - 1 - i)));
  tiles.sort((a, b) => a.index - b.index);
  const leadBox = tiles.find((t) => t.index === lead);
  const endBox = (armTiles, outermost, side) => {
    if (!armTiles.length) return halfBox(leadBox, side); // the salida itself is the end
    return halfBox(outermost, armTiles[armTiles.length - 1].dir); // its outer half
  };
  const leftEnd = endBox(leftArm, tiles[0], -1);
  const rightEnd = endBox(rightArm, tiles[tiles.length - 1], 1);
  return { unit, tiles, ends: { left: leftEnd, right: rightEnd } };
}

/** The half of a placed tile on the ``side`` it faces (−1 left, +1 right); a double is whole. */
function halfBox(tile, side) {
  if (tile.double) return { x: tile.x, y: tile.y, w: tile.w, h: tile.h };
  const w = tile.w / 2;
  return { x: side < 0 ? tile.x : tile.x + w, y: tile.y, w, h: tile.h };
}

/** Where the salida is in the line: one place right of every tile played on the left end. */
export function leadIndexOf(history) {
  return history.filter((turn) => turn.kind === 'play' && turn.end === 'left').length;
}

/**
 * The size of the player's own tiles (standing upright): the largest unit that puts ``count``
 * tiles in at most three rows inside ``width`` x ``height``.
 */
export function layoutHand(count, width, height, { maxUnit = 30, gap = 6 } = {}) {
  if (!count) return { unit: maxUnit, perRow: 0, rows: 0 };
  let best = { unit: 0, perRow: count, rows: 1 };
  for (let rows = 1; rows <= 3; rows += 1) {
    const perRow = Math.ceil(count / rows);
    const byWidth = (width - (perRow - 1) * gap) / perRow;
    const byHeight = (height - (rows - 1) * gap) / (2 * rows);
    const unit = Math.min(maxUnit, byWidth, byHeight);
    if (unit > best.unit + 0.5) best = { unit, perRow, rows };
  }
  return { ...best, unit: Math.max(6, Math.floor(best.unit)) };
}
