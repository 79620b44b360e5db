// The player's own settings, in the Mesa panel: sound and vibration, and the personal paso
// automático (independent of the anotador and of the mesa's option). Kept in this browser.

import { h } from './dom.js';
import { t } from './i18n.js';
import { autoPassOn, setAutoPass, setSound, soundOn } from './prefs.js';

function toggle(id, label, hint, on, change) {
  return h('div', { class: 'field check-field' },
    h('label', { for: id },
      h('input', { id, type: 'checkbox', checked: on, onchange: (event) => change(event.target.checked) }),
      ' ', label),
    hint ? h('p', { class: 'hint' }, hint) : null);
}

export function personalSettings(app) {
  const mesaPasses = Boolean(app.state.mesa?.options?.auto_pass);
  return h('section', { class: 'personal-settings', 'aria-labelledby': 'settings-title' },
    h('h3', { id: 'settings-title' }, t('settings.title')),
    toggle('setting-sound', t('settings.sound'), null, soundOn(), (on) => {
      setSound(on);
      app.render();
    }),
    toggle('setting-auto-pass', t('settings.auto_pass'),
      t(mesaPasses ? 'settings.auto_pass_mesa' : 'settings.auto_pass_hint'), autoPassOn(), (on) => {
        setAutoPass(on);
        app.render();
      }));
}
