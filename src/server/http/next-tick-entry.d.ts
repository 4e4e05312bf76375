/** Types for next-tick-entry.js (plain JavaScript: scripts/start.mjs loads it before any build). */
export declare function heldNextTickEntry(): object | undefined;
