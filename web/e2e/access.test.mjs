// Browser tests of play for everyone: the keyboard board and its commands, spoken moves in
// three languages, blindfold play, and the preferences that shape the board. Each test drives
// Debian's Chromium against a real `vizier serve` (harness.mjs); speech is captured by
// replacing `speechSynthesis.speak`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, env, newPage, startFromHome, typeMove, useServer, waitForMoves } from './harness.mjs';

useServer();

/** A page whose speech is written down in `window.spoken` instead of said. */
async function listeningPage(locale = 'en-US', viewport) {
  const page = await newPage(locale);
  if (viewport) await page.setViewportSize(viewport);
  await page.addInitScript(() => {
    window.spoken = [];
    speechSynthesis.speak = (u) => window.spoken.push({ text: u.text, lang: u.lang });
  });
  return page;
}

/** Sets preferences in the dialog: `{ name: value }`, checkboxes by boolean. */
async function setPrefs(page, values) {
  await page.click('[data-action="preferences"]');
  for (const [name, value] of Object.entries(values)) {
    const field = page.locator(`dialog.prefs [name="${name}"]`);
    if (typeof value === 'boolean') await field.setChecked(value);
    else await field.selectOption(value);
  }
  await page.click('dialog.prefs .dialog-actions button');
}

/** On the keyboard board: focuses `from`, picks its piece up, walks `path` (arrow key names
 * without "Arrow") and puts the piece down. */
async function keyboardMove(page, from, path) {
  await page.locator(`.kb-square[data-square="${from}"]`).focus();
  await page.keyboard.press('Enter');
  for (const step of path) await page.keyboard.press(`Arrow${step}`);
  await page.keyboard.press('Enter');
}

/** The name of the focused element, as a screen reader would read it. */
const focusedLabel = (page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');

/** Presses Tab (or Shift+Tab) until the focus is on an element matching `selector`. */
async function tabTo(page, selector, { back = false, limit = 60 } = {}) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

test('a whole game against the computer by keyboard alone: squares named, moves made, the board read, resignation', async () => {
  const page = await listeningPage();
  await page.goto(env.base + '/');
  // Start from the home page's dialog with the keyboard.
  await tabTo(page, 'button.choice[data-kind="computer"]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('dialog[open]');
  await tabTo(page, 'dialog .chip[data-value="white"]');
  await page.keyboard.press('Space');
  await tabTo(page, 'dialog button[type="submit"]');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+/);
  await page.waitForSelector('.kb-board .kb-square');

  // Every square is named; one of them is in the tab order.
  assert.equal(await page.locator('.kb-square').count(), 64);
  assert.equal(await page.locator('.kb-square[data-square="g1"]').getAttribute('aria-label'), 'g1, white knight');
  assert.equal(await page.locator('.kb-square[data-square="e4"]').getAttribute('aria-label'), 'e4');
  assert.equal(await page.locator('.kb-square[tabindex="0"]').count(), 1);
  await tabTo(page, '.kb-square');
  assert.equal(await focusedLabel(page), 'e2, white pawn');

  // e2-e4: pick up, two squares up, put down.
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /white pawn on e2 picked up; it can go to (e3 e4|e4 e3)$/.test(document.querySelector('[role=status].sr-only')?.textContent ?? ''));
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focusedLabel(page), 'e4');
  await page.keyboard.press('Enter');
  await waitForMoves(page, 2);
  assert.equal(await page.locator('button.move').first().innerText(), 'e4');
  assert.equal(await focusedLabel(page), 'e4, white pawn', 'the focus stays on the board');

  // g1-f3 by arrows; a square it cannot go to is refused in words.
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight']) await page.keyboard.press(key);
  assert.equal(await focusedLabel(page), 'g1, white knight');
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /cannot go to g3/.test(document.querySelector('p.readout')?.textContent ?? ''));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await waitForMoves(page, 4);

  // Letters on the board read the game: l the last move, c the clocks.
  await page.keyboard.press('c');
  await page.waitForFunction(() => /^White \d+:\d\d; Black \d+:\d\d$/.test(document.querySelector('p.readout')?.textContent ?? ''));
  await page.keyboard.press('l');
  await page.waitForFunction(() => /^Black played /.test(document.querySelector('p.readout')?.textContent ?? ''));

  // Commands in the move box; the focus stays there for the next one, and for moves.
  await tabTo(page, 'input.move-input');
  await page.keyboard.type('p N');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('p.readout')?.textContent === 'white knight: b1; f3');
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'move-input');
  await page.keyboard.type('r 1');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^Rank 1: a1, white rook; b1, white knight; c1, white bishop; d1, white queen; e1, white king; f1, white bishop; 1 empty; h1, white rook$/
    .test(document.querySelector('p.readout')?.textContent ?? ''));
  await page.keyboard.type('Bc4');
  await page.keyboard.press('Enter');
  await waitForMoves(page, 6);
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'move-input', 'typing moves keeps the focus');

  // The game ends by keyboard too: Resign, then the confirmation that takes the focus.
  await tabTo(page, '[data-action="resign"]', { back: true });
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-action="confirm-resign"]');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.action), 'confirm-resign');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.banner.result');
  assert.match(await page.locator('.banner.result').innerText(), /Black wins/);
  await page.context().close();
});

// The moves of one game with a capture, a check, both sides castling and a promotion.
const LINE = ['e4', 'd5', 'exd5', 'Nf6', 'Bb5+', 'c6', 'dxc6', 'e6', 'Nf3', 'Be7', 'O-O', 'O-O', 'cxb7', 'Nd5', 'bxa8=Q'];
const SPOKEN = {
  en: { capture: 'pawn E takes D 5', check: 'bishop B 5, check', castle: 'castles kingside', promotion: 'pawn B takes A 8 promotes to queen' },
  zh: { capture: '兵 e 吃 d5', check: '象 b5，将军', castle: '短易位', promotion: '兵 b 吃 a8 升变为后' },
  de: { capture: 'Bauer Eva schlägt David fünf', check: 'Läufer Bella fünf, Schach', castle: 'kurze Rochade', promotion: 'Bauer Bella schlägt Anna acht wird Dame' },
};
const LOCALES = { en: 'en-US', zh: 'zh-CN', de: 'de-DE' };

test('spoken moves: a capture, a check, castling and a promotion in English, 中文 and German', async () => {
  for (const voice of ['en', 'zh', 'de']) {
    const page = await listeningPage();
    await page.goto(env.base + '/');
    await setPrefs(page, { voice });
    await startFromHome(page, 'local', { tc: '-' });
    for (const mv of LINE) await typeMove(page, mv);
    const spoken = await page.evaluate(() => window.spoken);
    const texts = spoken.map((s) => s.text);
    const want = SPOKEN[voice];
    for (const [kind, words] of Object.entries(want)) assert.ok(texts.includes(words), `${voice} ${kind}: ${words} not in ${texts.join(' | ')}`);
    assert.ok(spoken.every((s) => s.lang === LOCALES[voice]), `${voice}: ${JSON.stringify(spoken.map((s) => s.lang))}`);
    // Repeated on request.
    await page.fill('input.move-input', 'l');
    await page.press('input.move-input', 'Enter');
    await page.waitForFunction((w) => window.spoken.filter((s) => s.text === w).length === 2, want.promotion);
    await page.context().close();
  }
});

test('blindfold: the pieces hidden, moves typed and spoken, a peek marked on the scoresheet; then the board hidden', async () => {
  const page = await listeningPage();
  await page.goto(env.base + '/');
  await setPrefs(page, { blindfold: 'pieces', voice: 'en' });
  await startFromHome(page, 'local', { tc: '-' });
  const pieceShown = () => page.evaluate(() => getComputedStyle(document.querySelector('cg-board piece')).visibility === 'visible');
  assert.equal(await pieceShown(), false, 'pieces hidden');
  assert.equal(await page.locator('.kb-square[data-square="g1"]').getAttribute('aria-label'), 'g1', 'squares are not read');
  await typeMove(page, 'e4');
  await typeMove(page, 'e5');
  // The board is not read out while blindfolded.
  await page.fill('input.move-input', 'p N');
  await page.press('input.move-input', 'Enter');
  await page.waitForFunction(() => /^Blindfold: the board is not read out/.test(document.querySelector('p.readout')?.textContent ?? ''));
  // A peek: three seconds of pieces, noted on the scoresheet after the move it followed.
  await page.click('[data-action="peek"]');
  await page.waitForFunction(() => getComputedStyle(document.querySelector('cg-board piece')).visibility === 'visible');
  assert.equal(await page.locator('.kb-square[data-square="g1"]').getAttribute('aria-label'), 'g1, white knight');
  await page.waitForFunction(() => getComputedStyle(document.querySelector('cg-board piece')).visibility === 'hidden', null, { timeout: 5000 });
  await typeMove(page, 'Nf3');
  assert.equal(await page.locator('button.move.peeked').count(), 1);
  assert.match(await page.locator('button.move.peeked').innerText(), /^e5 \(peek\)$/);
  assert.match(await page.locator('.peeks').innerText(), /Peeked 1×/);
  // The server keeps it: after a reload, and in the PGN.
  await page.reload();
  await page.waitForSelector('button.move.peeked');
  const id = page.url().split('/g/')[1];
  const pgn = await (await page.request.get(`${env.base}/api/games/${id}/pgn`)).text();
  // On one device the side to move is the one who looked.
  assert.match(pgn, /1\. e4 e5 \{White peeked at the board\} 2\. Nf3/);
  // Both sides' moves are spoken on one device.
  const texts = await page.evaluate(() => window.spoken.map((s) => s.text));
  assert.equal(texts.length, 0, 'a reload says nothing again');
  // The whole board hidden: the board's squares stay usable by keyboard.
  await page.selectOption('select.blindfold', 'board');
  await page.waitForFunction(() => getComputedStyle(document.querySelector('.board')).visibility === 'hidden');
  await typeMove(page, 'Nc6');
  const spoken = await page.evaluate(() => window.spoken.map((s) => s.text));
  assert.deepEqual(spoken, ['knight C 6']);
  await page.screenshot({ path: join(SHOTS, 'blindfold-board-hidden.png') });
  // Over, the board shows again.
  await page.click('[data-action="resign"]');
  await page.click('[data-action="confirm-resign"]');
  await page.waitForSelector('.banner.result');
  assert.equal(await pieceShown(), true);
  await page.waitForFunction(() => window.spoken.some((s) => s.text === 'Black wins'));
  await page.context().close();
});

test('preferences stick: themes, figurines, large coordinates, move confirmation, auto-queen, human pace', async () => {
  const page = await listeningPage();
  await page.goto(env.base + '/');
  await setPrefs(page, { boardTheme: 'contrast', pieceSet: 'figurine', bigCoords: true, confirmMove: true, autoQueen: true, humanPace: true });
  await page.reload();
  // The computer's pace travels with the new game.
  const created = page.waitForRequest((r) => r.url().endsWith('/api/games') && r.method() === 'POST');
  await startFromHome(page, 'computer', { colour: 'white', tc: '300+3' });
  assert.equal(JSON.parse((await created).postData()).humanPace, true);
  const wrap = page.locator('.board-wrap');
  assert.equal(await wrap.getAttribute('data-theme'), 'contrast');
  assert.equal(await wrap.getAttribute('data-pieces'), 'figurine');
  assert.match(await wrap.getAttribute('class'), /big-coords/);
  const glyph = await page.evaluate(() => getComputedStyle(document.querySelector('cg-board piece.white.king'), '::before').content);
  assert.match(glyph, /♚/);
  await page.screenshot({ path: join(SHOTS, 'prefs-contrast-figurine.png') });
  // A move on the board waits for Confirm; Cancel forgets it.
  await keyboardMove(page, 'e2', ['Up', 'Up']);
  // The keyboard goes to Confirm.
  await page.waitForFunction(() => document.activeElement?.dataset.action === 'confirm-move');
  assert.match(await page.locator('.confirm').innerText(), /Play e2e4\?/);
  await page.click('[data-action="cancel-move"]');
  assert.equal(await page.locator('button.move').count(), 0, 'nothing was sent');
  await keyboardMove(page, 'd2', ['Up', 'Up']);
  await page.waitForFunction(() => document.activeElement?.dataset.action === 'confirm-move');
  await page.keyboard.press('Enter');
  await waitForMoves(page, 1);
  assert.equal(await page.locator('button.move').first().innerText(), 'd4');
  assert.equal(await focusedLabel(page), 'd4, white pawn', 'and back to the board');
  await page.context().close();
});

test('auto-queen: a pawn reaching the last rank on the board becomes a queen without the chooser', async () => {
  const page = await listeningPage();
  await page.goto(env.base + '/');
  await setPrefs(page, { autoQueen: true });
  await startFromHome(page, 'local', { tc: '-' });
  for (const mv of LINE.slice(0, -1)) await typeMove(page, mv);
  // b7xa8 on the keyboard board.
  await keyboardMove(page, 'b7', ['Up', 'Left']);
  await waitForMoves(page, LINE.length);
  assert.equal(await page.locator('.promotion').isHidden(), true);
  assert.equal(await page.locator('button.move').last().innerText(), 'bxa8=Q');
  await page.context().close();
});

test('the home page lists the visitor\'s recent games; screenshots at 390 and 1280 px in English and 中文', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const page = await newPage(locale);
    await startFromHome(page, 'local', { tc: '-' });
    for (const mv of ['f3', 'e5', 'g4', 'Qh4#']) await typeMove(page, mv);
    await page.waitForSelector('.banner.result');
    const id = page.url().split('/g/')[1];
    await page.goto(env.base + '/');
    await page.waitForSelector(`.recent li.archive-game[data-id="${id}"]`);
    assert.match(await page.locator('.recent h2').innerText(), locale === 'en-US' ? /Recent games/ : /最近/);
    // One's own sides are "You", not "Anonymous".
    assert.match(await page.locator('.recent .archive-players').first().innerText(), locale === 'en-US' ? /^You – You$/ : /^你 – 你$/);
    // The opening, with its Chinese name in 中文.
    assert.match(await page.locator('.recent .archive-opening').first().innerText(),
      locale === 'en-US' ? /^A00 · Barnes Opening: Fool's Mate$/ : /^A00 · 巴恩斯开局 · Barnes Opening: Fool's Mate$/);
    const lang = locale.slice(0, 2);
    await page.screenshot({ path: join(SHOTS, `home-1280-${lang}.png`), fullPage: true });
    await page.click(`.recent li.archive-game[data-id="${id}"] a.archive-open`);
    await page.waitForSelector('.banner.result');
    await page.screenshot({ path: join(SHOTS, `game-over-1280-${lang}.png`) });
    // A phone's page, in the same browser (the same visitor).
    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(page.url());
    await phone.waitForSelector('.banner.result');
    await phone.screenshot({ path: join(SHOTS, `game-over-390-${lang}.png`), fullPage: true });
    await phone.goto(env.base + '/');
    await phone.waitForSelector('.recent li.archive-game');
    await phone.screenshot({ path: join(SHOTS, `home-390-${lang}.png`), fullPage: true });
    await page.context().close();
  }
});

test('a finished game\'s review: progress, the graph and its marks, a click on the graph, the annotated PGN', async () => {
  const page = await newPage();
  await startFromHome(page, 'local', { tc: '-' });
  for (const mv of ['f3', 'e5', 'g4', 'Qh4#']) await typeMove(page, mv);
  await page.waitForSelector('[data-action="request-review"]');
  await page.click('[data-action="request-review"]');
  await page.waitForSelector('svg.eval-graph', { timeout: 60_000 });
  // 2. g4 let Black mate at once: a blunder, marked in the list and on the graph.
  const g4 = page.locator('button.move').nth(2);
  assert.equal(await g4.innerText(), 'g4??');
  assert.match(await g4.getAttribute('class'), /judged blunder/);
  assert.ok(await page.locator('svg.eval-graph circle.mark.blunder').count() >= 1);
  assert.match(await page.locator('.review-summary li[data-side="white"]').innerText(), /White · [\d.]+% accuracy · inaccuracies \d+, mistakes \d+, blunders 1/);
  // A click on the graph's left edge looks at the start; at 3/4 of the width, at 2. g4.
  const box = await page.locator('svg.eval-graph').boundingBox();
  await page.mouse.click(box.x + 2, box.y + box.height / 2);
  await page.waitForSelector('.banner.looking');
  assert.match(await page.locator('.banner.looking').innerText(), /start/i);
  // The banner moved the graph down: measure it again.
  const moved = await page.locator('svg.eval-graph').boundingBox();
  await page.mouse.click(moved.x + moved.width * 0.75, moved.y + moved.height / 2);
  await page.waitForFunction(() => /2\. g4/.test(document.querySelector('.banner.looking')?.textContent ?? ''));
  assert.match(await page.locator('.review-verdict').innerText(), /Blunder: (Nc3|Nf3|\S+) was best/);
  // The board shows that position, with the engine's move there as an arrow.
  await page.waitForFunction(() => !!document.querySelector('cg-board piece.white.pawn[style*="translate"]') &&
    [...document.querySelectorAll('.cg-shapes g, .cg-shapes line, .cg-shapes path')].length > 0);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SHOTS, 'review-en.png') });
  // The annotated PGN carries the evaluations and glyphs.
  const href = await page.locator('[data-action="download-annotated"]').getAttribute('href');
  const pgn = await (await page.request.get(env.base + href)).text();
  assert.match(pgn, /\$4 \{\[%eval #-1\] Blunder/);
  await page.context().close();
});

test('the analysis board: a pasted PGN with a variation, stepped through, engine lines, a move of ours, threat', async () => {
  const page = await newPage();
  await page.goto(env.base + '/analysis');
  await page.waitForSelector('.analysis .board cg-board');
  // The engine speaks on the start position.
  await page.waitForSelector('.engine-line');
  await page.click('details.loader summary');
  await page.fill('textarea[name="load"]', '[Event "Test"]\n\n1. e4 {king pawn} (1. d4 d5) 1... e5 2. Nf3 $1 Nc6 *');
  await page.click('[data-action="load"]');
  await page.waitForFunction(() => document.querySelectorAll('.tree-move').length === 6);
  assert.match(await page.locator('.tree').innerText(), /1\. e4\s+king pawn\s+\(1\. d4\s+d5\)\s+1… e5\s+2\. Nf3!\s+Nc6/);
  // Step through with the keyboard: the move list follows, the engine lines too.
  await page.locator('.board-wrap').click({ position: { x: 1, y: 1 } }).catch(() => undefined);
  await page.keyboard.press('Escape');
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('.tree-move.current')?.textContent === '1… e5');
  await page.waitForFunction(() => document.querySelectorAll('.engine-line').length === 3);
  const first = await page.locator('.engine-line').first().innerText();
  assert.match(first, /^[+−]?\d+\.\d\d |^#/);
  assert.match(await page.locator('input.fen').inputValue(), /^rnbqkbnr\/pppp1ppp\/8\/4p3\/4P3\/8\/PPPP1PPP\/RNBQKBNR w KQkq - 0 2$/);
  // The variation: a click on 1. d4 shows its position.
  await page.click('.tree-move[data-path="1"]');
  await page.waitForFunction(() => /3P4/.test(document.querySelector('input.fen')?.value ?? ''));
  // The moves stay put while the engine's lines come in (rows are kept for them).
  const treeTop = () => page.evaluate(() => document.querySelector('.tree').getBoundingClientRect().top);
  const waiting = await treeTop();
  await page.waitForFunction(() => document.querySelectorAll('.engine-line').length === 3);
  assert.equal(await treeTop(), waiting);
  // A move of ours from the position after 1... e5 makes a new variation beside 2. Nf3.
  await page.click('.tree-move[data-path="0.0"]');
  await page.fill('form.move-form input', 'Bc4');
  await page.press('form.move-form input', 'Enter');
  await page.waitForFunction(() => document.querySelector('.tree-move.current')?.textContent === '2. Bc4');
  assert.equal(await page.locator('.tree-move.current').getAttribute('data-path'), '0.0.1');
  // One line, then the threat (what Black would play if White passed).
  await page.selectOption('select[name="lines"]', '1');
  await page.waitForFunction(() => document.querySelectorAll('.engine-line').length === 1);
  await page.check('input[name="threat"]');
  await page.waitForSelector('.engine-line');
  assert.ok(await page.locator('.cg-shapes').count() >= 1);
  await page.screenshot({ path: join(SHOTS, 'analysis-en.png') });
  // Make the new move the main line, then delete it.
  await page.click('[data-action="promote"]');
  assert.equal(await page.locator('.tree-move.current').getAttribute('data-path'), '0.0.0');
  await page.click('[data-action="delete"]');
  await page.waitForFunction(() => document.querySelectorAll('.tree-move').length === 6);
  await page.context().close();
});

test('a finished game opens on the analysis board with its moves', async () => {
  const page = await newPage();
  await startFromHome(page, 'local', { tc: '-' });
  for (const mv of ['f3', 'e5', 'g4', 'Qh4#']) await typeMove(page, mv);
  // The game is named by its opening, as the moves go.
  await page.waitForFunction(() => /A00 Barnes Opening: Fool's Mate/.test(document.querySelector('.control .opening')?.textContent ?? ''));
  await page.click('[data-action="analyse"]');
  await page.waitForURL(/\/analysis\?game=/);
  await page.waitForFunction(() => document.querySelectorAll('.tree-move').length === 4);
  assert.match(await page.locator('.tree').innerText(), /1\. f3\s+e5\s+2\. g4\s+Qh4#/);
  await page.context().close();
});
