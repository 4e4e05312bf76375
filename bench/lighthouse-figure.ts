/**
 * Row 2: Lighthouse 12 on /, /login, /signup, /contact and /tutors. Mobile (the default config,
 * simulated throttling): three runs each, interleaved, medians reported. Desktop: one run each,
 * in the first round, since its budget is 100 and a single run must reach it on its own, which is
 * stricter than a median of three and costs the bench ten runs fewer. One headless Chromium
 * (CHROME_PATH, /usr/bin/chromium by default) serves every run; the server is the real one, on a
 * data folder with the demo tutors so /tutors lists some.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import lighthouse, { desktopConfig, type Result } from 'lighthouse';
import { lastFirstPaintPath } from './first-paint-path';
import { onCleanup, startTutorlane, type TutorlaneServer, tempDir } from './processes';
import { type FigureResult, type Row, skippedRow, status } from './report';
import { full } from './settings';
import { formatSpread, median, spread } from './stats';

const PAGES = ['/', '/login', '/signup', '/contact', '/tutors'];
const FORM_FACTORS = ['mobile', 'desktop'] as const;
type FormFactor = (typeof FORM_FACTORS)[number];
const RUNS: Record<FormFactor, number> = { mobile: full(3, 1), desktop: 1 };
const ROUNDS = Math.max(...Object.values(RUNS));
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];
const BUDGET = {
  mobilePerformance: 98,
  desktopPerformance: 100,
  otherCategories: 100,
};
const BUDGET_TEXT = 'perf >= 98 mobile, 100 desktop; a11y, BP, SEO 100';

interface RunSummary {
  scores: Record<(typeof CATEGORIES)[number], number>;
  cls: number;
  tbtMs: number;
  lhr: Result;
  /** Mobile only: what the simulated first paint waits for (./first-paint-path.ts). */
  firstPaintPath?: string;
}

interface Browser {
  port: number;
  alive(): boolean;
}

async function launchChromium(chromePath: string): Promise<Browser> {
  const userDataDir = tempDir('chromium');
  const chrome = spawn(
    chromePath,
    [...CHROME_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${userDataDir}`, 'about:blank'],
    // Chromium's own temp files (its singleton socket, which a stopped Chromium leaves behind) go
    // in its folder too, removed at the end.
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TMPDIR: userDataDir } },
  );
  const exited = new Promise((resolve) => chrome.once('exit', resolve));
  onCleanup(async () => {
    if (chrome.exitCode !== null || chrome.signalCode !== null) return;
    chrome.kill('SIGTERM');
    await exited;
  });
  const port = await new Promise<number>((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start:\n${stderr}`)), 30_000);
    chrome.stderr.on('data', (chunk) => {
      stderr += chunk;
      const found = stderr.match(/DevTools listening on ws:\/\/[^:]+:(\d+)\//)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(Number(found));
      }
    });
    exited.then(() => reject(new Error(`Chromium exited:\n${stderr}`)));
  });
  return { port, alive: () => chrome.exitCode === null && chrome.signalCode === null };
}

/**
 * Why the server cannot serve the pages, or undefined when it can. Besides a server that died,
 * someone rebuilding dist/client while it runs changes the hashed script names under its cached
 * index.html; a restart picks the new ones up.
 */
async function serverProblem(server: TutorlaneServer): Promise<string | undefined> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) {
    const tail = server.output().trim().split('\n').slice(-3).join(' / ');
    return `the server exited (${server.child.exitCode ?? server.child.signalCode})${tail ? `: ${tail}` : ''}`;
  }
  try {
    const html = await (await fetch(`${server.url}/`)).text();
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1] as string);
    for (const script of scripts) {
      const status = (await fetch(new URL(script, server.url))).status;
      if (status !== 200) return `${script} answers ${status} (dist/client rebuilt under the server?)`;
    }
    return scripts.length > 0 ? undefined : 'index.html names no script';
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message;
    return `the server does not answer (${(error as Error).message}${cause ? `: ${cause}` : ''})`;
  }
}

/** One Lighthouse run: its summary, or why it produced none. */
async function runOnce(url: string, port: number, formFactor: FormFactor): Promise<RunSummary | string> {
  try {
    const result = await lighthouseRun(url, port, formFactor);
    if (result.runtimeError) return result.runtimeError.code;
    // Read before the next run replaces Lighthouse's simulation.
    return summarizeRun(result, formFactor === 'mobile' ? lastFirstPaintPath() : undefined);
  } catch (error) {
    return (error as Error).message.split('\n')[0] ?? 'Lighthouse failed';
  }
}

async function lighthouseRun(url: string, port: number, formFactor: FormFactor): Promise<Result> {
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      disableFullPageScreenshot: true,
    },
    formFactor === 'desktop' ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  return result.lhr;
}

function summarizeRun(lhr: Result, firstPaintPath?: string): RunSummary {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  return {
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
    },
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    lhr,
    firstPaintPath,
  };
}

/** What an audit points at: up to three of its items (an element, a link, a file and its waste). */
function auditItems(audit: Result['audits'][string]): string {
  const details = audit.details as { items?: Record<string, unknown>[] } | undefined;
  const shown = (details?.items ?? []).slice(0, 3).map((item) => {
    const snippet = (item.node as { snippet?: string } | undefined)?.snippet;
    if (snippet) return snippet;
    if (typeof item.href === 'string') return `"${item.text ?? ''}" -> ${item.href}`;
    if (typeof item.url !== 'string') return '';
    const wasted =
      typeof item.wastedBytes === 'number' ? ` (${(item.wastedBytes / 1024).toFixed(0)} KiB)` : '';
    return `${item.url.replace(/^https?:\/\/[^/]+/, '')}${wasted}`;
  });
  return shown.filter(Boolean).join(', ');
}

/** The audits that cost points in the categories under budget, for the findings. */
function losingAudits(lhr: Result): { id: string; text: string }[] {
  const found: { id: string; text: string }[] = [];
  for (const category of Object.values(lhr.categories)) {
    if ((category.score ?? 0) >= 1) continue;
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      if (['manual', 'notApplicable', 'informative'].includes(audit.scoreDisplayMode)) continue;
      if (ref.weight === 0 && !audit.metricSavings) continue;
      const shown = audit.displayValue ? ` (${audit.displayValue})` : '';
      const items = auditItems(audit);
      found.push({
        id: `${category.id}/${ref.id}`,
        text: `${audit.title}${shown}${items ? `: ${items}` : ''}`,
      });
    }
  }
  return found;
}

function metricsLine(lhr: Result): string {
  const metrics: [string, string][] = [
    ['FCP', 'first-contentful-paint'],
    ['LCP', 'largest-contentful-paint'],
    ['SI', 'speed-index'],
    ['TBT', 'total-blocking-time'],
    ['CLS', 'cumulative-layout-shift'],
  ];
  return metrics.map(([name, id]) => `${name} ${lhr.audits[id]?.displayValue ?? '?'}`).join(', ');
}

export async function measureLighthouseFigure(dataDir: string): Promise<FigureResult> {
  const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromePath)) {
    return {
      rows: [skippedRow('2', 'Lighthouse', BUDGET_TEXT, `no Chromium at ${chromePath} (set CHROME_PATH)`)],
      findings: [],
      details: {},
    };
  }
  let server: TutorlaneServer = await startTutorlane({ dataDir });
  let browser = await launchChromium(chromePath);

  const runs = new Map<string, RunSummary[]>();
  const errors: string[] = [];
  for (let run = 0; run < ROUNDS; run++) {
    for (const page of PAGES) {
      for (const formFactor of FORM_FACTORS) {
        if (run >= RUNS[formFactor]) continue;
        const key = `${page} ${formFactor}`;
        let summary = await runOnce(`${server.url}${page}`, browser.port, formFactor);
        if (typeof summary === 'string') {
          errors.push(`${key} run ${run + 1}: ${summary}; retried`);
          const problem = await serverProblem(server);
          if (problem) {
            errors.push(`${key} run ${run + 1}: ${problem}; server restarted`);
            await server.stop();
            server = await startTutorlane({ dataDir });
          }
          if (!browser.alive()) {
            errors.push(`${key} run ${run + 1}: Chromium exited; relaunched`);
            browser = await launchChromium(chromePath);
          }
          summary = await runOnce(`${server.url}${page}`, browser.port, formFactor);
          if (typeof summary === 'string') {
            errors.push(`${key} run ${run + 1}: ${summary} again; run dropped`);
            continue;
          }
        }
        runs.set(key, [...(runs.get(key) ?? []), summary]);
      }
    }
  }
  await server.stop();

  const rows: Row[] = [];
  const findings: string[] = [...errors.map((e) => `2: ${e}`)];
  const losing = new Map<string, { text: string; where: string[] }>();
  const details: Record<string, unknown> = {};
  for (const page of PAGES) {
    for (const formFactor of FORM_FACTORS) {
      const key = `${page} ${formFactor}`;
      const summaries = runs.get(key) ?? [];
      if (summaries.length === 0) {
        rows.push(skippedRow('2', `Lighthouse ${key}`, BUDGET_TEXT, 'every run failed'));
        continue;
      }
      const med = (pick: (s: RunSummary) => number) => median(summaries.map(pick));
      const perf = summaries.map((s) => s.scores.performance);
      const scores = Object.fromEntries(CATEGORIES.map((c) => [c, med((s) => s.scores[c])])) as Record<
        (typeof CATEGORIES)[number],
        number
      >;
      const cls = med((s) => s.cls);
      const tbtMs = med((s) => s.tbtMs);
      const perfBudget = formFactor === 'mobile' ? BUDGET.mobilePerformance : BUDGET.desktopPerformance;
      const misses = [
        scores.performance < perfBudget ? `performance ${scores.performance} < ${perfBudget}` : '',
        ...(['accessibility', 'best-practices', 'seo'] as const).map((c) =>
          scores[c] < BUDGET.otherCategories ? `${c} ${scores[c]} < 100` : '',
        ),
      ].filter(Boolean);
      rows.push({
        id: '2',
        figure: `Lighthouse ${key} (${summaries.length} runs)`,
        measured:
          `perf ${scores.performance} (${Math.min(...perf)}-${Math.max(...perf)}), a11y ${scores.accessibility}, ` +
          `BP ${scores['best-practices']}, SEO ${scores.seo}, CLS ${cls.toFixed(3)}, TBT ${tbtMs.toFixed(0)} ms`,
        reference: '',
        ratio: '',
        budget: BUDGET_TEXT,
        status: status(misses.length === 0),
      });
      // The run with the median performance score speaks for the page.
      const typical = [...summaries].sort((a, b) => a.scores.performance - b.scores.performance)[
        Math.floor(summaries.length / 2)
      ] as RunSummary;
      if (misses.length) findings.push(`2 ${key}: ${misses.join(', ')}; ${metricsLine(typical.lhr)}`);
      if (typical.firstPaintPath)
        findings.push(`2 ${key}: simulated first paint waits for: ${typical.firstPaintPath}`);
      for (const audit of losingAudits(typical.lhr)) {
        const entry = losing.get(audit.id) ?? { text: audit.text, where: [] };
        entry.where.push(key);
        losing.set(audit.id, entry);
      }
      details[key] = summaries.map((s) => ({
        scores: s.scores,
        cls: s.cls,
        tbtMs: s.tbtMs,
        metrics: metricsLine(s.lhr),
        firstPaintPath: s.firstPaintPath,
        losingAudits: losingAudits(s.lhr),
      }));
    }
  }
  for (const [id, { text, where }] of losing) findings.push(`2 audit ${id}: ${text} on ${where.join(', ')}`);
  // Lighthouse times a small CPU task before each run: how fast the machine was, run by run.
  const indexes = [...runs.values()].flat().map((s) => s.lhr.environment.benchmarkIndex);
  if (indexes.length) {
    findings.push(
      `2: Lighthouse's benchmark index of this machine (its own CPU test before each run; higher is faster): ` +
        formatSpread(spread(indexes), '', 0),
    );
    details.benchmarkIndexes = indexes;
  }
  return { rows, findings, details };
}
