import type { ImageView, ProductCard } from './catalog.ts';
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
} from './content.ts';

/** What the content API answers (types only; the server builds them from validated documents). */
export type WithImage<T, K extends string> = Omit<T, K> & { [P in K]: ImageView };

export interface LandingView {
  page: LandingPage;
  products: ProductCard[];
  masters: Array<WithImage<Master, 'portrait'>>;
  media: MediaItem[];
}
export type CompanyView = CompanyPage;
export type TextPageView = TextPage;
export type TeamMemberView = WithImage<TeamMember, 'portrait'>;
export type MasterView = WithImage<Master, 'portrait'> & { products?: ProductCard[] };
export type JobView = Job;
export interface MediaListView {
  items: MediaItem[];
  page: number;
  totalPages: number;
  total: number;
}
export type DownloadView = Omit<DownloadItem, 'file'> & { url: string; size: number; contentType: string };
export type IpRecordView = Omit<IpRecord, 'certificate'> & { certificate: ImageView | null };
export interface FaqView {
  categories: Array<{ slug: string; name: string }>;
  entries: FaqEntry[];
}
