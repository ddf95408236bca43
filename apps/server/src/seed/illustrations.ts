import type { Illustration, IllustrationKind } from './catalog-types.ts';
import { luminance, mix, safeColour, shade, tint } from './colour.ts';

/**
 * Product pictures for the demo catalog, drawn by code as flat vector SVG (4:5 portrait,
 * viewBox 0 0 800 1000). No external references, fonts or scripts: the output is rasterised
 * by librsvg with the system's CJK fonts.
 */

const FONT = 'Noto Serif CJK TC, Noto Serif TC, serif';
const PAPER = '#FBF7EF';
const INK = '#1F2A24';

/** Label ink on paper: a deep shade of the body colour when it reads well, else plain ink. */
const paperInk = (body: string): string => (luminance(shade(body, 0.2)) < 0.1 ? shade(body, 0.2) : INK);

/** Text colour readable on the given fill. */
const inkOn = (fill: string): string => (luminance(fill) > 0.35 ? INK : PAPER);

/** Outline for light bodies that would otherwise melt into a light background. */
function edge(fill: string, width = 3): string {
  return luminance(fill) > 0.55
    ? ` stroke="${shade(fill, 0.22)}" stroke-width="${width}" stroke-linejoin="round"`
    : '';
}

export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );
}

const n = (v: number): string => String(Math.round(v * 10) / 10);

function labelChars(label: string | undefined): string[] {
  return Array.from((label ?? '').replace(/\s+/g, '')).slice(0, 4);
}

function verticalText(
  chars: readonly string[],
  cx: number,
  cy: number,
  size: number,
  fill: string,
  extra = '',
): string {
  const step = size * 1.1;
  const first = cy - (step * (chars.length - 1)) / 2;
  return chars
    .map(
      (ch, i) =>
        `<text x="${n(cx)}" y="${n(first + i * step + size * 0.36)}" font-family="${FONT}" font-size="${n(size)}" font-weight="700" text-anchor="middle" fill="${fill}"${extra}>${escapeXml(ch)}</text>`,
    )
    .join('');
}

function horizontalText(
  chars: readonly string[],
  cx: number,
  cy: number,
  size: number,
  fill: string,
  extra = '',
): string {
  return `<text x="${n(cx)}" y="${n(cy + size * 0.36)}" font-family="${FONT}" font-size="${n(size)}" font-weight="700" text-anchor="middle" letter-spacing="${n(size * 0.12)}" fill="${fill}"${extra}>${escapeXml(chars.join(''))}</text>`;
}

/** A small square seal (印章) in the accent colour. */
function seal(x: number, y: number, size: number, colour: string): string {
  return `<rect x="${n(x)}" y="${n(y)}" width="${n(size)}" height="${n(size)}" rx="3" fill="${colour}"/><rect x="${n(x + size * 0.2)}" y="${n(y + size * 0.2)}" width="${n(size * 0.6)}" height="${n(size * 0.6)}" fill="none" stroke="${PAPER}" stroke-width="2" opacity="0.8"/>`;
}

/** A single tea leaf, pointing up before rotation. */
function leaf(x: number, y: number, length: number, angle: number, fill: string, vein: string): string {
  const w = length * 0.38;
  return `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(angle)})"><path d="M0 ${n(length / 2)} C ${n(w)} ${n(length / 4)} ${n(w)} ${n(-length / 4)} 0 ${n(-length / 2)} C ${n(-w)} ${n(-length / 4)} ${n(-w)} ${n(length / 4)} 0 ${n(length / 2)} Z" fill="${fill}"/><path d="M0 ${n(length / 2)} L0 ${n(-length / 2.6)}" stroke="${vein}" stroke-width="1.5" opacity="0.6"/></g>`;
}

interface Palette {
  readonly p: string;
  readonly a: string;
  readonly bg: string;
  readonly chars: readonly string[];
}

function backdrop({ p, a, bg }: Palette): string {
  // Light bodies (porcelain, glass) would give invisible ridges: draw them from a darker tone.
  const ridge = luminance(p) > 0.4 ? shade(p, 0.55) : p;
  const far = mix(bg, ridge, 0.16);
  const near = mix(bg, ridge, 0.24);
  return [
    `<rect width="800" height="1000" fill="${bg}"/>`,
    `<circle cx="612" cy="168" r="40" fill="${mix(bg, a, 0.18)}"/>`,
    `<path d="M0 292 C 70 276 118 232 182 238 C 240 243 262 206 318 194 C 378 182 420 226 470 232 C 526 239 560 196 620 204 C 690 213 736 250 800 246" fill="none" stroke="${far}" stroke-width="3" stroke-linecap="round"/>`,
    `<path d="M0 352 C 88 340 140 300 214 306 C 282 312 318 278 382 284 C 452 290 488 330 560 322 C 640 313 700 284 800 296" fill="none" stroke="${near}" stroke-width="3" stroke-linecap="round"/>`,
    `<path d="M96 322 H 268 M 468 268 H 640 M 560 372 H 700" fill="none" stroke="#ffffff" stroke-width="8" stroke-linecap="round" opacity="0.55"/>`,
  ].join('');
}

function floorShadow(bg: string, cx: number, cy: number, rx: number): string {
  const s = shade(bg, 0.45);
  return `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(rx)}" ry="${n(rx * 0.11)}" fill="${s}" opacity="0.12"/><ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(rx * 0.72)}" ry="${n(rx * 0.075)}" fill="${s}" opacity="0.14"/>`;
}

function teaTin({ p, a, bg, chars }: Palette): string {
  const body = `M275 452 V828 A125 24 0 0 0 525 828 V452 Z`;
  const label = chars.length
    ? verticalText(chars, 400, chars.length <= 3 ? 622 : 640, chars.length === 4 ? 44 : 52, paperInk(p)) +
      (chars.length <= 3 ? seal(386, 734, 28, a) : '')
    : `${leaf(400, 640, 96, 18, p, PAPER)}${leaf(378, 668, 64, -28, tint(p, 0.25), PAPER)}`;
  return [
    floorShadow(bg, 400, 836, 230),
    `<clipPath id="tin-body"><path d="${body}"/></clipPath>`,
    `<path d="${body}" fill="${p}"${edge(p)}/>`,
    `<g clip-path="url(#tin-body)"><rect x="478" y="440" width="60" height="420" fill="${shade(p, 0.16)}"/><rect x="296" y="440" width="18" height="420" fill="#ffffff" opacity="0.16"/></g>`,
    `<rect x="335" y="520" width="130" height="262" rx="4" fill="${PAPER}"/>`,
    `<rect x="344" y="529" width="112" height="244" rx="2" fill="none" stroke="${a}" stroke-width="2" opacity="0.7"/>`,
    label,
    `<path d="M270 402 V462 A130 24 0 0 0 530 462 V402 Z" fill="${a}"${edge(a)}/>`,
    `<path d="M486 402 V462 A130 24 0 0 0 530 462 V402 Z" fill="${shade(a, 0.14)}"/>`,
    `<path d="M270 462 A130 24 0 0 0 530 462" fill="none" stroke="${shade(a, 0.28)}" stroke-width="3"/>`,
    `<ellipse cx="400" cy="402" rx="130" ry="24" fill="${tint(a, 0.22)}"${edge(a)}/>`,
    `<ellipse cx="400" cy="402" rx="100" ry="16" fill="none" stroke="#ffffff" stroke-width="3" opacity="0.3"/>`,
    `<rect x="290" y="414" width="14" height="50" fill="#ffffff" opacity="0.22"/>`,
  ].join('');
}

function teaPouch({ p, a, bg, chars }: Palette): string {
  const outline = `M288 380 L512 380 C 522 520 546 690 544 832 Q 400 850 256 832 C 254 690 278 520 288 380 Z`;
  const crimps = Array.from({ length: 27 }, (_, i) => `M${n(294 + i * 8)} 384 V 410`).join(' ');
  const panel = `M334 770 V 566 A66 66 0 0 1 466 566 V 770 Z`;
  const label = chars.length
    ? verticalText(chars, 400, chars.length === 4 ? 664 : 656, chars.length === 4 ? 40 : 48, inkOn(a))
    : `${leaf(400, 650, 90, 20, inkOn(a), a)}`;
  return [
    floorShadow(bg, 400, 840, 220),
    `<clipPath id="pouch-body"><path d="${outline}"/></clipPath>`,
    `<path d="${outline}" fill="${p}"${edge(p)}/>`,
    `<g clip-path="url(#pouch-body)">`,
    `<rect x="240" y="376" width="320" height="38" fill="${shade(p, 0.14)}"/>`,
    `<path d="${crimps}" stroke="${shade(p, 0.32)}" stroke-width="2" opacity="0.5"/>`,
    `<path d="M478 380 C 500 520 522 690 520 840 L 560 840 L 560 380 Z" fill="${shade(p, 0.12)}"/>`,
    `<path d="M300 430 C 292 560 282 700 282 820" stroke="#ffffff" stroke-width="14" stroke-linecap="round" opacity="0.13" fill="none"/>`,
    `<path d="M260 800 Q 400 822 540 800" fill="none" stroke="${shade(p, 0.25)}" stroke-width="3"/>`,
    `</g>`,
    `<path d="M286 424 l14 6 l-14 6 Z M514 424 l-14 6 l14 6 Z" fill="${bg}"/>`,
    `<path d="M294 452 H 506" stroke="${shade(p, 0.3)}" stroke-width="4" stroke-linecap="round"/>`,
    `<path d="M294 459 H 506" stroke="#ffffff" stroke-width="2" stroke-linecap="round" opacity="0.25"/>`,
    `<path d="${panel}" fill="${a}"/>`,
    `<path d="M346 760 V 568 A54 54 0 0 1 454 568 V 760 Z" fill="none" stroke="${inkOn(a)}" stroke-width="1.5" opacity="0.45"/>`,
    label,
  ].join('');
}

function teaBagBox({ p, a, bg, chars }: Palette): string {
  const tagPaper = PAPER;
  const label = chars.length
    ? horizontalText(chars, 362, 678, chars.length === 4 ? 46 : 54, inkOn(a))
    : `<path d="M272 678 H 452" stroke="${inkOn(a)}" stroke-width="3" opacity="0.6"/>`;
  return [
    floorShadow(bg, 420, 838, 250),
    // Box: front, top, side.
    `<path d="M212 560 H 512 V 832 H 212 Z" fill="${p}"${edge(p)}/>`,
    `<path d="M212 560 L 284 508 H 584 L 512 560 Z" fill="${tint(p, 0.16)}"${edge(p)}/>`,
    `<path d="M512 560 L 584 508 V 780 L 512 832 Z" fill="${shade(p, 0.2)}"${edge(p)}/>`,
    `<path d="M302 520 H 500" stroke="${shade(p, 0.35)}" stroke-width="5" stroke-linecap="round"/>`,
    `<rect x="212" y="624" width="300" height="108" fill="${a}"/>`,
    `<path d="M512 624 L 584 572 V 680 L 512 732 Z" fill="${shade(a, 0.2)}"/>`,
    label,
    `<rect x="226" y="572" width="14" height="248" fill="#ffffff" opacity="0.14"/>`,
    // Tea bag string from the slot, over the front edge, to a hanging tag.
    `<path d="M360 520 C 350 470 300 470 288 520 C 282 546 280 560 280 586" fill="none" stroke="${shade(bg, 0.45)}" stroke-width="2"/>`,
    `<rect x="256" y="584" width="48" height="58" rx="4" fill="${tagPaper}" stroke="${shade(a, 0.15)}" stroke-width="2"/>`,
    `<rect x="256" y="584" width="48" height="14" rx="4" fill="${a}"/>`,
    `<circle cx="280" cy="613" r="6" fill="none" stroke="${p}" stroke-width="2"/>`,
    // A pyramid tea bag resting in front of the box.
    `<g transform="translate(600 800) rotate(-8)">`,
    `<path d="M-58 30 L 0 -52 L 58 30 Z" fill="${tint(mix(a, '#E9DFC9', 0.6), 0.3)}" stroke="${shade('#E9DFC9', 0.2)}" stroke-width="2" opacity="0.95"/>`,
    `<path d="M0 -52 L 6 30" stroke="${shade('#E9DFC9', 0.18)}" stroke-width="1.5"/>`,
    `${leaf(-16, 10, 26, -30, shade(p, 0.05), PAPER)}${leaf(18, 14, 22, 40, p, PAPER)}`,
    `<path d="M0 -52 C 12 -80 40 -84 56 -70" fill="none" stroke="${shade(bg, 0.45)}" stroke-width="2"/>`,
    `<rect x="50" y="-86" width="28" height="34" rx="3" fill="${tagPaper}" stroke="${shade(a, 0.15)}" stroke-width="2"/>`,
    `</g>`,
  ].join('');
}

function teapot({ p, a, bg, chars }: Palette): string {
  const inscription = chars.length ? verticalText(chars, 486, 688, 30, tint(p, 0.5), ' opacity="0.85"') : '';
  return [
    floorShadow(bg, 410, 834, 240),
    // Handle and spout behind the body.
    `<path d="M552 616 C 660 590 676 772 556 772" fill="none" stroke="${shade(p, 0.08)}" stroke-width="28" stroke-linecap="round"/>`,
    `<path d="M262 704 C 214 694 180 650 150 580 L 172 566 C 196 618 226 646 268 644 Z" fill="${shade(p, 0.04)}"${edge(p)}/>`,
    `<ellipse cx="161" cy="573" rx="14" ry="7" transform="rotate(-32 161 573)" fill="${shade(p, 0.3)}"/>`,
    // Body, foot, highlights.
    `<ellipse cx="400" cy="820" rx="104" ry="16" fill="${shade(p, 0.25)}"/>`,
    `<clipPath id="pot-body"><ellipse cx="405" cy="694" rx="172" ry="130"/></clipPath>`,
    `<ellipse cx="405" cy="694" rx="172" ry="130" fill="${p}"${edge(p)}/>`,
    `<g clip-path="url(#pot-body)"><ellipse cx="470" cy="760" rx="190" ry="110" fill="${shade(p, 0.12)}"/></g>`,
    `<path d="M292 624 C 270 660 272 720 300 760" fill="none" stroke="#ffffff" stroke-width="16" stroke-linecap="round" opacity="0.18"/>`,
    `<path d="M240 700 C 300 716 510 716 570 700" fill="none" stroke="${shade(p, 0.22)}" stroke-width="2" opacity="0.6"/>`,
    inscription,
    // Lid and knob.
    `<ellipse cx="405" cy="574" rx="98" ry="22" fill="${shade(p, 0.18)}"/>`,
    `<path d="M316 572 C 330 530 480 530 494 572 Z" fill="${a}"${edge(a)}/>`,
    `<path d="M440 540 C 470 548 486 560 494 572 L 456 572 Z" fill="${shade(a, 0.14)}"/>`,
    `<ellipse cx="405" cy="572" rx="89" ry="12" fill="${shade(a, 0.1)}"/>`,
    `<ellipse cx="405" cy="532" rx="28" ry="9" fill="${shade(a, 0.12)}"/>`,
    `<circle cx="405" cy="516" r="20" fill="${tint(a, 0.12)}"${edge(a)}/>`,
    `<circle cx="398" cy="509" r="6" fill="#ffffff" opacity="0.3"/>`,
  ].join('');
}

/** A small flared tea cup standing on its rim's base line, with optional saucer. */
function smallCup(
  cx: number,
  base: number,
  scale: number,
  body: string,
  tea: string,
  saucer?: string,
): string {
  const w = 86 * scale;
  const h = 92 * scale;
  const f = 34 * scale;
  const rim = base - h;
  const parts: string[] = [];
  if (saucer) {
    parts.push(
      `<ellipse cx="${n(cx)}" cy="${n(base + 10 * scale)}" rx="${n(128 * scale)}" ry="${n(26 * scale)}" fill="${shade(saucer, 0.2)}"/>`,
    );
    parts.push(
      `<ellipse cx="${n(cx)}" cy="${n(base)}" rx="${n(128 * scale)}" ry="${n(26 * scale)}" fill="${saucer}"${edge(saucer, 2)}/>`,
    );
    parts.push(
      `<ellipse cx="${n(cx)}" cy="${n(base)}" rx="${n(70 * scale)}" ry="${n(13 * scale)}" fill="${shade(saucer, 0.1)}"/>`,
    );
  }
  parts.push(
    `<ellipse cx="${n(cx)}" cy="${n(base - 2)}" rx="${n(f + 4)}" ry="${n(7 * scale)}" fill="${shade(body, 0.2)}"/>`,
  );
  parts.push(
    `<path d="M${n(cx - w)} ${n(rim)} C ${n(cx - w)} ${n(rim + h * 0.62)} ${n(cx - f - 14 * scale)} ${n(base - 6)} ${n(cx - f)} ${n(base - 4)} L ${n(cx + f)} ${n(base - 4)} C ${n(cx + f + 14 * scale)} ${n(base - 6)} ${n(cx + w)} ${n(rim + h * 0.62)} ${n(cx + w)} ${n(rim)} Z" fill="${body}"${edge(body, 2)}/>`,
  );
  parts.push(
    `<path d="M${n(cx + w * 0.45)} ${n(rim + 6)} C ${n(cx + w * 0.5)} ${n(rim + h * 0.6)} ${n(cx + f * 0.7)} ${n(base - 8)} ${n(cx + f * 0.4)} ${n(base - 6)} L ${n(cx + f)} ${n(base - 4)} C ${n(cx + f + 14 * scale)} ${n(base - 6)} ${n(cx + w)} ${n(rim + h * 0.62)} ${n(cx + w)} ${n(rim)} Z" fill="${shade(body, 0.08)}"/>`,
  );
  parts.push(
    `<ellipse cx="${n(cx)}" cy="${n(rim)}" rx="${n(w)}" ry="${n(17 * scale)}" fill="${tint(body, 0.3)}"${edge(body, 2)}/>`,
  );
  parts.push(
    `<ellipse cx="${n(cx)}" cy="${n(rim + 4 * scale)}" rx="${n(w - 10 * scale)}" ry="${n(12 * scale)}" fill="${tea}"/>`,
  );
  parts.push(
    `<ellipse cx="${n(cx - 20 * scale)}" cy="${n(rim + 2 * scale)}" rx="${n(22 * scale)}" ry="${n(4 * scale)}" fill="#ffffff" opacity="0.3"/>`,
  );
  parts.push(
    `<path d="M${n(cx - w + 16 * scale)} ${n(rim + 18 * scale)} C ${n(cx - w + 20 * scale)} ${n(rim + h * 0.5)} ${n(cx - f - 4)} ${n(base - 16)} ${n(cx - f + 4)} ${n(base - 12)}" fill="none" stroke="#ffffff" stroke-width="${n(7 * scale)}" stroke-linecap="round" opacity="0.3"/>`,
  );
  return parts.join('');
}

const teaLiquor = (a: string): string => mix(a, '#C8903F', 0.55);

function cups({ p, a, bg, chars }: Palette): string {
  const tea = teaLiquor(a);
  const label = chars.length
    ? horizontalText(chars, 318, 760, chars.length === 4 ? 28 : 34, shade(a, 0.25), ' opacity="0.9"')
    : '';
  return [
    floorShadow(bg, 410, 846, 290),
    smallCup(512, 690, 1.12, p, tea, a),
    smallCup(318, 812, 1.36, p, tea, a),
    label,
  ].join('');
}

function bottle({ p, a, bg, chars }: Palette): string {
  const glass = `M322 438 Q 322 388 356 372 V 334 H 444 V 372 Q 478 388 478 438 V 812 Q 478 846 446 846 H 354 Q 322 846 322 812 Z`;
  const liquid = mix(p, '#ffffff', 0.15);
  const green = '#3F6B4F';
  const leaves = [
    leaf(388, 586, 40, 24, green, PAPER),
    leaf(412, 560, 36, -30, shade(green, 0.15), PAPER),
    leaf(396, 528, 32, 70, tint(green, 0.2), PAPER),
    leaf(414, 604, 30, -70, green, PAPER),
    leaf(446, 650, 28, 40, tint(green, 0.15), PAPER),
    leaf(430, 760, 34, -20, green, PAPER),
    leaf(360, 800, 26, 80, shade(green, 0.1), PAPER),
  ].join('');
  const label = chars.length
    ? `<rect x="322" y="660" width="156" height="76" fill="#ffffff" opacity="0.7"/>${horizontalText(chars, 400, 698, chars.length === 4 ? 30 : 38, shade(a, 0.1))}`
    : '';
  return [
    floorShadow(bg, 400, 848, 170),
    `<clipPath id="bottle-glass"><path d="${glass}"/></clipPath>`,
    `<path d="${glass}" fill="#ffffff" opacity="0.45"/>`,
    `<g clip-path="url(#bottle-glass)">`,
    `<rect x="300" y="452" width="200" height="420" fill="${liquid}" opacity="0.55"/>`,
    `<path d="M300 452 Q 350 444 400 452 T 500 452" fill="none" stroke="#ffffff" stroke-width="3" opacity="0.6"/>`,
    `<rect x="466" y="380" width="14" height="470" fill="${shade(p, 0.2)}" opacity="0.18"/>`,
    `</g>`,
    // The removable filter holding the leaves.
    `<rect x="372" y="334" width="56" height="300" rx="12" fill="#ffffff" opacity="0.22" stroke="${shade(a, 0.1)}" stroke-width="2" stroke-dasharray="2 6"/>`,
    leaves,
    `<path d="${glass}" fill="none" stroke="${shade(p, 0.3)}" stroke-width="3" opacity="0.55"/>`,
    `<rect x="338" y="420" width="13" height="380" rx="6" fill="#ffffff" opacity="0.55"/>`,
    `<rect x="358" y="440" width="5" height="200" rx="2" fill="#ffffff" opacity="0.4"/>`,
    label,
    // Cap.
    `<rect x="346" y="268" width="108" height="70" rx="10" fill="${a}"${edge(a)}/>`,
    `<rect x="420" y="268" width="34" height="70" rx="10" fill="${shade(a, 0.15)}"/>`,
    `<path d="M362 280 V 326 M 376 280 V 326 M 390 280 V 326 M 404 280 V 326" stroke="${tint(a, 0.25)}" stroke-width="3" stroke-linecap="round" opacity="0.6"/>`,
    `<rect x="340" y="330" width="120" height="10" rx="4" fill="${shade(a, 0.25)}"/>`,
  ].join('');
}

function tray({ p, a, bg, chars }: Palette): string {
  const slats = [718, 744, 770].map((y) => `M150 ${y} H 650`).join(' ');
  const tea = teaLiquor(p);
  const plaqueWidth = chars.length * 28 + 28;
  const plaque = chars.length
    ? `<rect x="${n(400 - plaqueWidth / 2)}" y="802" width="${n(plaqueWidth)}" height="36" rx="3" fill="${tint(p, 0.4)}"/>${horizontalText(chars, 400, 820, 24, shade(p, 0.5))}`
    : '';
  return [
    floorShadow(bg, 400, 856, 320),
    `<rect x="110" y="700" width="580" height="148" rx="22" fill="${shade(p, 0.24)}"/>`,
    `<rect x="110" y="680" width="580" height="124" rx="22" fill="${p}"${edge(p)}/>`,
    `<path d="${slats}" stroke="${shade(p, 0.18)}" stroke-width="4" stroke-linecap="round"/>`,
    `<path d="M170 700 C 260 692 320 708 420 698 S 580 692 630 704" fill="none" stroke="${tint(p, 0.2)}" stroke-width="2" opacity="0.7"/>`,
    `<rect x="132" y="690" width="536" height="8" rx="4" fill="#ffffff" opacity="0.15"/>`,
    plaque,
    // A cup at the back, the fair cup (茶海) on the right, two cups in front.
    smallCup(330, 716, 0.74, a, tea),
    `<path d="M508 566 L 618 566 L 608 744 Q 563 760 518 744 Z" fill="${a}" opacity="0.94"${edge(a, 2)}/>`,
    `<path d="M508 566 L 488 550 L 514 558 Z" fill="${a}"${edge(a, 2)}/>`,
    `<path d="M512 630 L 614 630 L 608 744 Q 563 760 518 744 Z" fill="${tea}" opacity="0.75"/>`,
    `<path d="M590 566 L 614 566 L 608 744 Q 598 748 588 750 Z" fill="${shade(a, 0.08)}" opacity="0.6"/>`,
    `<ellipse cx="563" cy="566" rx="55" ry="10" fill="${tint(a, 0.3)}"${edge(a, 2)}/>`,
    `<rect x="520" y="578" width="9" height="150" rx="4" fill="#ffffff" opacity="0.35"/>`,
    smallCup(232, 764, 0.86, a, tea),
    smallCup(424, 770, 0.86, a, tea),
  ].join('');
}

function giftBox({ p, a, bg, chars }: Palette): string {
  const ribbonTop = tint(a, 0.18);
  const ribbonSide = shade(a, 0.2);
  const card = chars.length
    ? `<rect x="418" y="612" width="88" height="184" rx="3" fill="${PAPER}"/><rect x="425" y="619" width="74" height="170" fill="none" stroke="${a}" stroke-width="1.5" opacity="0.7"/>${verticalText(chars, 462, 704, chars.length === 4 ? 34 : 40, paperInk(p))}`
    : `${seal(446, 690, 34, a)}`;
  return [
    floorShadow(bg, 420, 838, 260),
    // Box body and lid seam.
    `<path d="M210 500 H 530 V 830 H 210 Z" fill="${p}"${edge(p)}/>`,
    `<path d="M210 500 H 530 V 578 H 210 Z" fill="${tint(p, 0.06)}"/>`,
    `<path d="M210 500 L 290 445 H 610 L 530 500 Z" fill="${tint(p, 0.16)}"${edge(p)}/>`,
    `<path d="M530 500 L 610 445 V 775 L 530 830 Z" fill="${shade(p, 0.2)}"${edge(p)}/>`,
    `<path d="M210 578 H 530 L 610 523" fill="none" stroke="${shade(p, 0.3)}" stroke-width="3"/>`,
    `<rect x="222" y="510" width="12" height="310" fill="#ffffff" opacity="0.12"/>`,
    // Ribbon: front band, over the top, across the top and down the side.
    `<rect x="340" y="500" width="38" height="330" fill="${a}"/>`,
    `<path d="M340 500 L 420 445 H 458 L 378 500 Z" fill="${ribbonTop}"/>`,
    `<path d="M242 478 H 562 L 578 467 H 258 Z" fill="${ribbonTop}"/>`,
    `<path d="M562 478 L 578 467 V 797 L 562 808 Z" fill="${ribbonSide}"/>`,
    `<rect x="346" y="500" width="6" height="330" fill="#ffffff" opacity="0.2"/>`,
    card,
    // Bow.
    `<path d="M402 474 L 372 530 L 388 534 L 408 482 Z M 410 474 L 450 524 L 462 516 L 416 470 Z" fill="${ribbonSide}"/>`,
    `<path d="M404 470 C 360 416 300 424 316 458 C 328 484 374 486 404 470 Z" fill="${a}"/>`,
    `<path d="M412 470 C 444 410 512 408 502 446 C 494 476 448 484 412 470 Z" fill="${a}"/>`,
    `<path d="M404 470 C 370 446 340 444 330 456" fill="none" stroke="${ribbonSide}" stroke-width="3" opacity="0.7"/>`,
    `<path d="M412 470 C 440 444 478 432 492 444" fill="none" stroke="${ribbonSide}" stroke-width="3" opacity="0.7"/>`,
    `<ellipse cx="408" cy="470" rx="16" ry="12" fill="${shade(a, 0.12)}"/>`,
    `<ellipse cx="404" cy="466" rx="6" ry="4" fill="#ffffff" opacity="0.3"/>`,
  ].join('');
}

const DRAW: Record<IllustrationKind, (palette: Palette) => string> = {
  'tea-tin': teaTin,
  'tea-pouch': teaPouch,
  'tea-bag-box': teaBagBox,
  teapot,
  cup: cups,
  bottle,
  tray,
  'gift-box': giftBox,
};

/** Renders a product illustration as a complete, self-contained SVG document (4:5 portrait). */
export function renderIllustration(art: Illustration, size = 1000): string {
  const palette: Palette = {
    p: safeColour(art.primary, '#3F6B4F'),
    a: safeColour(art.accent, '#B7793B'),
    bg: safeColour(art.background, '#F7F3EC'),
    chars: labelChars(art.label),
  };
  const draw = DRAW[art.kind] ?? teaTin;
  const width = Math.round(size);
  const height = Math.round(size * 1.25);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 800 1000">`,
    backdrop(palette),
    draw(palette),
    `</svg>`,
  ].join('\n');
}
