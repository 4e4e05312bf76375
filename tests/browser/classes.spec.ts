/**
 * Group classes in the browser, against the server that takes payments: a tutor creates a weekly
 * class from the form; a student with money enrols, another joins the waitlist once the seats are
 * full, and takes the seat the first one leaves; the list of classes filters by subject, day and
 * price at both widths; a parent enrols a child, sees the child's seat and takes them out. What the API decides (holds, positions, races) is tests/api/classes.test.ts's.
 */
import type { Browser, Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  openMenuIfCollapsed,
  secondBrowser,
  test,
  unique,
} from './fixtures';
import { fundedStudent, openTutor } from './money-fixtures';

const ZONE = 'America/New_York';
test.use({ timezoneId: ZONE });

test.beforeEach(async ({ page }) => {
  const config = (await (await page.request.get('/api/config')).json()) as { payments?: { on: boolean } };
  expect(config.payments?.on, 'the classes spec needs the server with payments on').toBe(true);
});

/** The instant of `time` on the day `days` from today, in the spec's zone. */
const startIn = (days: number, time: string) =>
  Temporal.Now.plainDateISO(ZONE)
    .add({ days })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) })
    .toInstant()
    .toString();

/** A class made through the API by the tutor signed in on `page`; answers its id. */
async function classByApi(
  page: Page,
  fields: { title: string; subject?: string; priceCents?: number; seats?: number; sessions: string[] },
) {
  const res = await page.request.post('/api/classes', {
    data: {
      subject: 'Algebra',
      language: 'English',
      description: 'Practice together.',
      minutes: 60,
      seats: 5,
      minStudents: 1,
      priceCents: 1500,
      ...fields,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { class: { id: string } }).class.id;
}

/** A funded student in a browser of their own. */
async function studentBrowser(browser: Browser, name: string) {
  const page = await secondBrowser(browser, ZONE);
  await fundedStudent(page, browser, { displayName: name, amountCents: 10_000, zone: ZONE });
  return page;
}

test('a tutor creates a weekly class; a student enrols, another waits and takes the seat the first leaves', async ({
  page,
  browser,
}) => {
  const tutor = await openTutor(browser, `Cleo Class${unique()}`, ZONE);
  const title = `Algebra circle ${unique()}`;
  const first = Temporal.Now.plainDateISO(ZONE).add({ days: 3 });

  await tutor.page.goto('/classes/new');
  const form = tutor.page.locator('form');
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Subject').selectOption('Algebra');
  await form.getByLabel('Description').fill('Equations, three weeks, with others at your level.');
  await form.getByLabel('Seats').selectOption('2');
  await form.getByLabel('Price per student per session (USD)').fill('15');
  await form.getByRole('radio', { name: 'A weekly course' }).check();
  await form.getByLabel('First date').fill(first.toString());
  await form.getByLabel('Start time').fill('10:00');
  await form.getByLabel('Number of sessions').fill('3');
  const preview = form.getByText('The class meets 3 times:').locator('..');
  await expect(preview.getByRole('listitem')).toHaveCount(3);
  await expect(preview.getByRole('listitem').nth(2)).toContainText('10:00–11:00');
  await form.getByRole('button', { name: 'Create the class' }).click();
  await expect(tutor.page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const classUrl = new URL(tutor.page.url()).pathname;
  expect(classUrl).toMatch(/^\/classes\/[\w-]+$/);
  await expect(tutor.page.getByRole('button', { name: 'Cancel the class' })).toBeVisible();
  await tutor.page.context().close();

  // The first student enrols: the three sessions' price is held.
  await fundedStudent(page, browser, {
    displayName: `Ada Early${unique()}`,
    amountCents: 10_000,
    zone: ZONE,
  });
  await page.goto(classUrl);
  await expect(page.getByText('2 of 2 seats left')).toBeVisible();
  await expect(
    page.getByText(/Enrolling holds \$45\.00 from your balance for the 3 sessions ahead/),
  ).toBeVisible();
  await expectNoAccessibilityViolations(page);
  await page.getByRole('button', { name: 'Enrol' }).click();
  await expect(page.getByText('You are enrolled.')).toBeVisible();

  // Another fills the last seat through the API; a third finds it full and joins the waitlist.
  const filler = await studentBrowser(browser, `Fil Seat${unique()}`);
  const id = classUrl.split('/').pop() as string;
  const taken = await filler.request.post(`/api/classes/${id}/enrol`, { data: {} });
  expect(taken.status(), await taken.text()).toBe(201);
  await filler.context().close();
  const waiting = await studentBrowser(browser, `Wes Wait${unique()}`);
  await waiting.goto(classUrl);
  await expect(waiting.getByText('Full: join the waitlist')).toBeVisible();
  await waiting.getByRole('button', { name: 'Join the waitlist' }).click();
  await expect(waiting.getByText('You are number 1 on the waitlist.')).toBeVisible();

  // The first leaves, after the confirmation that names the policy; the waiting one moves up.
  await page.getByRole('button', { name: 'Leave class' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Leave the class?' });
  await expect(dialog).toContainText('cancellation policy');
  await dialog.getByRole('button', { name: 'Leave class' }).click();
  await expect(page.getByText('You are enrolled.')).toHaveCount(0);
  await expect(page.getByText('Full: join the waitlist')).toBeVisible();
  await waiting.reload();
  await expect(waiting.getByText('You are enrolled.')).toBeVisible();
  await waiting.context().close();
});

test('the list of classes filters by subject, day and price', { tag: '@phone' }, async ({
  page,
  browser,
}) => {
  const tutor = await openTutor(browser, `Fay Filter${unique()}`, ZONE);
  const algebra = `Algebra evenings ${unique()}`;
  const physics = `Physics mornings ${unique()}`;
  await classByApi(tutor.page, { title: algebra, priceCents: 1500, sessions: [startIn(4, '18:00')] });
  await classByApi(tutor.page, {
    title: physics,
    subject: 'Physics',
    priceCents: 4000,
    sessions: [startIn(5, '09:00')],
  });
  await tutor.page.context().close();

  await page.goto('/');
  await openMenuIfCollapsed(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Classes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Group classes' })).toBeVisible();
  const list = page.getByRole('list').filter({ has: page.getByRole('article') });
  await expect(list.getByRole('link', { name: algebra })).toBeVisible();
  await expect(list.getByRole('link', { name: physics })).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: physics })).toContainText('$40 a session');
  await page.screenshot({ path: `.tmp/classes-${test.info().project.name}.png`, fullPage: true });
  await expectNoAccessibilityViolations(page);

  const filters = page.getByRole('search', { name: 'Filter classes' });
  await filters.getByLabel('Subject').selectOption('Physics');
  await expect(page).toHaveURL(/subject=Physics/);
  await expect(list.getByRole('link', { name: physics })).toBeVisible();
  await expect(page.getByRole('link', { name: algebra })).toHaveCount(0);

  await page.getByRole('link', { name: 'Clear all filters' }).click();
  await expect(filters.getByLabel('Subject')).toHaveValue('');
  await filters.getByLabel('Day').fill(Temporal.Now.plainDateISO(ZONE).add({ days: 4 }).toString());
  await filters.getByLabel('Max price a session ($)').fill('20');
  await filters.getByRole('button', { name: 'Show classes' }).click();
  await expect(page).toHaveURL(/maxPrice=20/);
  await expect(list.getByRole('link', { name: algebra })).toBeVisible();
  await expect(page.getByRole('link', { name: physics })).toHaveCount(0);
});

test('a parent enrols a child, sees the child’s seat on the class’s page, and takes them out', async ({
  page,
  browser,
}) => {
  const tutor = await openTutor(browser, `Cleo Family${unique()}`, ZONE);
  const id = await classByApi(tutor.page, {
    title: `Family circle ${unique()}`,
    priceCents: 0,
    sessions: [startIn(3, '17:00')],
  });
  await tutor.page.context().close();
  await createAccount(page, { role: 'parent', displayName: `Pat Circle${unique()}` });
  const added = await page.request.post('/api/family/children', {
    data: { firstName: 'Ivy', birthYear: new Date().getUTCFullYear() - 10 },
  });
  expect(added.status(), await added.text()).toBe(201);

  await page.goto(`/classes/${id}`);
  await expect(page.getByRole('combobox', { name: 'For' })).toHaveValue(/.+/);
  await page.getByRole('button', { name: 'Enrol' }).click();
  await expect(page.getByText('Ivy has a seat in this class.')).toBeVisible();
  await page.screenshot({ path: `.tmp/class-parent-${test.info().project.name}.png`, fullPage: true });
  await page.getByRole('button', { name: 'Take Ivy out of the class' }).click();
  await page.getByRole('button', { name: 'Yes, take Ivy out' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ivy is out of the class.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enrol' })).toBeVisible();
  await expectNoAccessibilityViolations(page);
});
