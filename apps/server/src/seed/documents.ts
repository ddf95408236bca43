import type { CertificateArt } from './content-types.ts';

/**
 * Certificates and downloadable documents of the demo content, drawn by code: SVG rendered by
 * librsvg with the system's CJK fonts (no external references), and JPEG pages bound into a
 * hand-written PDF so the seed needs no PDF library.
 */

const SERIF = 'Noto Serif CJK TC, Noto Serif TC, serif';
const SANS = 'Noto Sans CJK TC, Noto Sans TC, sans-serif';
const PAPER = '#FBF7EF';
const INK = '#1F2A24';
const INK_MUTED = '#5B665F';
const TEA = '#3F6B4F';
const TEA_DARK = '#2E5039';
const AMBER = '#B7793B';
const LINE = '#E3DCD0';
const SEAL = '#B3261E';

/** Text safe inside SVG elements and attribute values. */
function esc(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );
}

/** Rough advance of a string in em: full-width characters 1, Latin letters and digits about 0.55. */
function emWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === ' ') w += 0.3;
    else if (code < 0x2e80) w += 0.58;
    else w += 1;
  }
  return w;
}

/** Breaks text into lines of at most `maxEm` (keeps Latin words and digit runs together). */
function wrap(text: string, maxEm: number): string[] {
  const tokens = text.match(/[A-Za-z0-9$,.\-–/]+|\s+|./gu) ?? [];
  const lines: string[] = [];
  let current = '';
  for (const token of tokens) {
    if (current !== '' && emWidth(current + token) > maxEm) {
      lines.push(current.trimEnd());
      current = token.trimStart();
    } else {
      current += token;
    }
  }
  if (current.trim() !== '') lines.push(current.trimEnd());
  return lines;
}

/** Up to four CJK characters for the seal, read right column first, top to bottom. */
function sealCharacters(holder: string): string[] {
  const cjk = [...holder].filter((c) => /\p{Script=Han}/u.test(c));
  const chars = cjk.slice(0, 4);
  while (chars.length < 4) chars.push('印');
  return chars;
}

/** A patent or trademark certificate: portrait, 1000 × 1400, double border, red seal. */
export function renderCertificate(art: CertificateArt): string {
  const W = 1000;
  const H = 1400;
  // Long titles get a smaller size so the seal and the closing lines keep their place.
  let titleSize = 42;
  let titleLines = wrap(art.title, 12);
  if (titleLines.length > 2) {
    titleSize = 34;
    titleLines = wrap(art.title, 15).slice(0, 3);
  }
  const holderSize = Math.min(40, Math.floor(500 / Math.max(1, emWidth(art.holder))));
  const labelX = 170;
  const valueX = 370;
  const rows: string[] = [];
  let y = 520;
  const row = (label: string, lines: string[], size: number) => {
    rows.push(
      `<text x="${labelX}" y="${y}" font-size="34" fill="${INK_MUTED}" letter-spacing="6">${esc(label)}</text>`,
    );
    lines.forEach((line, i) => {
      rows.push(
        `<text x="${valueX}" y="${y + i * (size + 18)}" font-size="${size}" fill="${INK}" font-weight="700">${esc(line)}</text>`,
      );
    });
    y += Math.max(1, lines.length) * (size + 18) + 46;
  };
  row('證書號數', [art.number], 38);
  row('名　　稱', titleLines, titleSize);
  row('權 利 人', [art.holder], Math.max(24, holderSize));
  row('日　　期', [art.date], 38);

  const [s1, s2, s3, s4] = sealCharacters(art.holder);
  const cx = 730;
  const cy = Math.min(1150, Math.max(1090, y + 110));

  const corner = (x: number, yy: number, sx: number, sy: number) =>
    `<path d="M ${x} ${yy + sy * 70} L ${x} ${yy} L ${x + sx * 70} ${yy}" fill="none" stroke="${AMBER}" stroke-width="6"/>` +
    `<rect x="${x + sx * 14 - 7}" y="${yy + sy * 14 - 7}" width="14" height="14" fill="${AMBER}" transform="rotate(45 ${x + sx * 14} ${yy + sy * 14})"/>`;

  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(art.alt)}">
<title>${esc(art.alt)}</title>
<rect width="${W}" height="${H}" fill="${PAPER}"/>
<rect x="34" y="34" width="${W - 68}" height="${H - 68}" fill="none" stroke="${TEA_DARK}" stroke-width="12"/>
<rect x="62" y="62" width="${W - 124}" height="${H - 124}" fill="none" stroke="${AMBER}" stroke-width="3"/>
<rect x="74" y="74" width="${W - 148}" height="${H - 148}" fill="none" stroke="${TEA_DARK}" stroke-width="1.5"/>
${corner(96, 96, 1, 1)}${corner(W - 96, 96, -1, 1)}${corner(96, H - 96, 1, -1)}${corner(W - 96, H - 96, -1, -1)}
<g font-family="${SERIF}">
<text x="${W / 2}" y="200" text-anchor="middle" font-size="30" fill="${TEA}" letter-spacing="12">山嵐茶事</text>
<text x="${W / 2}" y="310" text-anchor="middle" font-size="76" font-weight="700" fill="${TEA_DARK}" letter-spacing="14">${esc(art.heading)}</text>
<line x1="250" y1="360" x2="750" y2="360" stroke="${AMBER}" stroke-width="3"/>
<circle cx="${W / 2}" cy="360" r="9" fill="${AMBER}"/>
<line x1="300" y1="374" x2="700" y2="374" stroke="${AMBER}" stroke-width="1.5"/>
${rows.join('\n')}
<line x1="${labelX}" y1="${y - 10}" x2="${W - labelX}" y2="${y - 10}" stroke="${LINE}" stroke-width="2"/>
<text x="${labelX}" y="${y + 60}" font-size="32" fill="${INK}">上列權利經審查合於規定，</text>
<text x="${labelX}" y="${y + 112}" font-size="32" fill="${INK}">特發給本證書，以資證明。</text>
<g transform="rotate(-8 ${cx} ${cy})" opacity="0.88">
<circle cx="${cx}" cy="${cy}" r="112" fill="none" stroke="${SEAL}" stroke-width="9"/>
<circle cx="${cx}" cy="${cy}" r="96" fill="none" stroke="${SEAL}" stroke-width="2.5"/>
<text x="${cx + 38}" y="${cy - 8}" text-anchor="middle" font-size="68" font-weight="700" fill="${SEAL}">${esc(s1 ?? '')}</text>
<text x="${cx + 38}" y="${cy + 64}" text-anchor="middle" font-size="68" font-weight="700" fill="${SEAL}">${esc(s2 ?? '')}</text>
<text x="${cx - 38}" y="${cy - 8}" text-anchor="middle" font-size="68" font-weight="700" fill="${SEAL}">${esc(s3 ?? '')}</text>
<text x="${cx - 38}" y="${cy + 64}" text-anchor="middle" font-size="68" font-weight="700" fill="${SEAL}">${esc(s4 ?? '')}</text>
</g>
<text x="${W / 2}" y="${H - 130}" text-anchor="middle" font-size="26" fill="${INK_MUTED}" letter-spacing="4">${esc(art.number)}</text>
</g>
</svg>`;
}

/** One page of a downloadable document: A4 portrait (1240 × 1754), header, heading, body, footer. */
export function renderDocumentPage(
  page: { heading: string; lines: readonly string[] },
  pageNo: number,
  total: number,
  title: string,
): string {
  const W = 1240;
  const H = 1754;
  const margin = 100;
  const textWidth = W - margin * 2;
  const longest = Math.max(1, ...page.lines.map(emWidth));
  const size = Math.max(28, Math.min(40, Math.floor(textWidth / longest)));
  const lineHeight = Math.round(size * 1.8);
  const headingLines = wrap(page.heading, textWidth / 60).slice(0, 2);
  const headingBottom = 300 + (headingLines.length - 1) * 78;
  const bodyTop = headingBottom + 130;
  const maxLines = Math.floor((1560 - bodyTop) / lineHeight) + 1;
  const body = page.lines
    .slice(0, maxLines)
    .map(
      (line, i) =>
        `<text x="${margin}" y="${bodyTop + i * lineHeight}" font-size="${size}" fill="${INK}">${esc(line)}</text>`,
    )
    .join('\n');
  const headerTitle = wrap(title, 20)[0] ?? '';

  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">
<rect width="${W}" height="${H}" fill="#FFFFFF"/>
<g font-family="${SANS}">
<rect x="${margin}" y="78" width="14" height="44" fill="${TEA}"/>
<text x="${margin + 30}" y="114" font-size="32" font-weight="700" fill="${TEA_DARK}" letter-spacing="4">山嵐茶事</text>
<text x="${W - margin}" y="114" text-anchor="end" font-size="26" fill="${INK_MUTED}">${esc(headerTitle)}</text>
<line x1="${margin}" y1="150" x2="${W - margin}" y2="150" stroke="${LINE}" stroke-width="3"/>
${headingLines.map((line, i) => `<text x="${margin}" y="${300 + i * 78}" font-size="60" font-weight="700" fill="${INK}">${esc(line)}</text>`).join('\n')}
<rect x="${margin}" y="${headingBottom + 36}" width="96" height="8" fill="${AMBER}"/>
<path d="M ${margin} 1610 L 330 1470 L 470 1550 L 690 1420 L 900 1545 L 1010 1490 L ${W - margin} 1560 L ${W - margin} 1610 Z" fill="#EEF2EC"/>
<path d="M ${margin} 1610 L 260 1545 L 420 1590 L 610 1510 L 820 1600 L ${W - margin} 1530 L ${W - margin} 1610 Z" fill="#E2EAE2"/>
${body}
<line x1="${margin}" y1="1640" x2="${W - margin}" y2="1640" stroke="${LINE}" stroke-width="3"/>
<text x="${margin}" y="1696" font-size="24" fill="${INK_MUTED}">山嵐茶事・南投縣鹿谷鄉</text>
<text x="${W - margin}" y="1696" text-anchor="end" font-size="26" fill="${INK_MUTED}">第 ${pageNo} 頁，共 ${total} 頁</text>
</g>
</svg>`;
}

/**
 * Binds JPEG pages into a minimal PDF 1.4: one A4 page per picture, the JPEG embedded as a
 * DCTDecode image XObject stretched over the page. Offsets in the xref table are byte offsets.
 */
export function jpegPagesToPdf(pages: readonly { jpeg: Buffer; width: number; height: number }[]): Buffer {
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    chunks.push(buf);
    length += buf.length;
  };
  const object = (id: number, parts: (Buffer | string)[]) => {
    offsets[id] = length;
    push(`${id} 0 obj\n`);
    for (const part of parts) push(part);
    push('\nendobj\n');
  };

  // Objects: 1 catalog, 2 page tree, then per page: page, content stream, image.
  const pageIds = pages.map((_, i) => 3 + i * 3);
  const size = 3 + pages.length * 3;

  push('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n');
  object(1, ['<< /Type /Catalog /Pages 2 0 R >>']);
  object(2, [
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`,
  ]);
  pages.forEach((page, i) => {
    const pageId = pageIds[i]!;
    const contentId = pageId + 1;
    const imageId = pageId + 2;
    const content = 'q 595 0 0 842 0 0 cm /Im1 Do Q\n';
    object(pageId, [
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im1 ${imageId} 0 R >> /ProcSet [/PDF /ImageC] >> /Contents ${contentId} 0 R >>`,
    ]);
    object(contentId, [
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n`,
      content,
      'endstream',
    ]);
    object(imageId, [
      `<< /Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${page.jpeg.length} >>\nstream\n`,
      page.jpeg,
      '\nendstream',
    ]);
  });

  const xrefOffset = length;
  const rows = ['0000000000 65535 f \n'];
  for (let id = 1; id < size; id++) rows.push(`${String(offsets[id] ?? 0).padStart(10, '0')} 00000 n \n`);
  push(`xref\n0 ${size}\n${rows.join('')}`);
  push(`trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`);
  return Buffer.concat(chunks);
}
