// The shop's outgoing mail in the browser journeys: without SMTP_URL it writes each message as
// an .eml file under DATA_DIR/mail, which the journeys read back.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eventually } from './steps.ts';

export interface Mailbox {
  /** The newest path matching `link` in a message to `to`, waiting until one arrives. */
  latestLink(to: string, link: RegExp): Promise<string>;
}

export function mailbox(dataDir: string): Mailbox {
  const dir = path.join(dataDir, 'mail');
  const find = async (to: string, link: RegExp): Promise<string> => {
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
    for (const file of files.reverse()) {
      // Quoted-printable soft line breaks would split a long link.
      const text = (await readFile(path.join(dir, file), 'utf8')).replace(/=\r?\n/g, '');
      const found = link.exec(text);
      if (text.includes(to) && found) return found[0];
    }
    return '';
  };
  return {
    async latestLink(to, link) {
      await eventually(() => find(to, link)).not.toBe('');
      return find(to, link);
    },
  };
}
