import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on a free local port: what the CRM's nodemailer sends arrives here,
 * whole (headers and body), for the test to read. An address added to `rejected` is refused
 * with 550, as a real server refuses an unknown mailbox. `holdAnswer` sees each mail as it
 * arrives; when it returns true, the server's 250 waits until the test calls `answer` (the
 * sender is left not knowing the mail arrived, e.g. to be killed in that moment).
 */
export async function startSmtpServer(
  options: { holdAnswer?: (mail: ReceivedMail, answer: () => void) => boolean } = {},
): Promise<{ url: string; mails: ReceivedMail[]; rejected: Set<string>; stop(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const rejected = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (rejected.has(address.address)) {
        const error = new Error('No such mailbox here') as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        mails.push(mail);
        if (options.holdAnswer?.(mail, () => callback())) return;
        callback();
      });
    },
  });
  // A sender killed mid-conversation resets its connection; that is no failure of the test's.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    rejected,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface TwilioRequest {
  accountSid: string;
  authorization: string;
  params: Record<string, string>;
}

/**
 * A local stand-in for Twilio's REST API as documented: POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To/From/Body, HTTP basic
 * auth; answers 201 with the message resource (`sid` SM…, `status` queued), or Twilio's
 * error object. `failNext` makes the next calls answer with the given status.
 */
export async function startFakeTwilio(credentials: { accountSid: string; authToken: string }) {
  const requests: TwilioRequest[] = [];
  const failures: number[] = [];
  let counter = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.url ?? '');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const expected = `Basic ${Buffer.from(`${credentials.accountSid}:${credentials.authToken}`).toString('base64')}`;
      if (req.method !== 'POST' || !match) return send(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      if (req.headers.authorization !== expected || match[1] !== credentials.accountSid)
        return send(401, { code: 20003, message: 'Authenticate', status: 401 });
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      requests.push({ accountSid: match[1]!, authorization: req.headers.authorization ?? '', params });
      const failure = failures.shift();
      if (failure) return send(failure, { code: failure === 429 ? 20429 : 21211, message: `Failure ${failure}`, status: failure });
      if (!params.To || !params.From || !params.Body)
        return send(400, { code: 21604, message: "A 'To' phone number is required.", status: 400 });
      counter++;
      send(201, {
        sid: `SM${String(counter).padStart(32, '0')}`,
        account_sid: match[1],
        to: params.To,
        from: params.From,
        body: params.Body,
        status: 'queued',
        num_segments: '1',
        date_created: new Date().toUTCString(),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (...statuses: number[]) => failures.push(...statuses),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
