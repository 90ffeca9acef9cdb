// Says words aloud with the browser's Web Speech API, in the voice's language. Nothing is
// queued behind a long backlog: a new move cancels what is still being said.
import type { Voice } from './prefs';

const LOCALES: Record<Exclude<Voice, 'off'>, string> = { en: 'en-US', zh: 'zh-CN', de: 'de-DE' };

export function speak(text: string, voice: Voice, interrupt = true): void {
  if (voice === 'off' || !text || typeof speechSynthesis === 'undefined') return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = LOCALES[voice];
  const lang = utterance.lang.slice(0, 2);
  const match = speechSynthesis.getVoices().find((v) => v.lang.replace('_', '-').startsWith(lang));
  if (match) utterance.voice = match;
  if (interrupt) speechSynthesis.cancel();
  speechSynthesis.speak(utterance);
}
