import { code39, drawingSVG } from 'bwip-js/browser';

/**
 * A Code 39 barcode as SVG, drawn by bwip-js (Barcode Writer in Pure PostScript): ECPay's three
 * store barcodes are Code 39. Quiet zones of ten modules on each side, as scanners expect; the
 * digits are printed by the page beneath, not by bwip-js (no font to load). Loaded on its own, only
 * where a barcode is shown.
 */
export function code39Svg(text: string): string {
  return code39(
    {
      bcid: 'code39',
      text,
      scale: 2,
      height: 14,
      paddingwidth: 20,
      paddingheight: 2,
      backgroundcolor: 'FFFFFF',
    },
    drawingSVG(),
  );
}
