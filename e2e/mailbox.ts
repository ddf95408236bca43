import fs from 'node:fs';
import path from 'node:path';

export interface ReceivedMail {
  to: string;
  subject: string;
  /** Where answering the mail goes (a contact message: its sender). */
  replyTo: string;
  text: string;
  file: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes: number[] = [];
  const joined = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < joined.length; i++) {
    const c = joined[i]!;
    if (c === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(c, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

/** Just enough MIME to read what nodemailer sends: headers, and the text/plain part decoded. */
export function parseMail(raw: string, file: string): ReceivedMail {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers)?.[1]?.trim() ?? '';
  const body = rest.join('\r\n\r\n');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  let text = body;
  if (boundary) {
    const part = body.split(`--${boundary}`).find((p) => /content-type:\s*text\/plain/i.test(p)) ?? '';
    const [partHead = '', ...partBody] = part.split(/\r?\n\r?\n/);
    const content = partBody.join('\r\n\r\n').trim();
    text = /base64/i.test(partHead)
      ? Buffer.from(content, 'base64').toString('utf8')
      : /quoted-printable/i.test(partHead)
        ? decodeQuotedPrintable(content)
        : content;
  }
  return {
    to: header('X-Envelope-To'),
    subject: decodeHeader(header('Subject')),
    replyTo: header('Reply-To'),
    text,
    file,
  };
}

/** Waits for a mail to `to` whose subject contains `subject`, newer than any already seen. */
export async function waitForMail(
  to: string,
  subject: string,
  options: { after?: number; timeoutMs?: number } = {},
): Promise<ReceivedMail> {
  const dir = process.env.E2E_MAIL_DIR!;
  const until = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort().reverse() : [];
    for (const name of files) {
      if (options.after && Number(name.split('-')[0]) < options.after) continue;
      const file = path.join(dir, name);
      const mail = parseMail(fs.readFileSync(file, 'utf8'), file);
      if (mail.to === to && mail.subject.includes(subject)) return mail;
    }
    if (Date.now() > until) throw new Error(`no mail "${subject}" to ${to} arrived`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function linkIn(mail: ReceivedMail): string {
  const link = /https?:\/\/\S+\?code=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no link in mail ${mail.file}`);
  return link;
}
