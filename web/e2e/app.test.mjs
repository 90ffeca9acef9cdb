// Browser end-to-end tests of the app: Debian's Chromium against a real `vizier serve`
// (harness.mjs). Run: `node --test e2e/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  SHOTS, audit, clickMove, clickSquares, env, friendGame, newPage, resultText, startFromHome, typeMove,
  useServer, waitForMoves,
} from './harness.mjs';

useServer();

test('home page: three choices, screenshot', async () => {
  const page = await newPage();
  await page.goto(env.base + '/');
  // The page is drawn once the app knows who is signed in (a request after the load event).
  await page.waitForSelector('button.choice');
  assert.equal(await page.locator('button.choice').count(), 3);
  // The tiles come with the lobby's first message over its socket.
  await page.waitForFunction(() => document.querySelectorAll('button.tile').length > 1);
  assert.equal(await page.locator('button.tile').count(), 12, 'eleven tiles and custom');
  // What Vizier is, in one line; and this visitor is counted online from the first message.
  assert.match(await page.locator('p.tagline').innerText(), /FIDE Laws/);
  assert.equal(await page.locator('p.online').innerText(), '1 player online');
  await page.screenshot({ path: join(SHOTS, 'home-en.png') });
  await page.context().close();
});

test('(1) against the computer: moves on both sides, clocks run, resignation', async () => {
  const page = await newPage();
  await startFromHome(page, 'computer', { colour: 'white', tc: '300+3' });
  await clickMove(page, 'e2e4');
  await waitForMoves(page, 2); // the computer answered
  await clickMove(page, 'g1f3');
  await waitForMoves(page, 4);
  // Both clocks have run: neither shows the full five minutes any more... White's shows
  // increments, so check that the running clock ticks.
  const clock = page.locator('.clock.running .time');
  const t1 = await clock.innerText();
  await page.waitForTimeout(1200);
  const t2 = await page.locator('.clock.running .time').innerText();
  assert.notEqual(t1, t2, 'the running clock ticks');
  await page.screenshot({ path: join(SHOTS, 'game-in-progress.png') });
  await page.click('[data-action="resign"]');
  await page.click('[data-action="confirm-resign"]');
  const text = await resultText(page);
  assert.match(text, /0–1/);
  assert.match(text, /Resignation/);
  assert.match(text, /5\.1\.2/);
  // Rematch: a new game with colours swapped, so the computer (now White) moves first.
  const first = page.url();
  await page.click('[data-action="rematch"]');
  await page.waitForURL((url) => url.href !== first && /\/g\//.test(url.href));
  await waitForMoves(page, 1);
  assert.equal(await page.locator('.player.bottom').getAttribute('data-side'), 'black');
  await page.context().close();
});


test('(2) two browsers play by invite link to checkmate', async () => {
  const [a, b] = await friendGame();
  const moves = ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6', 'h5f7'];
  for (const [i, mv] of moves.entries()) {
    const page = i % 2 === 0 ? a : b;
    await waitForMoves(page, i);
    await clickMove(page, mv);
  }
  for (const page of [a, b]) {
    const text = await resultText(page);
    assert.match(text, /^1–0 · White wins · Checkmate/);
  }
  await a.context().close();
  await b.context().close();
});

test('a friend game may allow takebacks: the request is granted', async () => {
  const [a, b] = await friendGame({ tc: '600+5', checks: ['takebacks'] });
  await clickMove(a, 'e2e4');
  await a.click('[data-action="takeback"]');
  await b.click('[data-action="accept-takeback"]');
  await a.waitForFunction(() => document.querySelectorAll('button.move').length === 0);
  await a.context().close();
  await b.context().close();
  // Without the option there is no takeback to ask for.
  const [c, d] = await friendGame();
  await clickMove(c, 'e2e4');
  assert.equal(await c.locator('[data-action="takeback"]').count(), 0);
  await c.context().close();
  await d.context().close();
});

test('the creator withdraws a waiting invite; the link then leads to an aborted game', async () => {
  const a = await newPage();
  await startFromHome(a, 'friend', { colour: 'white', tc: '600+5' });
  const invite = await a.locator('input.invite-link').inputValue();
  // The waiting page shows the game's clock, not "No clock".
  assert.equal(await a.locator('div.control').innerText(), '10+5');
  await a.click('[data-action="cancel-invite"]');
  await a.waitForSelector('.banner.result[data-reason="aborted"]');
  const b = await newPage();
  await b.goto(invite);
  await b.waitForSelector('.banner.result[data-reason="aborted"]');
  assert.equal(await b.locator('.banner.result .reason').innerText(), 'Game aborted');
  await a.context().close();
  await b.context().close();
});

test('(3) same device: stalemate', async () => {
  const page = await newPage();
  await startFromHome(page, 'local', { tc: '-' });
  // Sam Loyd's ten-move stalemate.
  const moves = 'e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7+ Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6 Qe6';
  for (const mv of moves.split(' ')) await typeMove(page, mv);
  const text = await resultText(page);
  assert.match(text, /^½–½ · Stalemate/);
  assert.match(text, /5\.2\.1/);
  await page.context().close();
});

test('(4) a draw offer accepted', async () => {
  const [a, b] = await friendGame();
  await clickMove(a, 'e2e4');
  await waitForMoves(b, 1);
  await clickMove(b, 'e7e5');
  await waitForMoves(a, 2);
  await a.click('[data-action="offer-draw"]');
  await b.click('[data-action="accept-draw"]');
  for (const page of [a, b]) assert.match(await resultText(page), /^½–½ · Draw by agreement/);
  await a.context().close();
  await b.context().close();
});

test('(5) a flag falls on a short clock', async () => {
  const page = await newPage();
  await startFromHome(page, 'local', { custom: { minutes: 0.05 } });
  const text = await resultText(page);
  assert.match(text, /^0–1 · Black wins · Time forfeit/);
  await page.context().close();
});

test('(6) a reload mid-game restores the game', async () => {
  const page = await newPage();
  await startFromHome(page, 'local', { tc: '600+5' });
  await clickMove(page, 'd2d4');
  await clickMove(page, 'g8f6');
  const url = page.url();
  await page.reload();
  await waitForMoves(page, 2);
  assert.equal(page.url(), url);
  const sans = await page.locator('button.move').allInnerTexts();
  assert.deepEqual(sans, ['d4', 'Nf6']);
  await page.context().close();
});

test('(7) the page in 中文, remembered after a reload', async () => {
  const page = await newPage('en-US');
  await page.goto(env.base + '/');
  await page.click('button.lang');
  await page.waitForSelector('text=与电脑对弈');
  await page.reload();
  await page.waitForSelector('text=与电脑对弈');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  await page.screenshot({ path: join(SHOTS, 'home-zh.png') });
  const zhBrowser = await newPage('zh-CN');
  await zhBrowser.goto(env.base + '/');
  await zhBrowser.waitForSelector('text=同一设备');
  await page.context().close();
  await zhBrowser.context().close();
});

test('promotion through the chooser, and a threefold claim', async () => {
  const page = await newPage();
  await startFromHome(page, 'local', { tc: '-' });
  for (const mv of 'a4 b5 axb5 a6 bxa6 Bb7 axb7 Nc6'.split(' ')) await typeMove(page, mv);
  const box = await page.locator('.board cg-board').boundingBox();
  const size = box.width / 8;
  await page.mouse.click(box.x + 1.5 * size, box.y + 1.5 * size); // b7
  await page.mouse.click(box.x + 0.5 * size, box.y + 0.5 * size); // a8
  await page.click('.promotion button[data-role="n"]');
  await waitForMoves(page, 9);
  assert.equal(await page.locator('button.move').last().innerText(), 'bxa8=N');

  const game = await newPage();
  await startFromHome(game, 'local', { tc: '300+3' });
  for (const mv of 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8'.split(' ')) await typeMove(game, mv);
  await game.click('[data-action="claim-threefold"]');
  const text = await resultText(game);
  assert.match(text, /^½–½ · Draw by threefold repetition/);
  assert.match(text, /9\.2/);
  await page.context().close();
  await game.context().close();
});

test('on a phone: clocks above and below the board', async () => {
  const context = await env.browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await startFromHome(page, 'local', { tc: '300+3' });
  await typeMove(page, 'e4');
  const board = await page.locator('.board').boundingBox();
  const top = await page.locator('.player.top').boundingBox();
  const bottom = await page.locator('.player.bottom').boundingBox();
  assert.ok(top.y + top.height <= board.y + 1, 'the opponent is above the board');
  assert.ok(bottom.y >= board.y + board.height - 1, 'the player is below the board');
  assert.ok(board.width >= 370, 'the board takes the full width');
  await page.screenshot({ path: join(SHOTS, 'game-phone.png') });
  await context.close();
});

test('switching language or sound mid-game redraws in place: one socket, refusals translated', async () => {
  const page = await newPage('en-US');
  let sockets = 0;
  // The home page's lobby socket is not the game's.
  page.on('websocket', (ws) => { if (ws.url().includes('/api/games/')) sockets += 1; });
  await startFromHome(page, 'local', { tc: '600+5' });
  await clickMove(page, 'e2e4');
  await page.fill('input.move-input', 'Ke3');
  await page.press('input.move-input', 'Enter');
  await page.waitForSelector('text=That move is not legal here.');
  // The move box keeps its focus after the refusal's redraw: typing goes on into it.
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'move-input');
  await page.click('button.lang');
  await page.waitForSelector('text=这步棋不合规则。');
  await page.waitForSelector('[data-action="flip"] >> text=翻转棋盘');
  await page.click('button.icon');
  await page.click('button.lang');
  await page.waitForSelector('[data-action="flip"] >> text=Flip board');
  assert.equal(sockets, 1, 'the game socket was never reopened');
  await typeMove(page, 'e5');
  assert.deepEqual(await page.locator('button.move').allInnerTexts(), ['e4', 'e5']);
  await page.context().close();
});

test('arbiter mode on one device: an illegal move costs a minute, the second loses', async () => {
  const page = await newPage();
  await startFromHome(page, 'local', { tc: '300+3', chips: ['supervised'] });
  // A pawn three squares forward: the board lets it be made, the arbiter takes it back.
  await clickSquares(page, 'e2e5');
  await page.waitForSelector('.banner.penalty');
  assert.match(await page.locator('.banner.penalty').innerText(), /Illegal move by White/);
  assert.equal(await page.locator('button.move').count(), 0);
  assert.match(await page.locator('.clock[data-side="black"] .time').innerText(), /^0?6:00$/);
  assert.match(await page.locator('.banner.infractions').innerText(), /White 1 · Black 0/);
  await page.waitForTimeout(400); // the pawn slides back to e2
  await page.screenshot({ path: join(SHOTS, 'arbiter-penalty.png') });
  await clickMove(page, 'e2e4');
  await clickMove(page, 'e7e5');
  // The king two squares up the file: White's second illegal move loses.
  await clickSquares(page, 'e1e3');
  const text = await resultText(page);
  assert.match(text, /^0–1 · Black wins · Second illegal move/);
  assert.match(text, /7\.5\.5/);
  await page.context().close();
});

test('an adjourned friend game resumes with its sealed move; the scoresheet in 中文 letters', async () => {
  const [a, b] = await friendGame({ custom: { minutes: 90, increment: 30 } });
  await clickMove(a, 'e2e4');
  await waitForMoves(b, 1);
  await clickMove(b, 'e7e5');
  await waitForMoves(a, 2);
  // Black asks, White agrees; White has the move and seals it on the board.
  await b.click('[data-action="adjourn"]');
  await a.click('[data-action="accept-adjourn"]');
  await a.waitForSelector('.banner.adjourn >> text=Seal your move');
  await clickSquares(a, 'g1f3');
  await b.waitForSelector('.banner.adjourn >> text=has sealed a move');
  assert.equal(await b.locator('button.move').count(), 2, 'the sealed move is not shown');
  await b.click('[data-action="resume"]');
  await a.waitForSelector('.banner.adjourn >> text=asks to resume');
  await a.click('[data-action="resume"]');
  await waitForMoves(b, 3);
  assert.equal(await b.locator('button.move').nth(2).innerText(), 'Nf3');
  assert.equal(await b.locator('.banner.adjourn').count(), 0);
  // The move list in Chinese letters, and the scoresheet to download with them.
  await b.selectOption('select.notation', 'zh');
  await b.waitForFunction(() => document.querySelectorAll('button.move')[2]?.textContent === '马f3');
  const href = await b.locator('[data-action="download-scoresheet"]').getAttribute('href');
  const pgn = await (await fetch(env.base + href)).text();
  assert.match(pgn, /2\. 马f3/);
  await a.context().close();
  await b.context().close();
});

test('a game that does not exist says so', async () => {
  const page = await newPage();
  await page.goto(env.base + '/g/doesnotexist');
  await page.waitForSelector('text=There is no such game.');
  await page.context().close();
});

test('the app runs under its Content-Security-Policy', async () => {
  const page = await newPage();
  await startFromHome(page, 'computer', { colour: 'white', tc: '300+3' });
  await clickMove(page, 'e2e4');
  await waitForMoves(page, 2);
  await page.click('button.lang');
  await page.waitForSelector('text=翻转棋盘');
  const pieces = await page.locator('.board piece').count();
  assert.ok(pieces >= 30, `the pieces are drawn (${pieces})`);
  const image = await page.locator('.board piece').first().evaluate((el) => getComputedStyle(el).backgroundImage);
  assert.match(image, /^url\("data:image/, 'the pieces\' images load');
  assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
  await page.context().close();
});

test('accounts: a guest signs up and keeps the game; preferences follow; sign out and in', async () => {
  const page = await newPage();
  // A finished game as a guest, to be found in the archive after signing up.
  await startFromHome(page, 'local', { tc: '-' });
  for (const mv of ['f3', 'e5', 'g4', 'Qh4#']) await typeMove(page, mv);
  assert.match(await resultText(page), /^0–1 · Black wins · Checkmate/);
  await startFromHome(page, 'local', { tc: '-' });
  await typeMove(page, 'e4');
  const game = page.url();
  // Sign up through the plain form: the server redirects home, signed in.
  await page.click('a.nav-link[href="/signup"]');
  await page.waitForSelector('form.auth-form');
  await page.screenshot({ path: join(SHOTS, 'signup-en.png') });
  const name = `guest_${Date.now() % 100000}`;
  await page.fill('input[name="username"]', name);
  await page.fill('input[name="password"]', 'a good password');
  await Promise.all([page.waitForURL(env.base + '/'), page.click('form.auth-form button[type="submit"]')]);
  await page.waitForSelector(`a.nav-link.me:text("${name}")`);
  await page.goto(`${env.base}/@/${name}/games`);
  await page.waitForSelector('li.archive-game');
  assert.equal(await page.locator('li.archive-game').count(), 1);
  assert.match(await page.locator('li.archive-game .archive-result').innerText(), /0–1 · Checkmate/);
  assert.match(await page.locator('li.archive-game .archive-opening').innerText(), /A00 · Barnes Opening: Fool's Mate/);
  // The game played as a guest is the account's: it can go on moving.
  await page.goto(game);
  await page.waitForSelector('.board cg-board');
  await typeMove(page, 'e5');
  // Preferences follow the account into another browser.
  await page.click('button.lang');
  await page.waitForSelector('text=退出登录');
  const other = await newPage('en-US');
  await other.goto(env.base + '/login');
  await other.fill('input[name="username"]', name.toUpperCase());
  await other.fill('input[name="password"]', 'wrong password');
  await other.click('form.auth-form button[type="submit"]');
  await other.waitForSelector('.auth-form p.error');
  assert.match(await other.locator('.auth-form p.error').innerText(), /Wrong username or password/);
  assert.equal(await other.inputValue('input[name="username"]'), name.toUpperCase());
  await other.fill('input[name="password"]', 'a good password');
  await Promise.all([other.waitForURL(env.base + '/'), other.click('form.auth-form button[type="submit"]')]);
  await other.waitForSelector('text=与电脑对弈');
  await other.goto(game);
  await other.waitForSelector('.board cg-board');
  await typeMove(other, 'Nf3');
  // The account page lists both browsers; ending the other one signs it out.
  await page.goto(env.base + '/account');
  await page.waitForSelector('.sessions li.session >> nth=1');
  await page.screenshot({ path: join(SHOTS, 'account-zh.png') });
  await page.click('.sessions li.session button');
  await page.waitForFunction(() => document.querySelectorAll('.sessions li.session').length === 1);
  await other.goto(env.base + '/');
  await other.waitForSelector('a.nav-link[href="/login"]');
  // Signing out leaves a guest who holds none of the account's seats.
  await Promise.all([page.waitForURL(env.base + '/'), page.click('form.logout button')]);
  await page.waitForSelector('a.nav-link[href="/login"]');
  await page.goto(game);
  await waitForMoves(page, 3);
  assert.equal(await page.locator('input.move-input').count(), 0);
  await page.context().close();
  await other.context().close();
});

/** Glicko-2 by the paper's steps, for one game between two players who have just started
 * (1500, RD 500, σ 0.09, τ 0.75 as lichess): the rating and RD after it. */
function glicko2(me, them, score, tau = 0.75) {
  const S = 173.7178;
  const [mu, phi, sigma] = [(me.r - 1500) / S, me.rd / S, me.vol];
  const [muJ, phiJ] = [(them.r - 1500) / S, them.rd / S];
  const g = 1 / Math.sqrt(1 + 3 * phiJ * phiJ / (Math.PI * Math.PI));
  const E = 1 / (1 + Math.exp(-g * (mu - muJ)));
  const v = 1 / (g * g * E * (1 - E));
  const delta = v * g * (score - E);
  const a = Math.log(sigma * sigma);
  const f = (x) => Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x)) / (2 * (phi * phi + v + Math.exp(x)) ** 2) - (x - a) / (tau * tau);
  let A = a;
  let B;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else { let k = 1; while (f(a - k * tau) < 0) k++; B = a - k * tau; }
  let [fA, fB] = [f(A), f(B)];
  while (Math.abs(B - A) > 1e-6) {
    const C = A + (A - B) * fA / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) { A = B; fA = fB; } else fA /= 2;
    B = C; fB = fC;
  }
  const sigmaNew = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * g * (score - E);
  return { r: S * muNew + 1500, rd: Math.max(45, Math.min(500, S * phiNew)) };
}

async function signUp(page, name, password = 'a good password') {
  await page.goto(env.base + '/signup');
  await page.fill('input[name="username"]', name);
  await page.fill('input[name="password"]', password);
  await Promise.all([page.waitForURL(env.base + '/'), page.click('form.auth-form button[type="submit"]')]);
}

test('a rated game between two accounts: both profiles show the new ratings', async () => {
  const stamp = Date.now() % 100000;
  const [nameA, nameB] = [`ann_${stamp}`, `bo_${stamp}`];
  const a = await newPage();
  const b = await newPage('zh-CN');
  await signUp(a, nameA);
  await signUp(b, nameB);
  // Both take the 3+2 tile: the pool pairs them, and both pages open the game.
  await a.goto(env.base + '/');
  await b.goto(env.base + '/');
  await a.click('button.tile[data-tc="180+2"]');
  await a.waitForSelector('button.tile.searching');
  await a.screenshot({ path: join(SHOTS, 'lobby-en.png') });
  await b.screenshot({ path: join(SHOTS, 'lobby-zh.png') });
  await b.click('button.tile[data-tc="180+2"]');
  await Promise.all([a.waitForURL(/\/g\/[A-Za-z0-9]+/), b.waitForURL(/\/g\/[A-Za-z0-9]+/)]);
  assert.equal(a.url(), b.url());
  await a.waitForSelector('.board cg-board');
  await b.waitForSelector('.board cg-board');
  // Colours are drawn at random: name the pages by the side they play.
  const aIsWhite = await a.locator(`.player.bottom[data-side="white"]`).count() === 1;
  const [w, bl] = aIsWhite ? [a, b] : [b, a];
  const [whiteName, blackName] = aIsWhite ? [nameA, nameB] : [nameB, nameA];
  await w.waitForSelector(`.player[data-side="black"] .name:has-text("${blackName}")`);
  assert.match(await w.locator('.player[data-side="black"] .rating').innerText(), /1500\?/);
  // Scholar's mate: White wins.
  const moves = ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6', 'h5f7'];
  for (const [i, mv] of moves.entries()) {
    const page = i % 2 === 0 ? w : bl;
    await waitForMoves(page, i);
    await clickMove(page, mv);
  }
  // White's page may be the one in 中文: the reason's code, not its words.
  assert.match(await resultText(w), /^1–0 · (White wins|白方胜) · /);
  assert.equal(await w.locator('.banner.result').getAttribute('data-reason'), 'checkmate');
  const fresh = { r: 1500, rd: 500, vol: 0.09 };
  const won = glicko2(fresh, fresh, 1);
  const lost = glicko2(fresh, fresh, 0);
  await w.waitForSelector('.player[data-side="white"] .rating-diff');
  assert.equal(await w.locator('.player[data-side="white"] .rating-diff').innerText(), ` +${Math.round(won.r) - 1500}`);
  // Both profiles: Glicko-2 with RD, the FIDE method (K 40: ±20 at equal ratings) and the
  // level scheme (10 points to the winner, never below 0 for the loser).
  for (const [page, name, expect, elo, level] of [
    [w, whiteName, won, '1520', '无级别 · 10分'],
    [bl, blackName, lost, '1480', '无级别 · 0分'],
  ]) {
    await page.goto(`${env.base}/@/${name}`);
    await page.waitForSelector('tr[data-class="blitz"] td.glicko');
    const row = page.locator('tr[data-class="blitz"]');
    assert.equal(await row.locator('td.glicko').innerText(), `${Math.round(expect.r)}? ± ${Math.round(expect.rd)}`);
    assert.equal(await row.locator('td.elo').innerText(), elo);
    assert.equal(await row.locator('td.level').innerText(), level);
    await page.waitForSelector('svg.rating-chart polyline[data-class="blitz"]', { state: 'attached' });
    assert.equal(await page.locator('svg.rating-chart circle').count(), 1);
    const api = await page.evaluate(async (n) => (await fetch(`/api/user/${n}`)).json(), name);
    assert.equal(api.perfs.blitz.rating, Math.round(expect.r));
    assert.equal(api.perfs.blitz.rd, Math.round(expect.rd));
    assert.equal(api.perfs.blitz.games, 1);
    await page.screenshot({ path: join(SHOTS, `profile-${page === a ? 'en' : 'zh'}.png`) });
  }
  // The archive filters without reloading: the winner has one win and no loss.
  await w.click('a.all-games');
  await w.waitForSelector('li.archive-game');
  await w.selectOption('select[name="result"]', 'loss');
  await w.waitForSelector('p.archive-empty');
  await w.selectOption('select[name="result"]', 'win');
  await w.waitForSelector('li.archive-game');
  assert.match(await w.locator('li.archive-game .archive-players').innerText(), new RegExp(`${whiteName} \\(1500\\) \\+${Math.round(won.r) - 1500}`));
  await w.screenshot({ path: join(SHOTS, `archive-${w === a ? 'en' : 'zh'}.png`) });
  await bl.goto(`${env.base}/@/${blackName}/games`);
  await bl.waitForSelector('li.archive-game');
  await bl.screenshot({ path: join(SHOTS, `archive-${bl === a ? 'en' : 'zh'}.png`) });
  // Its PGN, read by python-chess, has the archive's tags.
  const gameId = await w.locator('li.archive-game').getAttribute('data-id');
  const pgn = await w.evaluate(async (id) => (await fetch(`/game/export/${id}`)).text(), gameId);
  const read = JSON.parse(execFileSync('python3', ['-c', [
    'import chess.pgn, io, json, sys',
    'g = chess.pgn.read_game(io.StringIO(sys.stdin.read()))',
    'print(json.dumps({**dict(g.headers), "moves": len(list(g.mainline_moves())), "errors": len(g.errors)}))',
  ].join('\n')], { input: pgn }).toString());
  assert.equal(read.errors, 0);
  assert.equal(read.moves, 7);
  assert.equal(read.White, whiteName);
  assert.equal(read.Black, blackName);
  assert.equal(read.WhiteElo, '1500');
  assert.equal(read.BlackElo, '1500');
  assert.equal(read.TimeControl, '180+2');
  assert.equal(read.Termination, 'normal');
  assert.equal(read.Result, '1-0');
  assert.match(read.ECO, /^C\d\d$/);
  assert.ok(read.Opening && read.Opening !== '?', read.Opening);
  assert.ok(read.Site, 'Site');
  await a.context().close();
  await b.context().close();
});

test('a challenge by name from a profile, accepted from the lobby', async () => {
  const stamp = Date.now() % 100000;
  const [from, to] = [`cy_${stamp}`, `di_${stamp}`];
  const a = await newPage();
  const b = await newPage();
  await signUp(a, from);
  await signUp(b, to);
  await a.goto(`${env.base}/@/${to}`);
  await a.click('button.challenge');
  await a.selectOption('dialog select[name="tc"]', '600+5');
  await a.selectOption('dialog select[name="color"]', 'white');
  await Promise.all([a.waitForURL(env.base + '/'), a.click('dialog button[type="submit"]')]);
  await a.waitForSelector('.challenge.outgoing[data-status="created"]');
  await b.waitForSelector('.challenge.incoming');
  assert.match(await b.locator('.challenge.incoming').innerText(), new RegExp(`${from} \\(1500\\?\\) challenges you · 10\\+5`));
  await b.click('.challenge.incoming button[data-action="accept-challenge"]');
  await Promise.all([a.waitForURL(/\/g\/[A-Za-z0-9]+/), b.waitForURL(/\/g\/[A-Za-z0-9]+/)]);
  assert.equal(a.url(), b.url());
  await a.waitForSelector('.player.bottom[data-side="white"]');
  await b.waitForSelector(`.player[data-side="white"] .name:has-text("${from}")`);
  await a.context().close();
  await b.context().close();
});

test('the custom time fields show only with Custom, and the chosen preset is the one played', async () => {
  const page = await newPage();
  await page.goto(env.base + '/');
  await page.click('button.choice[data-kind="computer"]');
  assert.equal(await page.locator('dialog .custom').isVisible(), false);
  await page.click('dialog .chip[data-value="custom"]');
  assert.equal(await page.locator('dialog .custom').isVisible(), true);
  await page.click('dialog .chip[data-value="600+5"]');
  assert.equal(await page.locator('dialog .custom').isVisible(), false);
  await page.click('dialog button[type="submit"]');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+/);
  const id = new URL(page.url()).pathname.slice(3);
  const pgn = await (await page.request.get(`${env.base}/game/export/${id}`)).text();
  assert.match(pgn, /\[TimeControl "600\+5"\]/);
  await page.context().close();
});

test('an aborted game says so without a score; no claim with a move at move 1; no move box looking back', async () => {
  const page = await newPage();
  await startFromHome(page, 'local', { tc: '-' });
  await typeMove(page, 'e4');
  await waitForMoves(page, 1);
  assert.equal(await page.locator('[data-action="claim-with-move"]').count(), 0);
  assert.equal(await page.locator('input.move-input').count(), 1);
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('.banner.looking');
  assert.equal(await page.locator('input.move-input').count(), 0);
  await page.keyboard.press('End');
  await page.waitForSelector('input.move-input');
  await page.click('[data-action="abort"]');
  await page.waitForSelector('.banner.result');
  assert.equal(await page.locator('.banner.result .score').count(), 0);
  assert.equal(await page.locator('.banner.result .reason').innerText(), 'Game aborted');
  await page.context().close();
});

test('a wrong claim with a declared move says so: the move stands and the game goes on', async () => {
  const page = await newPage();
  await startFromHome(page, 'local', { tc: '600+5' });
  for (const mv of ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1']) await typeMove(page, mv);
  await page.fill('input.move-input', 'Nc6');
  await page.click('[data-action="claim-with-move"]');
  await waitForMoves(page, 8);
  await page.waitForSelector('p.notice');
  assert.match(await page.locator('p.notice').innerText(), /claim was not correct.*extra time.*9\.5\.3/);
  assert.equal(await page.locator('.banner.result').count(), 0);
  await page.context().close();
});

test('no sideways scrolling at 320, 360 and 390 px, in English and 中文: home, games waiting and over, profile, archive, account, dialogs', async () => {
  const stamp = Date.now() % 100000;
  const name = `nw_${stamp}`;
  const setup = await newPage();
  await signUp(setup, name);
  // A finished game (also listed on the home page), and one waiting.
  await startFromHome(setup, 'local', { tc: '300+3' });
  for (const mv of ['f3', 'e5', 'g4', 'Qh4#']) await typeMove(setup, mv);
  const finished = new URL(setup.url()).pathname;
  await startFromHome(setup, 'friend', { colour: 'white', tc: '300+3' });
  const waiting = new URL(setup.url()).pathname;
  const cookies = await setup.context().cookies();
  await setup.context().close();
  const wide = [];
  for (const locale of ['en-US', 'zh-CN']) {
    for (const width of [320, 360, 390]) {
      const context = await env.browser.newContext({ locale, viewport: { width, height: 800 } });
      await context.addCookies(cookies);
      const page = await context.newPage();
      for (const path of ['/', waiting, finished, '/analysis', `/@/${name}`, `/@/${name}/games`, '/account', '/login', '/signup']) {
        await page.goto(env.base + path);
        await page.waitForLoadState('networkidle');
        const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (over > 0) wide.push(`${locale} ${width} px ${path}: ${over} px too wide`);
      }
      await page.goto(env.base + '/');
      await page.click('button.choice[data-kind="computer"]');
      await page.click('dialog .chip[data-value="custom"]');
      const dialog = await page.locator('dialog').boundingBox();
      if (dialog.x < 0 || dialog.x + dialog.width > width) wide.push(`${locale} ${width} px: the new-game dialog is cut off`);
      await page.keyboard.press('Escape');
      await page.click('[data-action="preferences"]');
      const prefs = await page.locator('dialog.prefs').boundingBox();
      if (prefs.x < 0 || prefs.x + prefs.width > width) wide.push(`${locale} ${width} px: the preferences are cut off`);
      await context.close();
    }
  }
  assert.deepEqual(wide, []);
});


test('axe-core finds nothing on the home page, its dialogs, preferences, and games waiting, played (blindfold too) and over, in English and 中文', async () => {
  const found = [];
  for (const locale of ['en-US', 'zh-CN']) {
    const page = await newPage(locale);
    await page.goto(env.base + '/');
    await page.waitForSelector('.lobby');
    found.push(...await audit(page, `${locale} home`));
    for (const kind of ['computer', 'friend', 'local']) {
      await page.click(`button.choice[data-kind="${kind}"]`);
      await page.click('dialog .chip[data-value="custom"]');
      found.push(...await audit(page, `${locale} ${kind} dialog`));
      await page.keyboard.press('Escape');
    }
    await page.click('[data-action="preferences"]');
    found.push(...await audit(page, `${locale} preferences`));
    await page.keyboard.press('Escape');
    await page.goto(env.base + '/analysis');
    await page.waitForSelector('.engine-line');
    await page.click('details.loader summary');
    found.push(...await audit(page, `${locale} analysis board`));
    await startFromHome(page, 'friend', { colour: 'white', tc: '300+3' });
    found.push(...await audit(page, `${locale} waiting`));
    await startFromHome(page, 'local', { tc: '300+3' });
    await typeMove(page, 'f3');
    found.push(...await audit(page, `${locale} playing`));
    await page.fill('input.move-input', 'p N');
    await page.press('input.move-input', 'Enter');
    await page.selectOption('select.blindfold', 'pieces');
    await page.waitForSelector('[data-action="peek"]');
    found.push(...await audit(page, `${locale} blindfold, a board command answered`));
    await page.selectOption('select.blindfold', 'off');
    for (const mv of ['e5', 'g4', 'Qh4#']) await typeMove(page, mv);
    await page.waitForSelector('.banner.result');
    found.push(...await audit(page, `${locale} over`));
    await page.context().close();
  }
  assert.deepEqual(found, []);
});

test('a challenge reaches a player on another page, and is accepted there', async () => {
  const stamp = Date.now() % 100000;
  const [from, to] = [`ev_${stamp}`, `fa_${stamp}`];
  const a = await newPage();
  const b = await newPage();
  await signUp(a, from);
  await signUp(b, to);
  // Bob reads his own archive; Ann challenges him from his profile.
  await b.goto(`${env.base}/@/${to}/games`);
  await a.goto(`${env.base}/@/${to}`);
  await a.click('button.challenge');
  await a.selectOption('dialog select[name="tc"]', '300+3');
  await Promise.all([a.waitForURL(env.base + '/'), a.click('dialog button[type="submit"]')]);
  await b.waitForSelector('.notices .challenge.incoming');
  assert.match(await b.locator('.notices .challenge.incoming').innerText(), new RegExp(`${from} \\(1500\\?\\) challenges you · 5\\+3`));
  await b.screenshot({ path: join(SHOTS, 'challenge-elsewhere.png') });
  await b.click('.notices .challenge.incoming button[data-action="accept-challenge"]');
  await Promise.all([a.waitForURL(/\/g\/[A-Za-z0-9]+/), b.waitForURL(/\/g\/[A-Za-z0-9]+/)]);
  assert.equal(a.url(), b.url());
  // On the game page the notice is gone, and a guest never gets one.
  assert.equal(await b.locator('.notices .challenge').count(), 0);
  await a.context().close();
  await b.context().close();
});

test('a player who leaves: the countdown, then the claim', async () => {
  const a = await newPage();
  await startFromHome(a, 'friend', { colour: 'white', tc: '60' });
  const invite = await a.locator('input.invite-link').inputValue();
  const b = await newPage();
  await b.goto(invite);
  await b.waitForSelector('.board cg-board');
  await a.waitForSelector('.player[data-side="black"] .presence.on');
  await clickMove(a, 'e2e4');
  await waitForMoves(b, 1);
  await clickMove(b, 'e7e5');
  await waitForMoves(a, 2);
  await a.context().close();
  await b.waitForSelector('.banner.gone');
  assert.match(await b.locator('.banner.gone').innerText(), /You can claim victory in \d+ s/);
  await b.waitForSelector('button[data-action="claim-victory"]', { timeout: 15_000 });
  await b.click('button[data-action="claim-victory"]');
  assert.match(await resultText(b), /^0–1 · Black wins · The opponent left the game/);
  await b.context().close();
});

test('rough edges: no takeback before a move, move numbers looking back, Copy FEN says so, typing keeps shortcuts away', async () => {
  const page = await newPage();
  await startFromHome(page, 'computer', { colour: 'white', tc: '600+5' });
  // (4) Nothing to take back before one's own first move.
  assert.equal(await page.locator('[data-action="takeback"]').count(), 0);
  // (3) A typed move keeps the focus in the box: the next letters are not shortcuts (f flips).
  await typeMove(page, 'e4');
  await waitForMoves(page, 2);
  const orientation = () => page.locator('.board').evaluate((el) => el.classList.contains('orientation-black'));
  const flippedBefore = await orientation();
  await page.keyboard.type('Nf3');
  assert.equal(await page.locator('input.move-input').inputValue(), 'Nf3');
  assert.equal(await orientation(), flippedBefore, 'f went into the box, not to the flip shortcut');
  await page.keyboard.press('Enter');
  await waitForMoves(page, 4);
  assert.equal(await page.locator('[data-action="takeback"]').count(), 1, 'now there is a move to take back');
  // (10) Looking back at White's second move says "2. Nf3", counted in moves, not plies.
  await page.locator('button.move').nth(2).click();
  assert.match(await page.locator('.banner.looking').innerText(), /Looking at 2\. Nf3/);
  await page.click('.banner.looking button');
  // (11) Copy FEN answers that it copied.
  await page.click('[data-action="copy-fen"]');
  await page.waitForFunction(() => document.querySelector('[data-action="copy-fen"]')?.textContent === 'Copied');
  await page.context().close();
});

test('rough edges: the joiner\'s address loses the invite, a spectator sees who plays, labels in 中文', async () => {
  const [a, b] = await friendGame();
  // (15) The token is gone from the joiner's address bar once the game starts.
  await b.waitForFunction(() => !location.search.includes('invite'));
  // (9) A spectator sees the two players as White and Black, not both as "Friend".
  const watcher = await newPage();
  await watcher.goto(a.url());
  await watcher.waitForSelector('.player[data-side="white"]');
  const names = await watcher.locator('.player .name').allInnerTexts();
  assert.ok(names.some((n) => /Black/.test(n)) && names.some((n) => /White/.test(n)), names.join(' | '));
  assert.ok(!names.some((n) => /Friend/.test(n)), names.join(' | '));
  // (17) In 中文 the clocks and the move list's buttons are named in Chinese.
  const zh = await newPage('zh-CN');
  await zh.goto(a.url());
  await zh.waitForSelector('.clock .time');
  const labels = await zh.evaluate(() => [...document.querySelectorAll('[aria-label]')]
    .map((el) => el.getAttribute('aria-label')).filter((l) => /[A-Za-z]{3,}/.test(l) && !/PGN|SAN|FEN|UCI|Elo/.test(l)));
  assert.deepEqual(labels, [], 'no English names on the page in 中文');
  for (const p of [a, b, watcher, zh]) await p.context().close();
});
