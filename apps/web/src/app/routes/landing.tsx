import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { BRAND } from '@shop/shared/brand';
import { ButtonLink } from '../../components/ui/button.tsx';
import { Container } from '../../components/ui/page.tsx';
import { paths } from '../../config/paths.ts';

const PROMISES = [
  { title: '炭火慢焙', text: '每一批烏龍都在龍眼木炭上焙足十二小時以上，焙火的節奏由茶師守著，不用機器趕工。' },
  { title: '產地直送', text: '茶園在鹿谷與杉林溪海拔 1,200 公尺以上，採摘、萎凋到焙火，都在自家茶廠完成。' },
  { title: '每批檢驗', text: '每一批茶葉出廠前送驗農藥殘留，檢驗報告可在檔案下載頁查閱。' },
] as const;

const COLLECTIONS = [
  { title: '高山烏龍', text: '清香、蘭花香，入口甘潤', tone: 'from-tea-soft to-paper' },
  { title: '炭焙熟茶', text: '焙火深沉，溫潤回甘', tone: 'from-amber-soft to-paper' },
  { title: '茶器與禮盒', text: '送禮自用都體面的選擇', tone: 'from-line/60 to-paper' },
] as const;

function HillsIllustration() {
  return (
    <svg viewBox="0 0 560 420" className="h-full w-full" role="img" aria-label="霧中層疊的茶山">
      <defs>
        <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#FFFFFF" />
          <stop offset="1" stopColor="#F7F3EC" />
        </linearGradient>
      </defs>
      <rect width="560" height="420" rx="24" fill="url(#sky)" />
      <circle cx="420" cy="110" r="34" fill="#B7793B" opacity="0.85" />
      <path d="M0 250 C90 190 150 200 230 160 C300 125 360 170 430 150 C490 132 530 150 560 140 V420 H0 Z" fill="#E6EEE8" />
      <path d="M0 300 C80 250 160 270 240 230 C320 190 400 240 470 220 C510 208 540 215 560 210 V420 H0 Z" fill="#3F6B4F" opacity="0.55" />
      <path d="M0 350 C100 310 180 330 280 300 C370 272 450 310 560 290 V420 H0 Z" fill="#2E5039" opacity="0.85" />
      <g stroke="#F7F3EC" strokeWidth="2" opacity="0.55" fill="none">
        <path d="M40 372 C120 352 200 360 280 340" />
        <path d="M300 362 C380 342 460 350 540 330" />
        <path d="M80 392 C160 372 240 380 320 360" />
      </g>
      <path d="M0 200 C120 212 260 196 560 206" stroke="#FFFFFF" strokeWidth="14" opacity="0.7" fill="none" />
    </svg>
  );
}

/** The storefront's front page (clarification 5). Scrolls to the top on every visit (spec §2). */
export default function Landing() {
  const location = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [location.key]);

  return (
    <>
      <section className="border-b border-line">
        <Container className="grid items-center gap-10 py-12 sm:py-16 lg:grid-cols-[1.1fr_1fr] lg:py-20">
          <div className="flex flex-col gap-6">
            <p className="text-sm font-medium tracking-[0.3em] text-tea">南投鹿谷・自 {BRAND.founded} 年</p>
            <h1 className="font-serif text-[2rem] leading-tight text-ink sm:text-5xl sm:leading-[1.25]">
              一壺好茶，
              <br />
              從山嵐升起的地方開始。
            </h1>
            <p className="max-w-xl text-lg text-ink-muted">
              三代人守著同一片茶園與同一座焙籠。我們把高山的清香、炭火的溫度，細心封進每一包茶裡，寄到您的桌上。
            </p>
            <div className="flex flex-wrap gap-3">
              <ButtonLink to={paths.mall()} size="lg">
                逛逛商城
              </ButtonLink>
              <ButtonLink to={paths.home()} variant="secondary" size="lg">
                認識山嵐
              </ButtonLink>
            </div>
          </div>
          <div className="aspect-[4/3] overflow-hidden rounded-2xl border border-line shadow-card">
            <HillsIllustration />
          </div>
        </Container>
      </section>

      <section aria-labelledby="promises" className="py-14 sm:py-20">
        <Container>
          <h2 id="promises" className="font-serif text-2xl text-ink sm:text-3xl">
            我們堅持的三件事
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-3">
            {PROMISES.map((p, i) => (
              <li key={p.title} className="flex flex-col gap-3 border-t-2 border-tea pt-5">
                <span className="tabular font-serif text-sm text-amber">0{i + 1}</span>
                <h3 className="text-xl text-ink">{p.title}</h3>
                <p className="text-ink-muted">{p.text}</p>
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <section aria-labelledby="collections" className="border-y border-line bg-surface py-14 sm:py-20">
        <Container>
          <div className="flex flex-wrap items-end justify-between gap-4">
            <h2 id="collections" className="font-serif text-2xl text-ink sm:text-3xl">
              選一款，適合今天的茶
            </h2>
            <Link to={paths.mall()} className="text-tea underline-offset-4 hover:underline">
              查看全部商品 →
            </Link>
          </div>
          <ul className="mt-8 grid gap-4 sm:grid-cols-3">
            {COLLECTIONS.map((c) => (
              <li key={c.title}>
                <Link
                  to={paths.mall()}
                  className={`flex aspect-[5/3] flex-col justify-end rounded-xl border border-line bg-gradient-to-br p-6 transition-shadow hover:shadow-card ${c.tone}`}
                >
                  <span className="font-serif text-xl text-ink">{c.title}</span>
                  <span className="text-sm text-ink-muted">{c.text}</span>
                </Link>
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <section className="py-14 sm:py-20">
        <Container className="flex flex-col items-start gap-5 rounded-2xl bg-tea px-6 py-10 text-white sm:flex-row sm:items-center sm:justify-between sm:px-10">
          <div className="flex flex-col gap-2">
            <h2 className="font-serif text-2xl">加入山嵐會員</h2>
            <p className="text-white/85">註冊即可進入線上商城選購，累積消費還能升級會員等級、享有專屬折扣。</p>
          </div>
          <Link
            to={paths.register()}
            className="inline-flex min-h-12 items-center rounded-md bg-paper px-7 text-lg font-medium text-tea-dark hover:bg-white"
          >
            免費註冊
          </Link>
        </Container>
      </section>
    </>
  );
}
