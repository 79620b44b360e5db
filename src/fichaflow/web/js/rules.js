// The mesa's rules on screen: pick a preset, then see and change every option, each with one
// line in Spanish that says what it does. The server (the core) validates; this form only
// collects a preset and the options that differ from it.

import { h } from './dom.js';
import { t } from './i18n.js';

export const BONUS_OPTIONS = [
  'tranque_bonus', 'capicua_bonus', 'pase_redondo_bonus', 'salida_pasada_bonus', 'chuchazo_bonus',
];

/** The options in the order a table talks them over. */
export const OPTION_ORDER = [
  'mode', 'target', 'first_lead', 'next_lead', 'domino_count', 'tranque_rule', 'tranque_tie',
  'tranque_count', ...BONUS_OPTIONS,
];

/** Every option's value: the preset's, with the rules' overrides on top. */
export function fullOptions(presets, rules) {
  const base = presets.presets?.[rules.preset] || {};
  return { ...base, ...rules };
}

/** The rules as the server takes them: the preset plus only what differs from it. */
export function rulesBody(presets, draft) {
  const base = presets.presets?.[draft.preset] || {};
  const body = { preset: draft.preset };
  for (const option of OPTION_ORDER) {
    const value = draft.options[option];
    if (value !== undefined && value !== base[option]) body[option] = value;
  }
  return body;
}

export function draftFrom(presets, rules) {
  return { preset: rules.preset, options: fullOptions(presets, rules) };
}

export function presetLabel(preset) {
  return t(`preset.${preset}`);
}

export function valueLabel(option, value) {
  if (option === 'target' || BONUS_OPTIONS.includes(option)) return String(value);
  const key = `value.${option}.${value}`;
  const text = t(key);
  return text === key ? String(value) : text;
}

function choicesOf(presets, option) {
  const listed = presets.choices?.[option];
  if (listed) return listed;
  // Without the server's list, offer the values the presets use.
  return [...new Set(Object.values(presets.presets || {}).map((p) => p[option]))];
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
  const row = (option) => optionRow(presets, draft, option, onChange, lockMode, idPrefix);
  const others = OPTION_ORDER.filter((option) => option !== 'target');
  return h('div', { class: 'rules-editor' },
    h('div', { class: 'field' },
      h('label', { for: `${idPrefix}-preset` }, t('rules.preset')),
      presetSelect,
      h('p', { class: 'hint' }, t(`preset_hint.${draft.preset}`))),
    row('target'),
    h('details', {
      class: 'rule-options', open: Boolean(draft.open),
      ontoggle: (event) => { draft.open = event.target.open; },
    },
    h('summary', {}, t('rules.all_options')),
    h('div', { class: 'option-rows' }, others.map(row))));
}

function optionRow(presets, draft, option, onChange, lockMode, idPrefix) {
  const id = `${idPrefix}-${option}`;
  const value = draft.options[option];
  // Numbers update the draft as they are typed, without redrawing the form under the cursor.
  const set = (newValue, quiet = false) => {
    const next = { ...draft, options: { ...draft.options, [option]: newValue } };
    if (quiet) Object.assign(draft, next);
    else onChange(next);
  };
  let input;
  if (option === 'target' || BONUS_OPTIONS.includes(option)) {
    const isTarget = option === 'target';
    const low = isTarget ? (presets.target?.[0] ?? 10) : 0;
    const high = isTarget ? (presets.target?.[1] ?? 500) : 1000;
    input = h('input', {
      id, name: option, type: 'number', inputmode: 'numeric', min: low, max: high, step: 1,
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
    }, choicesOf(presets, option).map((choice) =>
      h('option', { value: choice, selected: choice === value }, valueLabel(option, choice))));
  }
  const valueHint = option === 'target' || BONUS_OPTIONS.includes(option)
    ? '' : t(`value_hint.${option}.${value}`);
  return h('div', { class: 'option-row field' },
    h('label', { for: id }, t(`option.${option}`)),
    input,
    h('p', { class: 'hint' }, t(`option_hint.${option}`),
      valueHint && !valueHint.startsWith('value_hint.') ? ` ${valueHint}` : ''));
}

/**
 * The rules in a few words, for the waiting room and the join screen. ``idle`` names the options
 * these rules never consult (the server says which): they are left out.
 */
export function rulesSummary(presets, rules, idle = []) {
  const options = fullOptions(presets, rules);
  const items = OPTION_ORDER
    .filter((option) => !idle.includes(option))
    .filter((option) => !BONUS_OPTIONS.includes(option) || options[option])
    .map((option) => h('li', {},
      h('span', { class: 'option-name' }, t(`option.${option}`)), ' ',
      h('strong', {}, valueLabel(option, options[option]))));
  return h('div', { class: 'rules-summary' },
    h('p', { class: 'preset-name' }, presetLabel(rules.preset)),
    h('ul', {}, items));
}
