import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  /** The raw message as sent over DATA, with quoted-printable soft breaks and escapes undone. */
  raw: string;
}

export interface SmtpSink {
  port: number;
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that keeps every message it is given. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          raw: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  const listening = await new Promise<number>((resolve, reject) => {
    server.on('error', reject);
    const net = server.listen(port, '127.0.0.1', () => resolve((net.address() as AddressInfo).port));
  });
  return {
    port: listening,
    url: smtpUrl(listening),
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function smtpUrl(port: number): string {
  return `smtp://127.0.0.1:${port}?ignoreTLS=true`;
}

/** A port that was free a moment ago: nobody answers there. */
export async function deadPort(): Promise<number> {
  const sink = await startSmtpSink();
  await sink.close();
  return sink.port;
}

/** Enough quoted-printable decoding to search a message's text. */
export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
