#!/usr/bin/env node
// Browser tests drive Debian's Chromium; Chinese text needs the Noto CJK fonts; the barcode test
// renders a printed PDF with poppler's pdftoppm. Installs them with apt when running as root on
// Debian, else prints the exact command and fails.
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const COMMAND = 'apt-get update && apt-get install -y chromium fonts-noto-cjk poppler-utils';
const PDFTOPPM = '/usr/bin/pdftoppm';

function hasCjkFont() {
  try {
    return /Noto (Sans|Serif) CJK/.test(execSync('fc-list', { encoding: 'utf8' }));
  } catch {
    return false;
  }
}

export function ensureChromium() {
  if (fs.existsSync(CHROMIUM) && hasCjkFont() && fs.existsSync(PDFTOPPM)) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const isDebian = fs.existsSync('/etc/debian_version') && fs.existsSync('/usr/bin/apt-get');
  if (!isRoot || !isDebian) {
    console.error(
      `Chromium (${CHROMIUM}), the Noto CJK fonts or pdftoppm are missing. Install them with:\n  sudo sh -c '${COMMAND}'`,
    );
    return false;
  }
  console.log('Installing Chromium, Noto CJK fonts and poppler-utils with apt…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = spawnSync(
    'apt-get',
    ['install', '-y', '-qq', 'chromium', 'fonts-noto-cjk', 'poppler-utils'],
    {
      stdio: 'inherit',
      env,
    },
  );
  if (update.status !== 0 || install.status !== 0 || !fs.existsSync(CHROMIUM) || !fs.existsSync(PDFTOPPM)) {
    console.error(`Installing failed. Run it yourself:\n  ${COMMAND}`);
    return false;
  }
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(ensureChromium() ? 0 : 1);
