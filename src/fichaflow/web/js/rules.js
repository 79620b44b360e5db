// The mesa's rules on screen: pick a preset, then see and change every option, each with one
// line in Spanish that says what it does. The server (the core) validates; this form only
// collects a preset and the options that differ from it.

import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * The rule options as the server describes them (``GET /api/presets``, read from the core): each
 * one's name, kind (``choice`` or ``integer``), choices or range, and the modes that consult it,
 * in the order a table talks them over. Nothing about an option is written here.
 */
export function optionSpecs(presets) {
  return presets.options || [];
}

function specOf(presets, option) {
  return optionSpecs(presets).find((spec) => spec.name === option);
}

/** Whether a table of ``mode`` plays by the option at all (how a tranque is won means nothing
 * de a tres, where the fewest pips always win). */
function consulted(spec, mode) {
  return !mode || spec.modes.includes(mode);
}

/** The choices a table of ``mode`` may take, plus the current one, so that a value the mode
 * refuses stays on screen and the server's message says why. */
function choicesFor(spec, mode, current) {
  return spec.choices.filter((choice) =>
    choice === current || !mode || (spec.choice_modes[choice] || [mode]).includes(mode));
}

/** Every option's value: the preset's, with the rules' overrides on top. */
export function fullOptions(presets, rules) {
  const base = presets.presets?.[rules.preset] || {};
  return { ...base, ...rules };
}

/** The rules as the server takes them: the preset plus only what differs from it. */
export function rulesBody(presets, draft) {
  const base = presets.presets?.[draft.preset] || {};
  const body = { preset: draft.preset };
  for (const { name } of optionSpecs(presets)) {
    const value = draft.options[name];
    if (value !== undefined && value !== base[name]) body[name] = value;
  }
  return body;
}

/**
 * What the page can tell is wrong before anything is sent: a number outside the range the server
 * describes (``min``/``max`` of GET /api/presets), named as the form names it. ``null`` when the
 * numbers are fine; otherwise a problem for ``errorText`` (its code is a catalogue key).
 */
export function rulesProblem(presets, draft) {
  for (const spec of optionSpecs(presets)) {
    if (spec.kind !== 'integer' || !consulted(spec, draft.options.mode)) continue;
    const text = String(draft.options[spec.name] ?? '').trim();
    const number = /^\d+$/.test(text) ? Number(text) : NaN;
    if (number >= spec.min && number <= spec.max) continue;
    const words = { option: t(`option.${spec.name}`), min: spec.min, max: spec.max, value: text };
    return { code: text === '' ? 'client.option_missing' : 'client.option_range', ...words };
  }
  return null;
}

export function draftFrom(presets, rules) {
  return { preset: rules.preset, options: fullOptions(presets, rules) };
}

export function presetLabel(preset) {
  return t(`preset.${preset}`);
}

export function valueLabel(spec, value) {
  if (spec.kind === 'integer') return String(value);
  const key = `value.${spec.name}.${value}`;
  const text = t(key);
  return text === key ? String(value) : text;
}

/**
 * The editor: a preset selector and one row per option. ``onChange(draft)`` gets a new draft on
 * every change; ``lockMode`` keeps the number of seats (a mesa already built keeps its chairs).
 */
export function rulesEditor(presets, draft, onChange, { lockMode = false, idPrefix = 'rules' } = {}) {
  const names = Object.keys(presets.presets || {});
  const presetSelect = h('select', {
    id: `${idPrefix}-preset`, name: 'preset',
    onchange: (event) => {
      const preset = event.target.value;
      onChange({ preset, options: { ...presets.presets[preset] }, open: draft.open });
    },
  }, names
    .filter((name) => !lockMode || presets.presets[name].mode === draft.options.mode)
    .map((name) => h('option', { value: name, selected: name === draft.preset }, presetLabel(name))));
  const row = (spec) => optionRow(draft, spec, onChange, lockMode, idPrefix);
  // The meta comes first and always in sight; the rest fold away.
  const target = specOf(presets, 'target');
  const others = optionSpecs(presets)
    .filter((spec) => spec !== target && consulted(spec, draft.options.mode));
  return h('div', { class: 'rules-editor' },
    h('div', { class: 'field' },
      h('label', { for: `${idPrefix}-preset` }, t('rules.preset')),
      presetSelect,
      h('p', { class: 'hint' }, t(`preset_hint.${draft.preset}`))),
    target ? row(target) : null,
    h('details', {
      class: 'rule-options', open: Boolean(draft.open),
      ontoggle: (event) => { draft.open = event.target.open; },
    },
    h('summary', {}, t('rules.all_options')),
    h('div', { class: 'option-rows' }, others.map(row))));
}

function optionRow(draft, spec, onChange, lockMode, idPrefix) {
  const option = spec.name;
  const id = `${idPrefix}-${option}`;
  const value = draft.options[option];
  // Numbers update the draft as they are typed, without redrawing the form under the cursor.
  const set = (newValue, quiet = false) => {
    const next = { ...draft, options: { ...draft.options, [option]: newValue } };
    if (quiet) Object.assign(draft, next);
    else onChange(next);
  };
  let input;
  if (spec.kind === 'integer') {
    input = h('input', {
      id, name: option, type: 'number', inputmode: 'numeric', min: spec.min, max: spec.max, step: 1,
      value: String(value ?? ''),
      oninput: (event) => {
        const text = event.target.value.trim();
        set(/^\d+$/.test(text) ? Number(text) : text, true);
      },
    });
  } else {
    input = h('select', {
      id, name: option, disabled: lockMode && option === 'mode',
      onchange: (event) => set(event.target.value),
    }, choicesFor(spec, draft.options.mode, value).map((choice) =>
      h('option', { value: choice, selected: choice === value }, valueLabel(spec, choice))));
  }
  const valueHint = spec.kind === 'integer' ? '' : t(`value_hint.${option}.${value}`);
  return h('div', { class: 'option-row field' },
    h('label', { for: id }, t(`option.${option}`)),
    input,
    h('p', { class: 'hint' }, t(`option_hint.${option}`, { min: spec.min, max: spec.max }),
      valueHint && !valueHint.startsWith('value_hint.') ? ` ${valueHint}` : ''));
}

/**
 * The rules in a few words, for the waiting room and the join screen. ``idle`` names the options
 * these rules never consult (the server says which): they are left out.
 */
export function rulesSummary(presets, rules, idle = []) {
  const options = fullOptions(presets, rules);
  const items = optionSpecs(presets)
    .filter((spec) => !idle.includes(spec.name))
    // A number at 0 (a bonus nobody plays for) is nothing to talk over.
    .filter((spec) => spec.kind !== 'integer' || options[spec.name])
    .map((spec) => h('li', {},
      h('span', { class: 'option-name' }, t(`option.${spec.name}`)), ' ',
      h('strong', {}, valueLabel(spec, options[spec.name]))));
  return h('div', { class: 'rules-summary' },
    h('p', { class: 'preset-name' }, presetLabel(rules.preset)),
    h('ul', {}, items));
}
