// What the browser tests share: a real `vizier serve` and Debian's Chromium driven by
// playwright-core, started once per test file by `useServer()`, and the steps tests take on a
// page. VIZIER_BIN names the binary; screenshots go to ../target/e2e-screenshots/.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const BIN = process.env.VIZIER_BIN ?? resolve('../target/debug/vizier');
export const SHOTS = resolve('../target/e2e-screenshots');
mkdirSync(SHOTS, { recursive: true });

let server;
/** The server's address and the browser, once `useServer()`'s hook has run. */
export const env = { base: '', browser: null };

/** Starts the server and the browser before the file's tests, and stops them after; `env`
 * adds to the server's environment (its settings, as `vizier serve --help` names them). */
export function useServer({ env: extra = {} } = {}) {
  before(() => start(extra));
  after(async () => {
    await env.browser?.close();
    server?.kill('SIGKILL');
  });
}

async function start(extra) {
  const data = mkdtempSync(join(tmpdir(), 'vizier-e2e-'));
  server = spawn(BIN, ['serve', '--port', '0', '--instant-computer', '--data-dir', data], {
    // Every page of these tests comes from 127.0.0.1: one address, many players.
    env: { ...process.env, NO_COLOR: '1', VIZIER_COMPUTER_GAMES_PER_ADDRESS: '1000', ...extra },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  env.base = await new Promise((ok, fail) => {
    let seen = '';
    server.stdout.on('data', (chunk) => {
      seen += chunk;
      const m = seen.match(/open (http:\/\/[\d.:]+)\//);
      if (m) ok(m[1]);
    });
    server.on('exit', (code) => fail(new Error(`vizier serve exited with ${code}`)));
  });
  env.browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}

export async function newPage(locale = 'en-US') {
  const context = await env.browser.newContext({ locale, viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  // Every Content-Security-Policy violation is kept for the tests to look at.
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return page;
}

/** Starts a game from the home page's dialog. */
export async function startFromHome(page, choice, { colour, tc, custom, chips = [], checks = [] } = {}) {
  await page.goto(env.base + '/');
  await page.click(`button.choice[data-kind="${choice}"]`);
  for (const name of checks) await page.check(`dialog input[name="${name}"]`);
  if (colour) await page.click(`dialog .chip[data-value="${colour}"]`);
  for (const chip of chips) await page.click(`dialog .chip[data-value="${chip}"]`);
  if (tc) await page.click(`dialog .chip[data-value="${tc}"]`);
  if (custom) {
    await page.click('dialog .chip[data-value="custom"]');
    const inputs = page.locator('dialog .custom input');
    await inputs.nth(0).fill(String(custom.minutes));
    await inputs.nth(1).fill(String(custom.increment ?? 0));
  }
  await page.click('dialog button[type="submit"]');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+/);
  await page.waitForSelector('.board cg-board');
}

/** Clicks a move on the board and waits for it in the move list. */
export async function clickMove(page, uci) {
  const before = await page.locator('button.move').count();
  await clickSquares(page, uci);
  await page.waitForFunction((n) => document.querySelectorAll('button.move').length > n, before);
}

/** Clicks from-square, then to-square (a move that may not reach the move list: an illegal
 * one over the board, a sealed one). */
export async function clickSquares(page, uci) {
  const box = await page.locator('.board cg-board').boundingBox();
  const flipped = await page.locator('.board .cg-wrap, .board').first().evaluate(
    (el) => el.classList.contains('orientation-black'));
  const size = box.width / 8;
  const at = (sq) => {
    const file = sq.charCodeAt(0) - 97;
    const rank = Number(sq[1]) - 1;
    const col = flipped ? 7 - file : file;
    const row = flipped ? rank : 7 - rank;
    return [box.x + (col + 0.5) * size, box.y + (row + 0.5) * size];
  };
  await page.mouse.click(...at(uci.slice(0, 2)));
  await page.mouse.click(...at(uci.slice(2, 4)));
}

/** Types a move into the move box. */
export async function typeMove(page, text) {
  const before = await page.locator('button.move').count();
  await page.fill('input.move-input', text);
  await page.press('input.move-input', 'Enter');
  await page.waitForFunction((n) => document.querySelectorAll('button.move').length > n, before);
}

export async function waitForMoves(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('button.move').length >= k, n);
}

/** The result banner as read: the score, then who won, why and the article. */
export async function resultText(page) {
  await page.waitForSelector('.banner.result', { timeout: 15_000 });
  const score = await page.locator('.banner.result .score').innerText();
  return `${score} · ${await page.locator('.banner.result .reason').innerText()}`;
}

export async function friendGame(options = { tc: '600+5' }) {
  const a = await newPage();
  await startFromHome(a, 'friend', { colour: 'white', ...options });
  const invite = await a.locator('input.invite-link').inputValue();
  assert.match(invite, /\?invite=/);
  const b = await newPage();
  await b.goto(invite);
  await b.waitForSelector('.board cg-board');
  await a.waitForSelector('.player[data-side="black"] .presence.on');
  return [a, b];
}

/** The axe-core audit of what `page` shows now: one line per violation. */
export async function audit(page, label) {
  const axe = readFileSync(resolve('node_modules/axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axe);
  const found = await page.evaluate(async () => (await window.axe.run(document)).violations
    .map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`));
  return found.map((v) => `${label}: ${v}`);
}
