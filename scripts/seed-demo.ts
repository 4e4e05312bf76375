/**
 * `npm run seed:demo`: fills an empty database with 200 demo tutors so a newcomer sees a living
 * marketplace. Uses the same configuration as the server (DATA_DIR or DATABASE_URL); stop the
 * server first when it uses the embedded store. It never touches a database that has accounts.
 */
import { loadConfig } from '../src/server/config/config';
import { openDatabase } from '../src/server/db/database';
import { generateDemoTutors, insertDemoTutors } from '../src/server/tutors/demo-tutors';

const COUNT = 200;

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const { n } = await database.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) > 0) {
    process.stderr.write(
      `The database already has ${n} account(s): seed:demo only fills an empty database.\n`,
    );
    process.exitCode = 1;
  } else {
    const started = Date.now();
    await insertDemoTutors(database.db, generateDemoTutors(COUNT), { photos: true });
    process.stdout.write(
      `Added ${COUNT} demo tutors in ${((Date.now() - started) / 1000).toFixed(1)} s. Start the server and open /tutors.\n`,
    );
  }
} finally {
  await database.close();
}
