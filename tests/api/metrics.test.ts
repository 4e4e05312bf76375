import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startReminders } from '../../src/server/lessons/reminders';
import { createLogger } from '../../src/server/logging/logger';
import { startMinuteJob } from '../../src/server/platform/minute-job';
import { get } from '../support/accounts';
import { person, setUpApiTest, t } from '../support/api-app';
import { makeAdmin, publishTutor } from '../support/money';
import { createTestApp } from '../support/test-app';
import { testStore } from '../support/test-database';

const TOKEN = 'scrape-token-0123456789abcdef';

setUpApiTest({ env: { METRICS_TOKEN: TOKEN } });

const scrape = (token = TOKEN) => t.request('/metrics', { headers: { authorization: `Bearer ${token}` } });
const scrapedText = async () => {
  const res = await scrape();
  expect(res.status).toBe(200);
  return res.text();
};
/** The value of one series, as the text format writes it ("name{labels} value"). */
const seriesValue = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('GET /metrics', () => {
  it('is 404 without the token, with a wrong one, and when no token is configured', async () => {
    expect((await t.request('/metrics')).status).toBe(404);
    expect((await scrape('wrong-token-0123456789abcdef')).status).toBe(404);
    expect((await t.request('/metrics', { headers: { authorization: TOKEN } })).status).toBe(404);
    const unconfigured = await createTestApp({ database: t.database });
    const res = await unconfigured.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
  });

  it("answers Prometheus' text format with Node's own metrics", async () => {
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.headers.get('content-type')).toContain('version=0.0.4');
    const text = await res.text();
    expect(text).toContain('# TYPE tutorlane_http_requests_total counter');
    expect(text).toContain('# TYPE tutorlane_http_request_duration_seconds histogram');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(seriesValue(text, 'tutorlane_live_channels_open')).toBe(0);
    expect(seriesValue(text, 'tutorlane_rooms_in_progress')).toBe(0);
    expect(seriesValue(text, 'tutorlane_database_up')).toBe(1);
  });

  it('counts a request under its route pattern, never its raw path', async () => {
    const tutor = await person('tutor');
    await publishTutor(t, tutor);
    expect((await t.request(`/api/tutors/${tutor.id}`)).status).toBe(200);
    expect((await t.request('/api/tutors/no-such-tutor-here')).status).toBe(404);
    const text = await scrapedText();
    expect(
      seriesValue(text, 'tutorlane_http_requests_total{route="/api/tutors/:id",method="GET",status="200"}'),
    ).toBe(1);
    expect(
      seriesValue(text, 'tutorlane_http_requests_total{route="/api/tutors/:id",method="GET",status="404"}'),
    ).toBe(1);
    expect(
      seriesValue(
        text,
        'tutorlane_http_request_duration_seconds_count{route="/api/tutors/:id",method="GET",status="200"}',
      ),
    ).toBe(1);
    expect(text).not.toContain(tutor.id);
    expect(text).not.toContain('no-such-tutor-here');
  });

  it("reports the mail outbox's waiting and failed mails and the oldest one's age", async () => {
    const now = Date.now();
    const mail = {
      recipient: 'someone@example.com',
      subject: 'Hello',
      text_body: 'Hi',
      html_body: '<p>Hi</p>',
    };
    await t.database.db
      .insertInto('mail_outbox')
      .values([
        { ...mail, created_at: new Date(now - 600_000), next_attempt_at: new Date(now + 3_600_000) },
        { ...mail, attempts: 25, created_at: new Date(now - 60_000), last_error: 'refused' },
      ])
      .execute();
    const text = await scrapedText();
    expect(seriesValue(text, 'tutorlane_mail_outbox_waiting')).toBeGreaterThanOrEqual(1);
    expect(seriesValue(text, 'tutorlane_mail_outbox_failed')).toBe(1);
    expect(seriesValue(text, 'tutorlane_mail_outbox_oldest_waiting_age_seconds')).toBeGreaterThanOrEqual(600);
    // A backlog is for the alerts: the server stays ready.
    const health = await t.request('/api/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', ready: true, database: testStore });
  });

  it('counts and times the minute jobs’ passes and failures', async () => {
    const before = await scrapedText();
    expect(seriesValue(before, 'tutorlane_minute_job_runs_total{job="reminders"}')).toBe(0);
    expect(seriesValue(before, 'tutorlane_minute_job_failures_total{job="lessons"}')).toBe(0);
    const logger = createLogger({ level: 'silent' });
    const stopReminders = startReminders(
      { db: t.database.db, mailer: t.mailer, mail: { appUrl: t.config.appUrl, mailFrom: t.config.mailFrom } },
      logger,
      60_000,
      t.metrics.observeJob,
    );
    const stopFailing = startMinuteJob(
      {
        name: 'lessons',
        failure: 'lesson job failed',
        run: () => Promise.reject(new Error('the database went away')),
        done: () => {},
      },
      logger,
      60_000,
      t.metrics.observeJob,
    );
    try {
      await vi.waitFor(
        async () => {
          const text = await scrapedText();
          expect(seriesValue(text, 'tutorlane_minute_job_runs_total{job="reminders"}')).toBe(1);
          expect(seriesValue(text, 'tutorlane_minute_job_failures_total{job="reminders"}')).toBe(0);
          expect(seriesValue(text, 'tutorlane_minute_job_runs_total{job="lessons"}')).toBe(1);
          expect(seriesValue(text, 'tutorlane_minute_job_failures_total{job="lessons"}')).toBe(1);
          // Each pass is timed, the failed one too: one observation per job, of a real duration.
          expect(seriesValue(text, 'tutorlane_minute_job_duration_seconds_count{job="reminders"}')).toBe(1);
          expect(seriesValue(text, 'tutorlane_minute_job_duration_seconds_count{job="lessons"}')).toBe(1);
          const took = seriesValue(text, 'tutorlane_minute_job_duration_seconds_sum{job="reminders"}');
          expect(took).toBeGreaterThan(0);
          expect(took).toBeLessThan(10);
        },
        { timeout: 10_000, interval: 200 },
      );
    } finally {
      stopReminders();
      stopFailing();
    }
  });
});

describe('GET /api/health', () => {
  it('says ready when the database answers and is migrated', async () => {
    const res = await t.request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', ready: true, database: testStore });
  });
});

describe('GET /api/admin/backup', () => {
  let admin: Awaited<ReturnType<typeof makeAdmin>>;
  beforeAll(async () => {
    admin = await makeAdmin(t, await person('student', 'Ada Admin'));
  });

  it('is for admins only', async () => {
    expect((await t.request('/api/admin/backup')).status).toBe(401);
    const student = await person('student');
    expect((await get(t, '/api/admin/backup', student.jar)).status).toBe(403);
  });

  if (testStore === 'embedded') {
    it('answers a fresh backup as a download, counted in the metrics, and shows in the overview', async () => {
      const res = await get(t, '/api/admin/backup', admin.jar);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/gzip');
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment; filename="tutorlane-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz"$/,
      );
      const tarball = gunzipSync(Buffer.from(await res.arrayBuffer()));
      expect(tarball.toString('latin1')).toContain('tutorlane-backup.json');
      expect(tarball.toString('latin1')).toContain('database.tar');
      const text = await scrapedText();
      expect(seriesValue(text, 'tutorlane_backups_total')).toBe(1);
      expect(seriesValue(text, 'tutorlane_last_backup_age_seconds')).toBeLessThan(60);
      const overview = await (await get(t, '/api/admin/overview', admin.jar)).json();
      expect(overview.backups).toEqual({ store: 'embedded', everyHours: 24, keep: 7, lastScheduledAt: null });
      // Who took a copy of everyone's data is on the record.
      const fileName = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
      const audit = await (await get(t, '/api/admin/audit', admin.jar)).json();
      expect(audit.entries[0]).toMatchObject({
        action: 'backup.downloaded',
        actor: expect.stringMatching(/^Ada Admin </),
        target: fileName,
      });
    });
  } else {
    it('on PostgreSQL answers 409 pointing at npm run backup', async () => {
      const res = await get(t, '/api/admin/backup', admin.jar);
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({
        code: 'BACKUP_ON_POSTGRES',
        message: expect.stringContaining('npm run backup'),
      });
      const overview = await (await get(t, '/api/admin/overview', admin.jar)).json();
      expect(overview.backups).toMatchObject({ store: 'postgres', everyHours: 0 });
    });
  }

  it('keeps the database reachable for queries after a backup', async () => {
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(t.database.db);
    expect(rows[0]?.one).toBe(1);
  });
});
