// The account page: change the password, see and end the sessions, make and revoke API
// tokens, close the account.
import { h } from './dom';
import {
  AccountError, SCOPES, changePassword, closeAccount, createToken, endSession, revokeToken, sessions, tokens,
  type Me, type SessionView, type TokenView,
} from './api';
import { errorText, lang, t, type Key } from './i18n';
import { VacationBox } from './vacation';

/** A browser's `User-Agent` as a person reads it: "Chrome 156 · Linux". */
export function deviceName(agent: string): string {
  const browser = [
    [/Edg\/(\d+)/, 'Edge'], [/Firefox\/(\d+)/, 'Firefox'], [/(?:Headless)?Chrome\/(\d+)/, 'Chrome'],
    [/Version\/(\d+).*Safari/, 'Safari'],
  ] as const;
  const systems = [
    [/Android/, 'Android'], [/iPhone|iPad/, 'iOS'], [/Windows/, 'Windows'], [/Mac OS X/, 'macOS'],
    [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux'],
  ] as const;
  const b = browser.map(([re, name]) => { const m = agent.match(re); return m ? `${name} ${m[1]}` : null; }).find((x) => x);
  const os = systems.find(([re]) => re.test(agent))?.[1];
  return [b, os].filter((x) => x).join(' · ') || agent.slice(0, 40) || '?';
}

export class AccountPage {
  private readonly root = h('section.account', {});
  private list: SessionView[] = [];
  private tokenList: TokenView[] = [];
  /** A token just made, shown until the page is left. */
  private fresh: string | null = null;
  /** The lists, drawn again as they load without touching the forms being filled in. */
  private readonly sessionsBox = h('ul', {});
  private readonly tokensBox = h('div.token-list', {});
  private vacation: VacationBox | null = null;

  constructor(parent: HTMLElement, private readonly account: Me | null, private readonly navigate: (p: string) => void) {
    parent.append(this.root);
    this.redraw();
    if (account) {
      void this.loadSessions();
      void this.loadTokens();
    }
  }

  private async loadTokens(): Promise<void> {
    try {
      this.tokenList = await tokens();
      this.drawTokens();
    } catch {
      // The list stays as it was.
    }
  }

  private async loadSessions(): Promise<void> {
    try {
      this.list = await sessions();
      this.drawSessions();
    } catch {
      // The list stays as it was; the page still works.
    }
  }

  redraw(): void {
    document.title = `${t('accountPage')} · ${t('appName')}`;
    if (!this.account) {
      this.root.replaceChildren(h('p', {}, errorText('not-signed-in'), ' ',
        h('a', { href: '/login', onclick: (e: Event) => { e.preventDefault(); this.navigate('/login'); } }, t('signIn'))));
      return;
    }
    this.root.replaceChildren(
      h('h1', {}, t('accountPage'), ' · ', this.account.username),
      this.passwordForm(),
      this.sessionList(),
      this.tokensSection(),
      (this.vacation ??= new VacationBox()).el,
      this.closeForm());
  }

  private failure(e: unknown): string {
    return errorText(e instanceof AccountError ? e.code : 'connection-lost');
  }

  private passwordForm(): HTMLElement {
    const current = h('input', { type: 'password', required: true, autocomplete: 'current-password', name: 'current' });
    const next = h('input', { type: 'password', required: true, minLength: 4, autocomplete: 'new-password', name: 'new' });
    const status = h('p', { role: 'status' });
    const form = h('form.account-form', {},
      h('h2', {}, t('changePassword')),
      h('label.field', {}, h('span', {}, t('currentPassword')), current),
      h('label.field', {}, h('span', {}, t('newPassword')), next),
      status,
      h('button.primary', { type: 'submit' }, t('save')));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        await changePassword(current.value, next.value);
        form.reset();
        status.className = 'ok';
        status.textContent = t('passwordChanged');
        void this.loadSessions();
      } catch (err) {
        status.className = 'error';
        status.textContent = this.failure(err);
      }
    });
    return form;
  }

  private sessionList(): HTMLElement {
    this.drawSessions();
    return h('div.sessions', {}, h('h2', {}, t('sessionsTitle')), this.sessionsBox);
  }

  private drawSessions(): void {
    const when = (ms?: number) => ms ? new Date(ms).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en') : '';
    const items = this.list.map((s) => h('li.session', {},
      h('span', { title: s.agent }, deviceName(s.agent)), ' · ', h('span', {}, s.address || '?'), ' · ',
      h('span', {}, s.current ? t('thisDevice') : t('lastSeen', { when: when(s.seenAt ?? s.createdAt) })),
      s.current ? null : h('button', {
        type: 'button',
        onclick: async () => {
          try {
            await endSession(s.id);
          } finally {
            void this.loadSessions();
          }
        },
      }, t('endSession'))));
    this.sessionsBox.replaceChildren(...items);
  }

  private drawTokens(): void {
    const when = (ms?: number | null) => ms ? new Date(ms).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en') : '';
    const items = this.tokenList.map((tok) => h('li.token', { 'data-token': tok.id },
      h('strong', {}, tok.description), ' · ', h('code', {}, tok.scopes || '—'), ' · ',
      h('span', {}, tok.usedAt ? t('tokenUsed', { when: when(tok.usedAt) }) : t('tokenNeverUsed')), ' ',
      h('button', {
        type: 'button',
        onclick: async () => {
          try {
            await revokeToken(tok.id);
          } finally {
            void this.loadTokens();
          }
        },
      }, t('revokeToken'))));
    const fresh = this.fresh
      ? h('p.fresh-token', { role: 'status' }, t('tokenCreated'), ' ', h('code.token-value', {}, this.fresh))
      : null;
    this.tokensBox.replaceChildren(...(fresh ? [fresh] : []), h('ul', {}, items));
  }

  private tokensSection(): HTMLElement {
    this.drawTokens();
    const description = h('input', { type: 'text', required: true, maxLength: 200, name: 'description' });
    const boxes = SCOPES.map((s) => h('input', { type: 'checkbox', name: 'scope', value: s }));
    const status = h('p', { role: 'status' });
    const form = h('form.account-form.tokens-form', {},
      h('label.field', {}, h('span', {}, t('tokenDescription')), description),
      h('fieldset.scopes', {}, SCOPES.map((s, i) => h('label', {}, boxes[i], ' ', t(`scope.${s}` as Key), ' ', h('code', {}, s)))),
      status,
      h('button.primary', { type: 'submit' }, t('createToken')));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        this.fresh = await createToken(description.value, boxes.filter((b) => b.checked).map((b) => b.value));
        form.reset();
        status.textContent = '';
        await this.loadTokens();
      } catch (err) {
        status.className = 'error';
        status.textContent = err instanceof Error ? err.message : this.failure(err);
      }
    });
    return h('div.tokens', {}, h('h2', {}, t('tokensTitle')), h('p.hint', {}, t('tokensHint')),
      this.tokensBox, form);
  }

  private closeForm(): HTMLElement {
    const password = h('input', { type: 'password', required: true, autocomplete: 'current-password', name: 'password' });
    const status = h('p.error', { role: 'alert' });
    const form = h('form.account-form.danger', {},
      h('h2', {}, t('closeAccount')),
      h('p', {}, t('closeAccountHint')),
      h('label.field', {}, h('span', {}, t('password')), password),
      status,
      h('button.danger', { type: 'submit' }, t('closeAccountConfirm')));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        await closeAccount(password.value);
        location.assign('/');
      } catch (err) {
        status.textContent = this.failure(err);
      }
    });
    return form;
  }

  destroy(): void {
    this.root.remove();
  }
}
