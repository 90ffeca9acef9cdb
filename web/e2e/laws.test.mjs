// Browser tests of the Laws where a proof decides: a dead position ends the game at the move
// that made it dead, whatever was played after. The server proves no positions in the
// background here (VIZIER_PROOF_QUEUE=0), so that moves can be made after the dead one and
// the resignation is what asks for the proof.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, clickMove, env, newPage, resultText, useServer } from './harness.mjs';

useServer({ env: { VIZIER_PROOF_QUEUE: '0' } });

/** Black's rook on g2 can still help mate; after Kxg2 neither side ever can. */
const BEFORE_DEAD = '1k6/1P5p/BP3p2/1P6/8/8/5PrP/6K1 w - - 0 1';

/** A game on one device from `fen`, started from the home page's dialog. */
async function localGameFrom(page, fen) {
  await page.goto(env.base + '/');
  await page.click('button.choice[data-kind="local"]');
  await page.fill('dialog input[name="fen"]', fen);
  await page.click('dialog button[type="submit"]');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+/);
  await page.waitForSelector('.board cg-board');
}

test('a game from a position: a FEN that is no position is refused with the reason', async () => {
  const page = await newPage();
  await page.goto(env.base + '/');
  await page.click('button.choice[data-kind="local"]');
  await page.fill('dialog input[name="fen"]', '8/8/8/8 w - - 0 1');
  await page.click('dialog button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('dialog .error')?.textContent?.length > 0);
  assert.match(await page.locator('dialog .error').innerText(), /FEN|position/i);
  assert.ok(page.url().endsWith('/'), 'no game was made');
  await page.context().close();
});

test('resigning in a position already dead: a draw since the move that made it dead (Arts. 5.1.2, 5.2.2)', async () => {
  for (const [locale, since] of [['en-US', /dead after 1\. Kxg2/], ['zh-CN', /1\. Kxg2 之后已成死局/]]) {
    const page = await newPage(locale);
    await localGameFrom(page, BEFORE_DEAD);
    await clickMove(page, 'g1g2');
    await clickMove(page, 'h7h6');
    await clickMove(page, 'g2g3');
    await page.click('[data-action="resign"]');
    await page.click('[data-action="confirm-resign"]');
    const text = await resultText(page);
    assert.match(text, /^½–½/, text);
    assert.match(text, /5\.2\.2/, text);
    if (locale === 'en-US') assert.match(text, /Dead position/, text);
    assert.match(await page.locator('.banner.result .since').innerText(), since);
    assert.equal(await page.locator('p.notice.error').count(), 0, 'the result says it all');
    await page.screenshot({ path: join(SHOTS, `dead-since-${locale}.png`) });
    await page.context().close();
  }
});
