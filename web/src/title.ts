// An account's title, shown before its name wherever the name is: `BOT` for a bot account.
import { h } from './dom';
import { t } from './i18n';

export function titleBadge(title: string | undefined): HTMLElement | null {
  return title ? h('span.title-badge', { title: title === 'BOT' ? t('botAccount') : title }, title) : null;
}
