import { z } from 'zod';
import { DescriptionBlock } from './catalog-blocks.ts';

/**
 * The site's editable content (public pages), one schema per kind. Stored as JSON documents in the
 * database so the owner can change them without a deploy; every write is checked against these.
 */

const text = (max: number) => z.string().trim().min(1).max(max);
const slug = z.string().regex(/^[a-z0-9-]{1,80}$/);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** A page on the web: http or https only (never javascript:, data: or the like). */
const webLink = (max: number) =>
  z.url({ protocol: /^https?$/, error: '請填寫 http:// 或 https:// 開頭的網址' }).max(max);
/** A link on the shop's own pages: a path of this site (/mall) or a page on the web. */
const siteLink = (max: number) =>
  z
    .string()
    .max(max)
    .refine(
      (v) => /^\/(?![/\\])/.test(v) || webLink(max).safeParse(v).success,
      '請填寫本站路徑（例如 /mall）或 http:// 或 https:// 開頭的網址',
    );

/** A picture drawn by code (portraits, certificates) or uploaded later: a storage object. */
export const ContentImage = z.object({
  bucket: z.string(),
  name: z.string(),
  alt: text(120),
  width: z.number().int(),
  height: z.number().int(),
});
export type ContentImage = z.infer<typeof ContentImage>;

export const Section = z.object({ heading: text(60), blocks: z.array(DescriptionBlock).min(1).max(30) });
export type Section = z.infer<typeof Section>;

/** Text pages: shipping, transport, service terms, privacy policy. */
export const TextPage = z.object({
  title: text(40),
  lead: text(300),
  sections: z.array(Section).min(1).max(30),
  /** e.g. 「最後更新：2026/11/01」 */
  updated: isoDate,
});
export type TextPage = z.infer<typeof TextPage>;

/** /home: the company page. */
export const CompanyPage = z.object({
  title: text(40),
  lead: text(300),
  story: z.array(Section).min(1).max(8),
  values: z
    .array(z.object({ title: text(20), text: text(200) }))
    .min(2)
    .max(6),
  milestones: z
    .array(z.object({ year: z.number().int().min(1900).max(2100), text: text(160) }))
    .min(3)
    .max(20),
  locations: z
    .array(
      z.object({
        name: text(30),
        address: text(80),
        hours: text(60),
        phone: text(20),
        note: z.string().max(120).optional(),
      }),
    )
    .min(1)
    .max(6),
});
export type CompanyPage = z.infer<typeof CompanyPage>;

/** The landing page's words (products, masters and media come from their own tables). */
export const LandingPage = z.object({
  heroTitle: text(40),
  heroLead: text(160),
  announcements: z
    .array(z.object({ text: text(80), href: siteLink(200).optional() }))
    .min(1)
    .max(8),
  promises: z.array(z.object({ title: text(12), text: text(120) })).length(3),
  featuredProductSlugs: z.array(slug).min(3).max(8),
  joinTitle: text(30),
  joinText: text(120),
});
export type LandingPage = z.infer<typeof LandingPage>;

export const TeamMember = z.object({
  slug,
  name: text(20),
  role: text(30),
  department: text(20),
  summary: text(120),
  bio: z.array(text(600)).min(1).max(6),
  favouriteTea: text(40),
  portrait: ContentImage,
});
export type TeamMember = z.infer<typeof TeamMember>;

export const Master = z.object({
  slug,
  name: text(20),
  title: text(30),
  years: z.number().int().min(1).max(80),
  summary: text(120),
  bio: z.array(text(600)).min(1).max(6),
  specialties: z.array(text(30)).min(1).max(8),
  quote: text(120),
  relatedProductSlugs: z.array(slug).max(6),
  portrait: ContentImage,
});
export type Master = z.infer<typeof Master>;

export const Job = z.object({
  slug,
  title: text(40),
  department: text(20),
  location: text(40),
  type: z.enum(['全職', '兼職', '實習']),
  posted: isoDate,
  summary: text(200),
  responsibilities: z.array(text(160)).min(2).max(10),
  requirements: z.array(text(160)).min(2).max(10),
  benefits: z.array(text(160)).min(1).max(10),
});
export type Job = z.infer<typeof Job>;

export const MediaItem = z.object({
  slug,
  type: z.enum(['article', 'video']),
  title: text(80),
  source: text(40),
  date: isoDate,
  summary: text(300),
  /** As long as the console's editor lets it be (admin-content.ts). */
  url: webLink(500),
  /** YouTube video id; the player loads only when the visitor clicks. */
  videoId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{6,20}$/)
    .optional(),
});
export type MediaItem = z.infer<typeof MediaItem>;

export const DownloadItem = z.object({
  slug,
  title: text(60),
  category: z.enum(['型錄', '沖泡指南', '檢驗與認證', '其他']),
  description: text(200),
  date: isoDate,
  membersOnly: z.boolean(),
  /** A storage object; size and type come from its metadata. */
  file: z.object({ bucket: z.string(), name: z.string() }),
});
export type DownloadItem = z.infer<typeof DownloadItem>;

export const IpRecord = z.object({
  slug,
  kind: z.enum(['patent', 'trademark']),
  number: text(30),
  title: text(80),
  country: text(20),
  filedAt: isoDate,
  grantedAt: isoDate.nullable(),
  status: z.enum(['有效', '審查中', '已屆期']),
  certificate: ContentImage.nullable(),
});
export type IpRecord = z.infer<typeof IpRecord>;

export const FaqCategory = z.object({ slug, name: text(20) });
export const FaqEntry = z.object({
  slug,
  category: slug,
  question: text(80),
  answer: z.array(DescriptionBlock).min(1).max(10),
});
export type FaqEntry = z.infer<typeof FaqEntry>;

/** Kinds with one document (a page) and kinds with many items. */
export const CONTENT_KINDS = {
  landing: LandingPage,
  company: CompanyPage,
  textPage: TextPage,
  team: TeamMember,
  master: Master,
  job: Job,
  media: MediaItem,
  download: DownloadItem,
  ip: IpRecord,
  faqCategory: FaqCategory,
  faq: FaqEntry,
} as const;
export type ContentKind = keyof typeof CONTENT_KINDS;

/** Text pages by route id. */
export const TEXT_PAGES = ['shipping', 'transport', 'serviceTerms', 'privacyPolicy'] as const;
export type TextPageSlug = (typeof TEXT_PAGES)[number];
