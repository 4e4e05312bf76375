/**
 * The browser tests' mailbox, run by Playwright as a web server: a real SMTP server the app
 * delivers to, and a small HTTP API the tests read it through (GET /mails?to=address).
 */
import { createServer } from 'node:http';
import { startMailCatcher } from './mail-catcher';

const smtpPort = Number(process.env.MAIL_SINK_SMTP_PORT ?? 4175);
const httpPort = Number(process.env.MAIL_SINK_HTTP_PORT ?? 4176);

const catcher = await startMailCatcher(smtpPort);
createServer((req, res) => {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${httpPort}`);
  if (url.pathname === '/health') {
    res.end('ok');
    return;
  }
  if (url.pathname === '/mails') {
    const to = url.searchParams.get('to');
    const mails = to ? catcher.mailsTo(to) : catcher.mails;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(mails));
    return;
  }
  res.statusCode = 404;
  res.end();
}).listen(httpPort, '127.0.0.1');
