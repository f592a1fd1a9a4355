import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  /** the sender's name and address as the From header gives them ("Admissions <no-reply@localhost>") */
  from: string;
  /** every header as received, by its lower-case name */
  headers: Record<string, string>;
  /** every recipient of the message's envelope */
  envelopeTo: string[];
}

/**
 * A real SMTP server inside the test (the `smtp-server` package): the application sends
 * through SMTP_URL and the test reads what arrived. `refusing`: it answers every connection
 * "421 busy, try later" until accept(), as a mail server in trouble does.
 */
export async function startSmtpReceiver(options: { refusing?: boolean; holding?: boolean } = {}) {
  let refusing = options.refusing ?? false;
  let refusals = 0;
  // holding: a message's data is read but not answered until release(); a sender that
  // goes away meanwhile (a killed server) has not had it accepted, so it is dropped
  let holding = options.holding ?? false;
  const held: { session: string; accept: () => void }[] = [];
  const closed = new Set<string>();
  const inbox: ReceivedMail[] = [];
  const consumed = new Set<ReceivedMail>();
  const waiters: { match: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      if (!refusing) return callback();
      refusals++;
      callback(Object.assign(new Error('Too busy, try again later'), { responseCode: 421 }));
    },
    onClose(session) {
      closed.add(session.id);
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((parsed) => {
        const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
        const headers = Object.fromEntries(parsed.headerLines.map((line) => [line.key, line.line.slice(line.line.indexOf(':') + 1).trim()]));
        const envelopeTo = session.envelope.rcptTo.map((address) => address.address.toLowerCase());
        const mail = { to: (to ?? '').toLowerCase(), subject: parsed.subject ?? '', text: parsed.text ?? '', from: parsed.from?.text ?? '', headers, envelopeTo };
        const accept = () => deliver(mail, callback);
        if (holding) held.push({ session: session.id, accept });
        else accept();
      }, callback);
    },
  });
  function deliver(mail: ReceivedMail, callback: (error?: Error | null) => void) {
    inbox.push(mail);
    for (const waiter of [...waiters]) {
      if (!consumed.has(mail) && waiter.match(mail)) {
        consumed.add(mail);
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(mail);
      }
    }
    callback();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    /** connections refused so far */
    get refusals() {
      return refusals;
    },
    /** stops refusing */
    accept() {
      refusing = false;
    },
    /** messages read and waiting for an answer (holding) */
    get held() {
      return held.filter((item) => !closed.has(item.session)).length;
    },
    /** answers the held messages whose sender is still there, and every later one at once */
    release() {
      holding = false;
      for (const item of held.splice(0)) if (!closed.has(item.session)) item.accept();
    },
    /** The oldest mail to `to` (optionally matching) not yet taken, waiting up to `timeoutMs`. */
    waitFor(to: string, match: (mail: ReceivedMail) => boolean = () => true, timeoutMs = 10_000): Promise<ReceivedMail> {
      const wanted = (mail: ReceivedMail) => mail.to === to.toLowerCase() && match(mail);
      const arrived = inbox.find((mail) => !consumed.has(mail) && wanted(mail));
      if (arrived) {
        consumed.add(arrived);
        return Promise.resolve(arrived);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ match: wanted, resolve: (mail) => { clearTimeout(timer); resolve(mail); } });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpReceiver = Awaited<ReturnType<typeof startSmtpReceiver>>;

export function confirmationCodeOf(mail: ReceivedMail): string {
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no 6-digit code in mail: ${mail.text}`);
  return code;
}

export function resetLinkOf(mail: ReceivedMail): string {
  const link = /(https?:\/\/\S+\/reset\?\S+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`no reset link in mail: ${mail.text}`);
  return link;
}
