import type { PortraitArt } from './content-types.ts';
import { luminance, mix, safeColour, shade, tint } from './colour.ts';

/**
 * Portraits of the demo team and tea masters, drawn by code as calm, flat head-and-shoulders
 * illustrations (square, viewBox 0 0 800 800). No photos, text, external references or scripts.
 */

const GREY_HAIR = '#CBCDC9';
const FEATURE = '#2B2522';

interface Colours {
  readonly bg: string;
  readonly skin: string;
  readonly hair: string;
  readonly cloth: string;
}

/* Geometry shared by the layers: head centre (400, 360), face 240 × 290. */
const HEAD = { cx: 400, cy: 360, rx: 120, ry: 145 } as const;

function backdrop(c: Colours): string {
  return [
    `<rect width="800" height="800" fill="${c.bg}"/>`,
    `<circle cx="400" cy="410" r="330" fill="${tint(c.bg, 0.45)}"/>`,
  ].join('');
}

/** Hair that sits behind the head and shoulders. */
function hairBack(style: PortraitArt['hairStyle'], hair: string): string {
  const back = shade(hair, 0.12);
  switch (style) {
    case 'long':
      return `<path d="M262 340 C258 210 320 188 400 188 C480 188 542 210 538 340 L548 600 C548 640 520 650 490 640 L310 640 C280 650 252 640 252 600 Z" fill="${back}"/>`;
    case 'ponytail':
      return `<path d="M500 268 C590 262 628 330 612 430 C602 500 622 540 650 566 C596 574 552 532 548 470 C544 410 548 350 500 318 Z" fill="${back}"/>`;
    case 'bun':
      return `<circle cx="400" cy="196" r="62" fill="${hair}"/><path d="M352 214 Q400 236 448 214" fill="none" stroke="${shade(hair, 0.25)}" stroke-width="6" stroke-linecap="round"/>`;
    default:
      return '';
  }
}

function shoulders(c: Colours): string {
  const cloth = c.cloth;
  const fold = shade(cloth, 0.12);
  return [
    // torso
    `<path d="M120 800 C120 676 170 610 262 586 C300 576 340 572 400 572 C460 572 500 576 538 586 C630 610 680 676 680 800 Z" fill="${cloth}"${luminance(cloth) > 0.6 ? ` stroke="${shade(cloth, 0.2)}" stroke-width="4"` : ''}/>`,
    // neck
    `<path d="M352 470 L352 568 C352 598 448 598 448 568 L448 470 Z" fill="${shade(c.skin, 0.06)}"/>`,
    `<path d="M352 520 C380 548 420 548 448 520 L448 470 L352 470 Z" fill="${shade(c.skin, 0.16)}" opacity="0.55"/>`,
    // crew collar
    `<path d="M336 578 C356 622 444 622 464 578" fill="none" stroke="${fold}" stroke-width="14" stroke-linecap="round"/>`,
    // soft arm folds
    `<path d="M210 800 C214 730 228 690 250 662" fill="none" stroke="${fold}" stroke-width="6" stroke-linecap="round" opacity="0.7"/>`,
    `<path d="M590 800 C586 730 572 690 550 662" fill="none" stroke="${fold}" stroke-width="6" stroke-linecap="round" opacity="0.7"/>`,
  ].join('');
}

function apron(c: Colours): string {
  const light = luminance(c.cloth) < 0.25;
  const fabric = light ? '#E9E0D0' : '#4A3B30';
  const strap = shade(fabric, 0.12);
  return [
    `<path d="M318 594 L300 800" stroke="${strap}" stroke-width="22" stroke-linecap="round"/>`,
    `<path d="M482 594 L500 800" stroke="${strap}" stroke-width="22" stroke-linecap="round"/>`,
    `<path d="M292 690 L508 690 L520 800 L280 800 Z" fill="${fabric}"/>`,
    `<path d="M350 732 L450 732 L452 800 L348 800 Z" fill="none" stroke="${strap}" stroke-width="5" stroke-linejoin="round"/>`,
  ].join('');
}

function scarf(c: Colours): string {
  const base = luminance(c.cloth) > 0.35 ? '#3F6B4F' : '#E6D8BF';
  const edge = shade(base, 0.14);
  return [
    `<path d="M332 552 C360 590 440 590 468 552 C490 568 496 596 480 618 C440 650 360 650 320 618 C304 596 310 568 332 552 Z" fill="${base}"/>`,
    `<path d="M336 588 C370 618 430 618 464 588" fill="none" stroke="${edge}" stroke-width="6" stroke-linecap="round"/>`,
    `<path d="M424 624 C440 630 458 630 472 622 C476 670 482 720 488 770 C474 780 456 784 440 782 C436 730 430 676 424 624 Z" fill="${base}"/>`,
    `<path d="M436 690 L478 684 M440 730 L482 724" stroke="${edge}" stroke-width="5" stroke-linecap="round"/>`,
  ].join('');
}

function head(c: Colours, showEars: boolean): string {
  const ear = shade(c.skin, 0.05);
  const ears = showEars
    ? `<ellipse cx="${HEAD.cx - HEAD.rx + 4}" cy="380" rx="24" ry="34" fill="${ear}"/><ellipse cx="${HEAD.cx + HEAD.rx - 4}" cy="380" rx="24" ry="34" fill="${ear}"/>`
    : '';
  return `${ears}<ellipse cx="${HEAD.cx}" cy="${HEAD.cy}" rx="${HEAD.rx}" ry="${HEAD.ry}" fill="${c.skin}"/>`;
}

/** Hair in front of the head. */
function hairFront(style: PortraitArt['hairStyle'], hair: string): string {
  const hi = tint(hair, 0.18);
  switch (style) {
    case 'short':
      return [
        `<path d="M278 352 C268 246 320 196 404 196 C488 196 538 246 524 352 C516 306 500 282 486 270 C440 300 360 300 318 262 C300 290 286 316 278 352 Z" fill="${hair}"/>`,
        `<path d="M340 232 C380 218 430 220 468 238" fill="none" stroke="${hi}" stroke-width="6" stroke-linecap="round" opacity="0.6"/>`,
      ].join('');
    case 'grey-short':
      return [
        `<path d="M282 350 C272 258 322 210 400 210 C478 210 528 258 518 350 C510 318 500 296 486 282 C470 262 436 254 400 254 C360 254 328 264 312 284 C298 300 288 322 282 350 Z" fill="${GREY_HAIR}"/>`,
        `<path d="M330 248 C368 236 432 236 470 248" fill="none" stroke="#E4E5E2" stroke-width="6" stroke-linecap="round"/>`,
      ].join('');
    case 'long':
      return [
        `<path d="M280 420 C262 270 310 204 404 204 C492 204 540 262 522 420 C514 352 500 300 472 272 C430 292 356 300 316 272 C296 310 284 356 280 420 Z" fill="${hair}"/>`,
        `<path d="M304 276 C272 318 262 380 262 460 C262 540 266 600 284 646 C292 664 318 664 324 646 C316 590 306 520 306 446 C306 380 312 330 304 276 Z" fill="${hair}"/>`,
        `<path d="M496 276 C528 318 538 380 538 460 C538 540 534 600 516 646 C508 664 482 664 476 646 C484 590 494 520 494 446 C494 380 488 330 496 276 Z" fill="${hair}"/>`,
        `<path d="M350 232 C390 220 430 222 462 236" fill="none" stroke="${hi}" stroke-width="6" stroke-linecap="round" opacity="0.6"/>`,
      ].join('');
    case 'bun':
      return [
        `<path d="M280 372 C268 262 318 214 400 214 C482 214 532 262 520 372 C512 316 488 272 440 262 C410 258 390 258 360 262 C312 272 288 316 280 372 Z" fill="${hair}"/>`,
        `<path d="M400 216 L400 262" stroke="${shade(hair, 0.25)}" stroke-width="5" stroke-linecap="round" opacity="0.7"/>`,
      ].join('');
    case 'ponytail':
      return [
        `<path d="M280 370 C266 262 318 208 402 208 C486 208 536 262 522 370 C514 320 500 290 480 272 C440 286 370 286 330 262 C304 290 286 326 280 370 Z" fill="${hair}"/>`,
        `<circle cx="514" cy="294" r="14" fill="${shade(hair, 0.35)}"/>`,
        `<path d="M346 234 C384 222 428 224 460 238" fill="none" stroke="${hi}" stroke-width="6" stroke-linecap="round" opacity="0.6"/>`,
      ].join('');
    case 'bald':
      return [
        `<path d="M284 392 C278 352 284 326 294 310 C300 340 302 368 300 398 Z" fill="${hair}"/>`,
        `<path d="M516 392 C522 352 516 326 506 310 C500 340 498 368 500 398 Z" fill="${hair}"/>`,
        `<path d="M350 244 C372 232 400 228 424 232" fill="none" stroke="#FFFFFF" stroke-width="10" stroke-linecap="round" opacity="0.35"/>`,
      ].join('');
  }
}

function face(c: Colours, style: PortraitArt['hairStyle']): string {
  const brow =
    style === 'grey-short'
      ? shade(GREY_HAIR, 0.35)
      : style === 'bald'
        ? shade(c.hair, 0.1)
        : shade(c.hair, 0.05);
  const blush = mix(c.skin, '#E07A6A', 0.35);
  const line = mix(c.skin, FEATURE, 0.55);
  return [
    // brows
    `<path d="M330 350 Q352 338 374 346" fill="none" stroke="${brow}" stroke-width="8" stroke-linecap="round"/>`,
    `<path d="M426 346 Q448 338 470 350" fill="none" stroke="${brow}" stroke-width="8" stroke-linecap="round"/>`,
    // eyes
    `<circle cx="354" cy="384" r="10" fill="${FEATURE}"/>`,
    `<circle cx="446" cy="384" r="10" fill="${FEATURE}"/>`,
    `<circle cx="357" cy="381" r="3" fill="#FFFFFF" opacity="0.8"/>`,
    `<circle cx="449" cy="381" r="3" fill="#FFFFFF" opacity="0.8"/>`,
    // nose
    `<path d="M402 402 Q412 428 398 436" fill="none" stroke="${line}" stroke-width="5" stroke-linecap="round"/>`,
    // cheeks
    `<ellipse cx="330" cy="432" rx="22" ry="13" fill="${blush}" opacity="0.45"/>`,
    `<ellipse cx="470" cy="432" rx="22" ry="13" fill="${blush}" opacity="0.45"/>`,
    // gentle smile
    `<path d="M370 460 Q400 484 430 460" fill="none" stroke="${shade(c.skin, 0.5)}" stroke-width="6" stroke-linecap="round"/>`,
  ].join('');
}

function glasses(): string {
  const frame = FEATURE;
  return [
    `<g fill="#FFFFFF" fill-opacity="0.14" stroke="${frame}" stroke-width="6">`,
    `<rect x="316" y="352" width="76" height="62" rx="24"/>`,
    `<rect x="408" y="352" width="76" height="62" rx="24"/>`,
    `</g>`,
    `<path d="M392 376 Q400 368 408 376" fill="none" stroke="${frame}" stroke-width="6" stroke-linecap="round"/>`,
    `<path d="M316 372 L284 364 M484 372 L516 364" stroke="${frame}" stroke-width="6" stroke-linecap="round"/>`,
  ].join('');
}

/** Renders a portrait as a complete, self-contained SVG document (square, viewBox 0 0 800 800). */
export function renderPortrait(art: PortraitArt, size = 800): string {
  const c: Colours = {
    bg: safeColour(art.background, '#F7F3EC'),
    skin: safeColour(art.skin, '#EBC4A6'),
    hair: art.hairStyle === 'grey-short' ? GREY_HAIR : safeColour(art.hair, '#2B2320'),
    cloth: safeColour(art.clothing, '#3F6B4F'),
  };
  const accessory = art.accessory ?? 'none';
  const px = Math.round(size);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${px}" viewBox="0 0 800 800">`,
    backdrop(c),
    hairBack(art.hairStyle, c.hair),
    shoulders(c),
    accessory === 'apron' ? apron(c) : '',
    accessory === 'scarf' ? scarf(c) : '',
    head(c, art.hairStyle !== 'long'),
    hairFront(art.hairStyle, c.hair),
    face(c, art.hairStyle),
    accessory === 'glasses' ? glasses() : '',
    `</svg>`,
  ].join('\n');
}
