// The shop's outgoing mail in the browser journeys: without SMTP_URL it writes each message as
// an .eml file under DATA_DIR/mail, which the journeys read back.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eventually } from './steps.ts';

/** A message as its reader sees it: the subject, and the plain-text and HTML versions decoded. */
export interface MailMessage {
  subject: string;
  text: string;
  html: string;
}

export interface Mailbox {
  /** The newest path matching `link` in a message to `to`, waiting until one arrives. */
  latestLink(to: string, link: RegExp): Promise<string>;
  /** The newest message to `to` whose subject matches `subject`, waiting until one arrives. */
  latest(to: string, subject: string | RegExp): Promise<MailMessage>;
}

export function mailbox(dataDir: string): Mailbox {
  const dir = path.join(dataDir, 'mail');
  const newestFirst = async (): Promise<string[]> => {
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
    return files.reverse().map((file) => path.join(dir, file));
  };
  const find = async (to: string, link: RegExp): Promise<string> => {
    for (const file of await newestFirst()) {
      // Quoted-printable soft line breaks would split a long link.
      const text = (await readFile(file, 'utf8')).replace(/=\r?\n/g, '');
      const found = link.exec(text);
      if (text.includes(to) && found) return found[0];
    }
    return '';
  };
  const findMessage = async (to: string, subject: string | RegExp): Promise<MailMessage | undefined> => {
    for (const file of await newestFirst()) {
      const message = parseMessage(await readFile(file, 'utf8'));
      const matches = typeof subject === 'string' ? message.subject === subject : subject.test(message.subject);
      if (message.to.includes(to) && matches) return message;
    }
    return undefined;
  };
  return {
    async latestLink(to, link) {
      await eventually(() => find(to, link)).not.toBe('');
      return find(to, link);
    },
    async latest(to, subject) {
      await eventually(async () => (await findMessage(to, subject)) !== undefined).toBe(true);
      const { subject: said, text, html } = (await findMessage(to, subject))!;
      return { subject: said, text, html };
    },
  };
}

// Enough MIME for the shop's own messages (nodemailer's): headers, nested multiparts, and
// quoted-printable or base64 parts in UTF-8.

function parseMessage(raw: string): MailMessage & { to: string } {
  const { headers } = splitHead(raw);
  const leaves: Array<{ type: string; body: string }> = [];
  collectParts(raw, leaves);
  const part = (type: string) => leaves.find((leaf) => leaf.type === type)?.body ?? '';
  return {
    to: decodeWords(headers.get('to') ?? ''),
    subject: decodeWords(headers.get('subject') ?? ''),
    text: part('text/plain'),
    html: part('text/html'),
  };
}

function splitHead(raw: string): { headers: Map<string, string>; body: string } {
  const blank = /\r?\n\r?\n/.exec(raw);
  const head = blank ? raw.slice(0, blank.index) : raw;
  const body = blank ? raw.slice(blank.index + blank[0].length) : '';
  const headers = new Map<string, string>();
  // Folded header lines continue on lines that start with white space.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function collectParts(raw: string, into: Array<{ type: string; body: string }>): void {
  const { headers, body } = splitHead(raw);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (type.startsWith('multipart/') && boundary) {
    for (const section of body.split(`--${boundary}`).slice(1)) {
      // The closing delimiter is the boundary followed by "--".
      if (section.startsWith('--')) break;
      collectParts(section.replace(/^\r?\n/, ''), into);
    }
    return;
  }
  into.push({ type, body: decodeBody(body, headers.get('content-transfer-encoding') ?? '7bit') });
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

/** A header's RFC 2047 encoded words ("=?UTF-8?Q?...?="), decoded. */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}
