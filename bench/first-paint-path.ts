/**
 * What Lighthouse's simulated first paint (mobile) waits for, read from its own simulator: after a
 * run, Lantern keeps the timings of every node of its last "optimistic first contentful paint"
 * simulation (the requests and main-thread tasks it decided the paint depends on). The findings
 * print them, so a reader sees which request or task sets the mobile FCP instead of guessing. A
 * task shows its wall time, which Lantern multiplies by four, and its thread time: the difference
 * is time the renderer spent waiting, which on a busy machine is most of it.
 *
 * Lantern is Lighthouse's internal module (reached through its own file, as Lighthouse's asset
 * saver does); when a Lighthouse upgrade moves it, the path is reported as unavailable.
 */
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';

const LABEL = 'optimisticFirstContentfulPaint';
/** Main-thread tasks shorter than this (unthrottled) are left out of the list. */
const MIN_TASK_MS = 5;

/** The nodes of the last simulated first paint, in order of their simulated start. */
export function lastFirstPaintPath(): string {
  const timings = Lantern.Simulation.Simulator.allNodeTimings.get(LABEL);
  if (!timings) return 'unavailable (Lighthouse kept no simulation of the first paint)';
  const steps: string[] = [];
  for (const [node, timing] of [...timings].sort((a, b) => a[1].startTime - b[1].startTime)) {
    const when = `${Math.round(timing.startTime)}-${Math.round(timing.endTime)} ms`;
    if (node.type === 'network') {
      const path = node.request.url.replace(/^https?:\/\/[^/]+/, '');
      steps.push(`${path} ${(node.request.transferSize / 1024).toFixed(1)} kB ${when}`);
    } else {
      const ms = node.duration / 1000;
      if (ms < MIN_TASK_MS) continue;
      const longest = [...node.childEvents].sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0];
      // Lantern scales the task's wall time; its thread time says how much of that the renderer
      // actually ran (the rest it waited, for a core or for another process).
      const cpuMs = (node.event as { tdur?: number }).tdur;
      const cpu = cpuMs === undefined ? '' : `, ${(cpuMs / 1000).toFixed(0)} ms of it on the CPU`;
      steps.push(`main thread ${ms.toFixed(0)} ms (${longest?.name ?? 'task'}${cpu}) ${when}`);
    }
  }
  return steps.join('; ');
}
