// What every screen shares: the top bar (name, language, the mesa's tools) and the dialogs.

import { h } from './dom.js';
import { language, t } from './i18n.js';
import { tileSvg } from './tiles.js';

export function langToggle(app) {
  const other = language() === 'es' ? 'en' : 'es';
  return h('button', {
    type: 'button', class: 'chip-button lang', lang: other,
    'aria-label': t('common.switch_language'),
    onclick: () => app.setLanguage(other),
  }, other === 'en' ? 'English' : 'Español');
}

export const MAIN_ID = 'main';

/** The attributes of a screen's ``<main>``: the target of the skip link. */
export function mainAttrs(className) {
  return { class: className, id: MAIN_ID, tabindex: '-1' };
}

/** The bar at the top: the brand (home link), ``middle`` (the scores at a table) and tools,
 * after a link that skips them (the first thing a keyboard reaches; seen only when focused). */
export function topBar(app, { middle = null, tools = [], compact = false } = {}) {
  // Focused by hand, not by following the fragment: the page reloads on history changes.
  const skip = h('a', { class: 'skip-link', href: `#${MAIN_ID}`, dataset: { key: 'skip' },
    onclick: (event) => {
      event.preventDefault();
      document.getElementById(MAIN_ID)?.focus();
    } }, t('common.skip_to_main'));
  return [skip, h('header', { class: `topbar${compact ? ' compact' : ''}` },
    h('a', { class: 'brand', href: '/', 'aria-label': t('common.home') },
      tileSvg('5-3', { upright: false, className: 'brand-mark' }),
      h('span', { class: 'brand-name' }, 'FichaFlow')),
    middle ? h('div', { class: 'topbar-middle' }, middle) : h('div', { class: 'topbar-middle' }),
    h('div', { class: 'topbar-tools' }, ...tools, langToggle(app)))];
}

/** A modal dialog laid over the screen; ``onClose`` runs on its close button and on Escape. */
export function dialog(id, title, body, { onClose = null, actions = [], wide = false } = {}) {
  const titleId = `${id}-title`;
  return h('div', { class: 'overlay', dataset: { dialog: id } },
    h('section', {
      class: `dialog${wide ? ' wide' : ''}`, role: 'dialog', 'aria-modal': 'true',
      'aria-labelledby': titleId, id, tabindex: '-1', dataset: { scrollKey: id },
      onkeydown: (event) => {
        if (event.key === 'Escape' && onClose) {
          event.stopPropagation();
          onClose();
        }
        if (event.key === 'Tab') holdFocus(event);
      },
    },
    // A div, not a header: a header here would be a second banner landmark for the page.
    h('div', { class: 'dialog-head' },
      h('h2', { id: titleId, tabindex: '-1' }, title),
      onClose ? h('button', { type: 'button', class: 'close', 'aria-label': t('common.close'),
        onclick: onClose }, '×') : null),
    h('div', { class: 'dialog-body' }, body),
    actions.length ? h('div', { class: 'dialog-actions' }, actions) : null));
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), '
  + 'textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab go round inside a modal dialog: past its last control to its first. */
function holdFocus(event) {
  const box = event.currentTarget;
  const stops = [...box.querySelectorAll(FOCUSABLE)].filter((el) => el.getClientRects().length);
  if (!stops.length) return;
  const first = stops[0];
  const last = stops[stops.length - 1];
  const at = document.activeElement;
  if (event.shiftKey && (at === first || !stops.includes(at))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (at === last || !stops.includes(at))) {
    event.preventDefault();
    first.focus();
  }
}
