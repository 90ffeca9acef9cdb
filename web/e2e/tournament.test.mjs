// Tournaments in the browser: a 4-player round robin and an 8-player Swiss played to their
// ends by scripted clients (accounts playing through the Board API), the organiser's page
// opening each board by itself and showing the right standings, in English and Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { env, newPage, useServer, audit } from './harness.mjs';

useServer({ env: { VIZIER_SIGNUPS_PER_ADDRESS_HOUR: '200' } });

/** A scripted player: an account whose requests carry its cookies, as a browser's would. */
async function client(name) {
  const jar = new Map();
  const call = async (method, path, body) => {
    const r = await fetch(env.base + path, {
      method,
      headers: {
        'content-type': 'application/json',
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const text = await r.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: r.status, body: json };
  };
  const made = await call('POST', '/signup', { username: name, password: 'a good password' });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const url = new URL(env.base);
  const cookies = () => [...jar].map(([k, v]) => ({ name: k, value: v, domain: url.hostname, path: '/' }));
  return { name, call, cookies };
}

/** A scripted client with a signed-in page's cookies. */
async function pageClient(page, name) {
  const cookies = await page.context().cookies();
  return {
    name,
    call: async (method, path, body) => {
      const r = await fetch(env.base + path, {
        method,
        headers: { 'content-type': 'application/json', cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, body: await r.json().catch(() => null) };
    },
  };
}

async function signUpPage(page, name) {
  await page.goto(env.base + '/signup');
  await page.fill('input[name="username"]', name);
  await page.fill('input[name="password"]', 'a good password');
  await Promise.all([page.waitForURL(env.base + '/'), page.click('form.auth-form button[type="submit"]')]);
}

/** Waits until the tournament, as `c` sees it, satisfies `pred`. */
async function until(c, id, pred, what) {
  for (let i = 0; i < 600; i++) {
    const { body } = await c.call('GET', `/api/tournament/${id}`);
    if (pred(body)) return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the tournament never got to: ${what}`);
}

/** Plays round `n` through the Board API: the lower pairing number wins, except that
 * `drawn(a, b)` pairs agree a draw. */
async function playRound(clients, id, n, drawn) {
  const t = await until(clients[0], id, (t) => t.rounds.length >= n && t.rounds[n - 1].boards.every((b) => b.game), `round ${n}`);
  const byNumber = (k) => clients.find((c) => c.name === t.players[k - 1].name);
  await Promise.all(t.rounds[n - 1].boards.map(async (b) => {
    const [w, bl] = [byNumber(b.white), byNumber(b.black)];
    const g = `/api/board/game/${b.game}`;
    for (const [mw, mb] of [['e2e4', 'e7e5'], ['g1f3', 'b8c6'], ['f1c4', 'f8c5']]) {
      assert.equal((await w.call('POST', `${g}/move/${mw}`)).status, 200);
      assert.equal((await bl.call('POST', `${g}/move/${mb}`)).status, 200);
    }
    if (drawn(b.white, b.black)) {
      assert.equal((await w.call('POST', `${g}/draw/yes`)).status, 200);
      assert.equal((await bl.call('POST', `${g}/draw/yes`)).status, 200);
    } else {
      const loser = b.white > b.black ? w : bl;
      assert.equal((await loser.call('POST', `${g}/resign`)).status, 200);
    }
  }));
}

test('a 4-player round robin is played to its end, the standings right in both languages', async () => {
  const stamp = Date.now() % 100000;
  const page = await newPage();
  const organiser = `org_${stamp}`;
  await signUpPage(page, organiser);
  // Created on the tournaments page's form.
  await page.click('a.nav-link[href="/tournament"]');
  await page.click('details.new-tournament summary');
  await page.fill('input[name="name"]', `Club RR ${stamp}`);
  await page.selectOption('select[name="format"]', 'roundRobin');
  await page.fill('input[name="startsIn"]', '60');
  await page.fill('input[name="roundBreak"]', '0');
  await Promise.all([page.waitForURL(/\/tournament\/[A-Za-z0-9]+$/), page.click('.new-tournament button[type="submit"]')]);
  const id = page.url().split('/').pop();
  await page.waitForSelector('.countdown');
  assert.match(await page.locator('.countdown').innerText(), /Starts in/);
  await page.click('button[data-action="join"]');
  await page.waitForSelector('button[data-action="withdraw"]');
  const others = await Promise.all([1, 2, 3].map((i) => client(`rr${i}_${stamp}`)));
  for (const c of others) assert.equal((await c.call('POST', `/api/tournament/${id}/join`)).status, 200);
  // The organiser's own moves go through a scripted client with the page's cookies.
  const me = await pageClient(page, organiser);
  const all = [me, ...others];
  await page.click('button[data-action="start"]');
  // The board opens by itself when the round starts.
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/, { timeout: 15000 });
  for (let n = 1; n <= 3; n++) await playRound(all, id, n, (a, b) => Math.min(a, b) === 2 && Math.max(a, b) === 3);
  const done = await until(me, id, (t) => t.status === 'finished', 'the end');
  assert.deepEqual(done.standings.rows.map((r) => r.points), ['3.0', '1.5', '1.5', '0.0']);
  // Players 2 and 3 drew each other and scored alike against the rest: every tie-break
  // leaves them sharing second place.
  assert.deepEqual(done.standings.rows.map((r) => r.rank), [1, 2, 2, 4]);
  await page.goto(env.base + `/tournament/${id}`);
  await page.waitForSelector('table.standings');
  const rows = await page.locator('table.standings tbody tr').allInnerTexts();
  assert.equal(rows.length, 4);
  assert.match(rows[0], /3\.0/);
  assert.match(rows[3], /0\.0/);
  // Each player's performance beside the tie-breaks.
  assert.equal(await page.locator('table.standings td.performance').count(), 4);
  // My row is marked in words.
  assert.match(await page.locator('table.standings tr.me').innerText(), /\(You\)/);
  await page.click('button[data-tab="crosstable"]');
  assert.equal(await page.locator('table.crosstable tbody tr').count(), 4);
  await page.click('button[data-tab="pairings"]');
  assert.equal(await page.locator('table.pairings tbody tr[data-board]').count(), 2);
  // The organiser, as arbiter, makes the last round's first board a double forfeit: a point
  // less in all.
  const sum = (t) => t.standings.rows.reduce((n, r) => n + Number(r.points), 0);
  await page.selectOption('table.pairings tbody tr[data-board="1"] select.correct', '-/-');
  await page.waitForFunction(() => /corrected by the arbiter/.test(document.querySelector('table.pairings tbody tr[data-board="1"] td.result')?.textContent ?? ''));
  const fixed = await until(me, id, (t) => t.rounds.at(-1).boards[0].corrected, 'the correction');
  assert.equal(fixed.rounds.at(-1).boards[0].result, '-/-');
  assert.equal(sum(fixed), sum(done) - 1);
  const violations = await audit(page, 'tournament page');
  assert.deepEqual(violations, []);
  // The downloads.
  const trf = await (await fetch(env.base + `/api/tournament/${id}/trf`)).text();
  assert.match(trf, new RegExp(`012 Club RR ${stamp}`));
  const pgn = await (await fetch(env.base + `/api/tournament/${id}/games`)).text();
  assert.equal(pgn.match(/\[Round "/g).length, 6);
  // The same page in Chinese.
  const zh = await newPage('zh-CN');
  await zh.goto(env.base + '/');
  await zh.evaluate(() => { localStorage.setItem('vizier.prefs', JSON.stringify({ lang: 'zh' })); });
  await zh.goto(env.base + `/tournament/${id}`);
  await zh.waitForSelector('table.standings');
  const heads = await zh.locator('table.standings thead').innerText();
  assert.match(heads, /名次/);
  assert.match(await zh.locator('.tournament-status').innerText(), /已结束/);
});

test('an 8-player Swiss is paired round by round to its standings', async () => {
  const stamp = Date.now() % 100000;
  const players = await Promise.all(Array.from({ length: 8 }, (_, i) => client(`sw${i}_${stamp}`)));
  const made = await players[0].call('POST', '/api/tournament', {
    name: `Swiss ${stamp}`, format: 'swiss', nbRounds: 3, control: '300+3', startsIn: 60, roundBreak: 0,
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  for (const p of players) assert.equal((await p.call('POST', `/api/tournament/${id}/join`)).status, 200);
  assert.equal((await players[0].call('POST', `/api/tournament/${id}/start`)).status, 200);
  const seen = new Set();
  for (let n = 1; n <= 3; n++) {
    await playRound(players, id, n, () => false);
    const t = await until(players[0], id, (t) => t.rounds[n - 1].boards.every((b) => b.result), `round ${n} over`);
    assert.equal(t.rounds[n - 1].boards.length, 4);
    for (const b of t.rounds[n - 1].boards) {
      const pair = [b.white, b.black].sort().join('-');
      assert.ok(!seen.has(pair), `a rematch: ${pair}`);
      seen.add(pair);
    }
  }
  const done = await until(players[0], id, (t) => t.status === 'finished', 'the end');
  // With the lower number winning every game, pairing number 1 wins 3/3 and 8 loses all.
  const rows = done.standings.rows;
  assert.equal(rows[0].number, 1);
  assert.equal(rows[0].points, '3.0');
  assert.equal(rows.at(-1).points, '0.0');
  const total = rows.reduce((s, r) => s + Number(r.points), 0);
  assert.equal(total, 12);
  assert.deepEqual(done.standings.tiebreaks.slice(0, 2), ['BH/C1', 'BH']);
  // The page shows it to a visitor.
  const page = await newPage();
  await page.goto(env.base + `/tournament/${id}`);
  await page.waitForSelector('table.standings');
  assert.equal(await page.locator('table.standings tbody tr').count(), 8);
  assert.match(await page.locator('table.standings tbody tr').first().innerText(), new RegExp(`sw0_${stamp}`));
});

test('the organiser enters titles for norms; a player sits a Swiss round out', async () => {
  const stamp = Date.now() % 100000;
  const page = await newPage();
  const organiser = `nrm_${stamp}`;
  await signUpPage(page, organiser);
  const me = await pageClient(page, organiser);
  const made = await me.call('POST', '/api/tournament', {
    name: `Norms ${stamp}`, format: 'swiss', nbRounds: 3, control: '300+3', startsIn: 60, roundBreak: 0,
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  const players = await Promise.all(Array.from({ length: 4 }, (_, i) => client(`nr${i}_${stamp}`)));
  for (const p of players) assert.equal((await p.call('POST', `/api/tournament/${id}/join`)).status, 200);
  // The last player asks to sit out round 1 from their page.
  const sitter = await newPage();
  await sitter.context().addCookies(players[3].cookies());
  await sitter.goto(env.base + `/tournament/${id}`);
  await sitter.click('button[data-action="zero-bye"]');
  await sitter.waitForSelector('p.bye-next');
  assert.match(await sitter.locator('p.bye-next').innerText(), /without a point/);
  assert.equal(await sitter.locator('button[data-action="bye"]').count(), 0);
  // The organiser gives player 1 a title and a federation on the players tab.
  await page.goto(env.base + `/tournament/${id}`);
  await page.click('button[data-tab="players"]');
  await page.click('details.player-details summary');
  await page.selectOption('details.player-details select[name="player"]', '1');
  await page.selectOption('details.player-details select[name="title"]', 'IM');
  await page.fill('details.player-details input[name="federation"]', 'ger');
  await page.click('details.player-details button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('details.player-details .note')?.textContent === 'Saved.');
  await page.waitForFunction(() => /IM nr0_/.test(document.querySelector('ol.tournament-players')?.textContent ?? ''));
  assert.match(await page.locator('ol.tournament-players li').first().innerText(), /GER/);
  assert.equal((await me.call('POST', `/api/tournament/${id}/start`)).status, 200);
  await playRound(players, id, 1, () => false);
  const t = await until(me, id, (t) => t.rounds[0].boards.every((b) => b.result), 'round 1 over');
  const sat = t.rounds[0].byes.find((y) => y.player === 4);
  assert.equal(sat?.kind, 'absent');
  assert.equal(t.players[3].points, 0);
  // The standings carry the norm column: an IM may still make a GM norm, not from one game.
  assert.equal(t.norms[0].checks[0].title, 'GM');
  await page.click('button[data-tab="standings"]');
  await page.waitForSelector('table.standings th[title]');
  assert.match(await page.locator('table.standings thead').innerText(), /Norm/);
  const row = page.locator('table.standings tbody tr', { hasText: 'nr0_' });
  assert.match(await row.innerText(), /IM nr0_/);
  assert.match(await row.locator('td.norm').getAttribute('title'), /GM norm: .*9 needed/);
  const trf = await (await fetch(env.base + `/api/tournament/${id}/trf`)).text();
  assert.match(trf, /001 {4}1  m {3}nr0_/);
});

test('an arena pairs players back from their games while others still play', async () => {
  const stamp = Date.now() % 100000;
  const players = await Promise.all(Array.from({ length: 6 }, (_, i) => client(`ar${i}_${stamp}`)));
  const made = await players[0].call('POST', '/api/tournament', {
    name: `Arena ${stamp}`, format: 'arena', minutes: 30, control: '180+0', startsIn: 60,
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  for (const p of players) assert.equal((await p.call('POST', `/api/tournament/${id}/join`)).status, 200);
  // Each player's page polls the tournament: that is how the arena knows they wait.
  const look = () => Promise.all(players.map((p) => p.call('GET', `/api/tournament/${id}`)));
  await look();
  assert.equal((await players[0].call('POST', `/api/tournament/${id}/start`)).status, 200);
  const waitFor = async (pred, what) => {
    for (let i = 0; i < 200; i++) {
      const [{ body }] = await look();
      if (pred(body)) return body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the arena never got to: ${what}`);
  };
  const first = await waitFor((t) => t.arenaGames.length === 3, 'three games');
  const byNumber = (t, n) => players.find((c) => c.name === t.players[n - 1].name);
  const finish = async (t, g) => {
    const [w, b] = [byNumber(t, g.white), byNumber(t, g.black)];
    assert.equal((await w.call('POST', `/api/board/game/${g.game}/move/e2e4`)).status, 200);
    assert.equal((await b.call('POST', `/api/board/game/${g.game}/resign`)).status, 200);
  };
  // The games come latest first: end the first two made, keep the third going.
  const [g3, g2, g1] = first.arenaGames;
  await finish(first, g1);
  await finish(first, g2);
  const later = await waitFor((t) => t.arenaGames.length === 5, 'two more games');
  const still = later.arenaGames.find((g) => g.game === g3.game);
  assert.equal(still.result, null, 'the third game is still being played');
  // On the third game's page, White may berserk: the clock halves and the box says so.
  const white = byNumber(first, g3.white);
  const board = await newPage();
  await board.context().addCookies(white.cookies());
  await board.goto(env.base + `/g/${g3.game}`);
  await board.click('button[data-action="berserk"]');
  await board.waitForSelector('.player[data-side="white"] .berserked');
  assert.equal(await board.locator('button[data-action="berserk"]').count(), 0);
  assert.match(await board.locator('.player[data-side="white"]').innerText(), /1:30|01:30/);
  const rows = later.standings.rows;
  assert.deepEqual(rows.slice(0, 2).map((r) => r.points), ['2', '2']);
  // A visitor sees the sheet and the games.
  const page = await newPage();
  await page.goto(env.base + `/tournament/${id}`);
  await page.waitForSelector('table.standings td.sheet');
  assert.match(await page.locator('.countdown').innerText(), /Ends in/);
  await page.click('button[data-tab="pairings"]');
  assert.equal(await page.locator('table.arena-games tbody tr').count(), 5);
  assert.equal(await page.locator('table.arena-games td.result', { hasText: 'playing' }).count(), 3);
  assert.deepEqual(await audit(page, 'arena page'), []);
});

test('a simul with 3 boards: the host sees every board, those waiting first, and the summary', async () => {
  const stamp = Date.now() % 100000;
  const page = await newPage();
  const hostName = `host_${stamp}`;
  await signUpPage(page, hostName);
  await page.goto(env.base + '/tournament');
  await page.click('details.new-tournament summary');
  await page.fill('input[name="name"]', `Simul ${stamp}`);
  await page.selectOption('select[name="format"]', 'simul');
  await page.selectOption('select[name="control"]', '-');
  await page.selectOption('select[name="hostColour"]', 'white');
  await page.fill('input[name="startsIn"]', '60');
  await Promise.all([page.waitForURL(/\/tournament\/[A-Za-z0-9]+$/), page.click('.new-tournament button[type="submit"]')]);
  const id = page.url().split('/').pop();
  const others = await Promise.all([1, 2, 3].map((i) => client(`sim${i}_${stamp}`)));
  for (const c of others) assert.equal((await c.call('POST', `/api/tournament/${id}/join`)).status, 200);
  const cookies = await page.context().cookies();
  const host = async (method, path) => {
    const r = await fetch(env.base + path, { method, headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') } });
    return { status: r.status, body: await r.json().catch(() => null) };
  };
  await page.click('button[data-action="start"]');
  // Three boards, all waiting for the host (White everywhere).
  await page.waitForSelector('ul.simul-boards li.simul-board.waiting:nth-child(3)');
  assert.equal(await page.locator('li.simul-board').count(), 3);
  assert.equal(await page.locator('li.simul-board .board-state', { hasText: 'Your move' }).count(), 3);
  assert.equal(await page.locator('button.next-board').count(), 1);
  const t = (await host('GET', `/api/tournament/${id}`)).body;
  const byNumber = (n) => others.find((c) => c.name === t.players[n - 1].name);
  const boards = t.rounds[0].boards;
  // The host moves on board 1's small board itself (White's side up: e2, then e4): it waits
  // for its opponent, and goes after the others.
  const mini = await page.locator('li.simul-board[data-board="1"] cg-board').boundingBox();
  const square = (sq) => {
    const size = mini.width / 8;
    return [mini.x + (sq.charCodeAt(0) - 97 + 0.5) * size, mini.y + (8 - Number(sq[1]) + 0.5) * size];
  };
  await page.mouse.click(...square('e2'));
  await page.mouse.click(...square('e4'));
  await page.waitForFunction(() => document.querySelectorAll('li.simul-board.waiting').length === 2, null, { timeout: 10000 });
  assert.match(await page.locator('li.simul-board').last().innerText(), /Opponent to move/);
  const played = (await host('GET', `/api/tournament/${id}`)).body.boards.find((b) => b.board === 1);
  assert.equal(played.lastMove, 'e2e4');
  // Results: a draw on board 1, the host wins the other two.
  const black = (b) => byNumber(b.black);
  assert.equal((await black(boards[0]).call('POST', `/api/board/game/${boards[0].game}/move/e7e5`)).status, 200);
  const offered = await host('POST', `/api/board/game/${boards[0].game}/draw/yes`);
  assert.equal(offered.status, 200, JSON.stringify(offered.body));
  assert.equal((await black(boards[0]).call('POST', `/api/board/game/${boards[0].game}/draw/yes`)).status, 200);
  for (const b of boards.slice(1)) {
    assert.equal((await host('POST', `/api/board/game/${b.game}/move/d2d4`)).status, 200);
    assert.equal((await black(b).call('POST', `/api/board/game/${b.game}/move/d7d5`)).status, 200);
    assert.equal((await black(b).call('POST', `/api/board/game/${b.game}/resign`)).status, 200);
  }
  await page.waitForSelector('.tournament-status:has-text("Finished")', { timeout: 10000 });
  assert.match(await page.locator('.simul-score').innerText(), /2 won, 1 drawn, 0 lost, 0 playing/);
  await page.click('button[data-tab="standings"]');
  const rows = await page.locator('table.standings tbody tr').allInnerTexts();
  assert.match(rows[0], new RegExp(`${hostName}[\\s\\S]*2\\.5`));
  assert.deepEqual(await audit(page, 'simul page'), []);
});
