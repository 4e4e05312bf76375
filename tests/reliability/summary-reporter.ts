/**
 * Closes `npm run test:reliability` with what a person wants to read: one line per reliability
 * promise with its measured numbers, then a single summary line.
 */
import type { Reporter, TestModule } from 'vitest/node';
import './findings';

const promises = [
  { file: 'durability.test.ts', name: 'durability' },
  { file: 'graceful-shutdown.test.ts', name: 'graceful shutdown' },
  { file: 'dependency-failure.test.ts', name: 'dependency failure' },
  { file: 'load.test.ts', name: 'load' },
  { file: 'messages-restart.test.ts', name: 'messages across a restart' },
  { file: 'money-crash.test.ts', name: 'money across kill -9' },
  { file: 'money-races.test.ts', name: 'money races across two servers' },
  { file: 'backup-restore.test.ts', name: 'backup and restore' },
  { file: 'move-to-postgres.test.ts', name: 'move to PostgreSQL' },
  { file: 'health-when-busy.test.ts', name: 'health when busy' },
];

export default class SummaryReporter implements Reporter {
  private startedAt = Date.now();

  onTestRunStart(): void {
    this.startedAt = Date.now();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    const shorts: string[] = [];
    const broken: string[] = [];
    for (const promise of promises) {
      const module = testModules.find((m) => m.moduleId.endsWith(`/tests/reliability/${promise.file}`));
      const tests = module ? [...module.children.allTests()] : [];
      const failed = module?.state() !== 'passed' || tests.length === 0;
      const notes: string[] = [];
      for (const test of tests) {
        const result = test.result();
        const finding = test.meta().finding;
        if (result.state === 'skipped')
          notes.push(`${test.name}: SKIPPED (${result.note ?? 'no reason given'})`);
        else if (finding) notes.push(`${finding.detail}${result.state === 'failed' ? ' [FAILED]' : ''}`);
        else if (result.state === 'failed') notes.push(`${test.name}: FAILED before measuring`);
        if (finding && result.state === 'passed') shorts.push(finding.short);
      }
      if (!module) notes.push('did not run');
      if (failed) broken.push(promise.name);
      lines.push(`  ${failed ? 'NOT HELD' : 'held    '}  ${promise.name}: ${notes.join('; ')}`);
    }
    const held = promises.length - broken.length;
    const took = Math.round((Date.now() - this.startedAt) / 1000);
    const duration = `${Math.floor(took / 60)} min ${took % 60} s`;
    const verdict =
      broken.length === 0
        ? `Reliability: ${held}/${promises.length} promises held (${shorts.join(', ')}) in ${duration}`
        : `Reliability: ${held}/${promises.length} promises held; NOT held: ${broken.join(', ')} (in ${duration})`;
    process.stdout.write(`\n${lines.join('\n')}\n\n${verdict}\n`);
  }
}
