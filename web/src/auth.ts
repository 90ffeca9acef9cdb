// The sign-in and sign-up pages: plain HTML forms posted to the server, which answers with a
// redirect (home, or back here with ?error=code). They work without any script.
import { h } from './dom';
import type { ErrorCode } from './api';
import { errorText, t } from './i18n';

export type AuthKind = 'login' | 'signup';

export class AuthPage {
  private readonly root = h('section.auth', {});

  constructor(parent: HTMLElement, private readonly kind: AuthKind, private readonly navigate: (p: string) => void) {
    parent.append(this.root);
    this.redraw();
  }

  redraw(): void {
    const query = new URLSearchParams(location.search);
    const error = query.get('error');
    const signup = this.kind === 'signup';
    const title = t(signup ? 'signUp' : 'signIn');
    const field = (label: string, hint: string | null, input: HTMLInputElement) =>
      h('label.field', {}, h('span', {}, label), input, hint ? h('small.hint', {}, hint) : null);
    const username = h('input', {
      name: 'username', type: 'text', required: true, autocomplete: 'username',
      minLength: 2, maxLength: 20, pattern: '[A-Za-z0-9_\\-]{2,20}', spellcheck: false,
      autocapitalize: 'none', value: query.get('username') ?? '',
    });
    const password = h('input', {
      name: 'password', type: 'password', required: true, minLength: signup ? 4 : 1, maxLength: 256,
      autocomplete: signup ? 'new-password' : 'current-password',
    });
    const other = signup ? '/login' : '/signup';
    const link = h('a', {
      href: other,
      onclick: (e: Event) => { e.preventDefault(); this.navigate(other); },
    }, t(signup ? 'signIn' : 'signUp'));
    this.root.replaceChildren(
      h('h1', {}, title),
      h('form.auth-form', { method: 'post', action: `/${this.kind}` },
        error ? h('p.error', { role: 'alert' }, errorText(error as ErrorCode) ?? error) : null,
        field(t('username'), signup ? t('usernameHint') : null, username),
        field(t('password'), signup ? t('passwordHint') : null, password),
        signup ? h('p.hint', {}, t('guestGamesKept')) : null,
        h('button.primary', { type: 'submit' }, title)),
      h('p', {}, t(signup ? 'haveAccount' : 'noAccountYet'), ' ', link));
    document.title = `${title} · ${t('appName')}`;
    (username.value ? password : username).focus();
  }

  destroy(): void {
    this.root.remove();
  }
}
