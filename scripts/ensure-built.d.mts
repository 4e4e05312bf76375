/** Builds the browser app, the server bundle and the database template when missing or stale. */
export function ensureBuilt(say?: (line: string) => void): Promise<void>;
