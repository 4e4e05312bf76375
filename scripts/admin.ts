/**
 * `npm run admin -- grant someone@example.com`, `revoke someone@example.com`, `list`: who may open
 * the admin console. Only here, on the server's own machine, is the role given or taken (see
 * src/server/admin/admin-command.ts).
 */
import { runAdminCommand } from '../src/server/admin/admin-command';

const result = await runAdminCommand(process.argv.slice(2));
if (result.output) process.stdout.write(`${result.output}\n`);
if (result.error) process.stderr.write(`${result.error}\n`);
process.exitCode = result.exitCode;
