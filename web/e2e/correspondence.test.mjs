// Correspondence in the browser, with the server's time moved on by the test (--test-clock):
// a game at 3 days a move started from the home page, the opponent told of their turn on
// another page and on the home page's list, days passing, and a flag after the days run out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { env, newPage, useServer, clickMove, waitForMoves, resultText, audit } from './harness.mjs';

useServer({ env: { VIZIER_TEST_CLOCK: 'true', VIZIER_SIGNUPS_PER_ADDRESS_HOUR: '100' } });

const DAY = 86_400_000;

async function signUp(page, name) {
  await page.goto(env.base + '/signup');
  await page.fill('input[name="username"]', name);
  await page.fill('input[name="password"]', 'a good password');
  await Promise.all([page.waitForURL(env.base + '/'), page.click('form.auth-form button[type="submit"]')]);
}

/** A friend game at 3 days a move made on `a`'s home page, `a` White, `b` seated by the
 * invite: its id. */
async function threeDayGame(a, b) {
  await a.goto(env.base + '/');
  await a.click('button.choice[data-kind="friend"]');
  await a.click('dialog .chip[data-value="white"]');
  await a.click(`dialog .chip[data-value="1/${3 * 86400}"]`);
  await a.click('dialog button[type="submit"]');
  await a.waitForURL(/\/g\/[A-Za-z0-9]+/);
  const invite = await a.locator('input.invite-link').inputValue();
  const game = a.url().split('/').pop().split('?')[0];
  await b.goto(invite);
  await b.waitForSelector('.board cg-board');
  return game;
}

async function passDays(days) {
  const r = await fetch(env.base + '/api/test/clock', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: days * DAY }),
  });
  assert.equal(r.status, 200);
}

test('a correspondence game is moved across days, the turn told, and lost on time', async () => {
  const stamp = Date.now() % 100000;
  const [a, b] = [await newPage(), await newPage()];
  await signUp(a, `cora_${stamp}`);
  await signUp(b, `corb_${stamp}`);
  // A friend game at 3 days a move, White.
  const game = await threeDayGame(a, b);
  // Black goes elsewhere; White moves; Black is told on that page.
  await b.goto(env.base + '/analysis');
  await b.waitForTimeout(500);
  await clickMove(a, 'e2e4');
  await b.waitForSelector(`.challenge.your-turn[data-game="${game}"]`, { timeout: 10000 });
  assert.match(await b.locator('.challenge.your-turn').innerText(), /Your turn in a correspondence game/);
  // Two days pass: the home page lists the game, Black's turn, a day left.
  await passDays(2);
  await b.goto(env.base + '/');
  await b.waitForSelector(`section.playing li.my-turn[data-game="${game}"]`);
  const line = await b.locator(`section.playing li[data-game="${game}"]`).innerText();
  assert.match(line, /Your turn/);
  assert.match(line, /(1 d 0 h|23 h 5\d min) left/);
  assert.deepEqual(await audit(b, 'home with games'), []);
  // Black answers from the notice, within the days.
  await b.click(`section.playing li[data-game="${game}"] a`);
  await b.waitForSelector('.board cg-board');
  await clickMove(b, 'e7e5');
  await waitForMoves(a, 2);
  // White lets four days pass: the flag falls (the Laws' 6.9, across days).
  await passDays(4);
  await a.reload();
  await b.reload();
  const seen = await resultText(b);
  assert.match(seen, /0.1/);
  assert.match(seen, /time/i);
});

test('conditional premoves: the opponent waiting leaves a line, the answer is played at once', async () => {
  const stamp = Date.now() % 100000;
  const [a, b] = [await newPage(), await newPage()];
  await signUp(a, `cpa_${stamp}`);
  await signUp(b, `cpb_${stamp}`);
  await threeDayGame(a, b);
  await b.waitForSelector('details.conditional');
  // White to move: Black leaves lines; a bad one is refused with the reason.
  await b.click('details.conditional summary');
  await b.fill('details.conditional input[name="conditional"]', 'e4 e4');
  await b.click('details.conditional button[data-action="add-line"]');
  await b.waitForFunction(() => /not a legal move/.test(document.querySelector('details.conditional .error')?.textContent ?? ''));
  await b.fill('details.conditional input[name="conditional"]', 'e4 e5 Nf3 Nc6');
  await b.click('details.conditional button[data-action="add-line"]');
  await b.waitForSelector('details.conditional li');
  assert.match(await b.locator('details.conditional li').first().innerText(), /1\. e4 e5 2\. Nf3 Nc6/);
  // White's own page shows no box (White is to move), and nothing of Black's lines.
  assert.equal(await a.locator('details.conditional').count(), 0);
  await clickMove(a, 'e2e4');
  // Black's answer comes at once: White sees two moves, and Black's box now shows the rest.
  await waitForMoves(a, 2);
  await clickMove(a, 'g1f3');
  await waitForMoves(a, 4);
  await waitForMoves(b, 4);
  assert.deepEqual(await audit(b, 'game with conditional premoves'), []);
});

test('a vacation from the account page stops the clock across days', async () => {
  const stamp = Date.now() % 100000;
  const [a, b] = [await newPage(), await newPage()];
  await signUp(a, `cva_${stamp}`);
  await signUp(b, `cvb_${stamp}`);
  const game = `${env.base}/g/${await threeDayGame(a, b)}`;
  // White, to move, goes away for 7 days from the account page.
  await a.goto(env.base + '/account');
  await a.waitForSelector('form.vacation-form');
  assert.match(await a.locator('.vacation .days-left').innerText(), /30 of 30/);
  await a.fill('form.vacation-form input[name="days"]', '7');
  await a.click('form.vacation-form button[type="submit"]');
  await a.waitForSelector('.vacation .away');
  assert.match(await a.locator('.vacation .days-left').innerText(), /23 of 30/);
  // Five days later the three-day clock has not fallen; the game says why.
  await passDays(5);
  await b.goto(game);
  await b.waitForSelector('.clock[data-side="white"] .away');
  assert.match(await b.locator('.clock[data-side="white"] .away').innerText(), /On vacation until/);
  assert.equal(await b.locator('.banner.result').count(), 0);
  // Back early: the day not begun comes back.
  await a.click('button[data-action="vacation-end"]');
  await a.waitForSelector('form.vacation-form');
  assert.match(await a.locator('.vacation .days-left').innerText(), /24 of 30/);
  assert.deepEqual(await audit(a, 'account page with vacation'), []);
  await a.goto(game);
  await clickMove(a, 'e2e4');
  await waitForMoves(b, 1);
});
