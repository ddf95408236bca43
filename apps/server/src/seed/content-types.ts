import type { z } from 'zod';
import type {
  CompanyPage,
  DownloadItem,
  FaqEntry,
  IpRecord,
  Job,
  LandingPage,
  MediaItem,
  Master,
  TeamMember,
  TextPage,
  FaqCategory,
} from '@shop/shared/content';

/** Shapes of the demo content (seed data). Pictures and files are described here and drawn by code at seed time. */

/** A portrait illustration (not a photo): flat, calm, in the brand palette. */
export interface PortraitArt {
  readonly background: string;
  readonly skin: string;
  readonly hair: string;
  readonly hairStyle: 'short' | 'long' | 'bun' | 'bald' | 'grey-short' | 'ponytail';
  readonly clothing: string;
  readonly accessory?: 'glasses' | 'apron' | 'scarf' | 'none';
  readonly alt: string;
}

/** A certificate picture for a patent or trademark record. */
export interface CertificateArt {
  readonly heading: string;
  readonly number: string;
  readonly title: string;
  readonly holder: string;
  readonly date: string;
  readonly alt: string;
}

/** A downloadable file's pages, rendered to images and bound into a PDF at seed time. */
export interface DocumentArt {
  readonly fileName: string;
  readonly pages: ReadonlyArray<{ readonly heading: string; readonly lines: readonly string[] }>;
}

export type SeedTeamMember = Omit<z.input<typeof TeamMember>, 'portrait'> & {
  readonly portrait: PortraitArt;
};
export type SeedMaster = Omit<z.input<typeof Master>, 'portrait'> & { readonly portrait: PortraitArt };
export type SeedIpRecord = Omit<z.input<typeof IpRecord>, 'certificate'> & {
  readonly certificate: CertificateArt | null;
};
export type SeedDownload = Omit<z.input<typeof DownloadItem>, 'file'> & { readonly document: DocumentArt };
export type SeedLanding = z.input<typeof LandingPage>;
export type SeedCompany = z.input<typeof CompanyPage>;
export type SeedJob = z.input<typeof Job>;
export type SeedMedia = z.input<typeof MediaItem>;
export type SeedTextPage = z.input<typeof TextPage>;
export type SeedFaqCategory = z.input<typeof FaqCategory>;
export type SeedFaq = z.input<typeof FaqEntry>;
