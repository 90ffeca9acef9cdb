// The lichess-compatible API against the browser: a token made on the account page, a
// Board-API client that challenges a player and plays its side against the player's browser,
// and a bot account marked BOT on the pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { env, newPage, useServer, clickMove, waitForMoves, resultText, audit } from './harness.mjs';

useServer();

async function signUp(page, name) {
  await page.goto(env.base + '/signup');
  await page.fill('input[name="username"]', name);
  await page.fill('input[name="password"]', 'a good password');
  await Promise.all([page.waitForURL(env.base + '/'), page.click('form.auth-form button[type="submit"]')]);
}

/** Makes a token with `scopes` on the account page: the token, as shown once. */
async function makeToken(page, description, scopes) {
  await page.goto(env.base + '/account');
  await page.fill('.tokens-form input[name="description"]', description);
  for (const s of scopes) await page.check(`.tokens-form input[value="${s}"]`);
  await page.click('.tokens-form button[type="submit"]');
  await page.waitForSelector('.fresh-token code.token-value');
  return page.locator('.fresh-token code.token-value').innerText();
}

/** Reads an NDJSON stream, calling `onLine` with each object; resolves when it closes. */
async function stream(path, token, onLine, signal) {
  const r = await fetch(env.base + path, { headers: { authorization: `Bearer ${token}` }, signal });
  assert.equal(r.status, 200, `${path}: ${r.status}`);
  const reader = r.body.getReader();
  const text = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ done: true }));
    if (done) return;
    buffer += text.decode(value, { stream: true });
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) await onLine(JSON.parse(line));
    }
  }
}

function api(token) {
  return async (method, path, body) => {
    const r = await fetch(env.base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: await r.json() };
  };
}

test('a board app plays its side against a browser, through a token made on the account page', async () => {
  const stamp = Date.now() % 100000;
  const [boardUser, browserUser] = [`dgt_${stamp}`, `web_${stamp}`];
  const a = await newPage();
  const b = await newPage();
  await signUp(a, boardUser);
  await signUp(b, browserUser);
  const token = await makeToken(a, 'my e-board', ['board:play', 'challenge:write']);
  assert.match(token, /^[A-Za-z0-9_]+$/);
  // The list shows it, never the token again.
  await a.reload();
  await a.waitForSelector('li.token:has-text("my e-board")');
  assert.equal(await a.locator('.fresh-token').count(), 0);
  await audit(a, 'account-tokens');
  const call = api(token);

  const sent = await call('POST', `/api/challenge/${browserUser}`,
    { 'clock.limit': 300, 'clock.increment': 0, color: 'white' });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  await b.goto(env.base + '/');
  await b.waitForSelector('.challenge.incoming');
  await Promise.all([b.waitForURL(/\/g\/[A-Za-z0-9]+/), b.click('.challenge.incoming button[data-action="accept-challenge"]')]);
  const game = new URL(b.url()).pathname.slice(3);

  const states = [];
  const controller = new AbortController();
  const lines = stream(`/api/board/game/stream/${game}`, token, (line) => {
    states.push(line.type === 'gameFull' ? line.state : line);
  }, controller.signal);
  const waitFor = async (pred) => {
    for (let i = 0; i < 200 && !states.some(pred); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(states.some(pred), JSON.stringify(states));
  };
  await waitFor((s) => s.type === 'gameState' && s.status === 'started');
  assert.equal((await call('POST', `/api/board/game/${game}/move/e2e4`)).status, 200);
  await b.waitForSelector('.player[data-side="white"] .name .presence.on');
  await waitForMoves(b, 1);
  await clickMove(b, 'e7e5');
  await waitFor((s) => s.moves === 'e2e4 e7e5');
  // A move the rules refuse is lichess's 400, and changes nothing.
  const illegal = await call('POST', `/api/board/game/${game}/move/e1e3`);
  assert.equal(illegal.status, 400);
  assert.ok(illegal.body.error, JSON.stringify(illegal.body));
  // As a board app does, each move waits for the opponent's to come down the stream.
  let played = 'e2e4 e7e5';
  for (const [mine, theirs] of [['f1c4', 'b8c6'], ['d1h5', 'g8f6']]) {
    assert.equal((await call('POST', `/api/board/game/${game}/move/${mine}`)).status, 200);
    await clickMove(b, theirs);
    played += ` ${mine} ${theirs}`;
    const now = played;
    await waitFor((s) => s.moves === now);
  }
  assert.equal((await call('POST', `/api/board/game/${game}/move/h5f7`)).status, 200);
  assert.match(await resultText(b), /1–0/);
  await waitFor((s) => s.status === 'mate' && s.winner === 'white');
  await lines; // the stream closes at the game's end
  controller.abort();
  await a.context().close();
  await b.context().close();
});

test('a bot account is marked BOT on its pages and in its games', async () => {
  const stamp = Date.now() % 100000;
  const name = `bot_${stamp}`;
  const a = await newPage();
  await signUp(a, name);
  const token = await makeToken(a, 'engine bridge', ['bot:play']);
  const up = await api(token)('POST', '/api/bot/account/upgrade');
  assert.deepEqual(up, { status: 200, body: { ok: true } });
  await a.goto(`${env.base}/@/${name}`);
  await a.waitForSelector('h1 .title-badge:has-text("BOT")');
  await a.waitForSelector('header .title-badge:has-text("BOT")');
  // A bot plays the computer: its game shows it as a bot.
  const ai = await api(token)('POST', '/api/challenge/ai', { level: 1, 'clock.limit': 600, 'clock.increment': 0, color: 'white' });
  assert.equal(ai.status, 201, JSON.stringify(ai.body));
  await a.goto(`${env.base}/g/${ai.body.id}`);
  await a.waitForSelector('.player[data-side="white"] .title-badge:has-text("BOT")');
  await a.context().close();
});
