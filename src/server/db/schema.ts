/**
 * The database as Kysely sees it: one interface per table, in snake_case as in the migrations.
 * Feature modules add their tables here when their migration adds them.
 */
import type { Generated } from 'kysely';

// biome-ignore lint/suspicious/noEmptyInterface: tables are added by later migrations.
export interface DB {}

export type { Generated };
