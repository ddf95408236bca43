/**
 * Where a shopper follows a parcel on the carrier's own site. Only 黑貓宅急便 opens one parcel from
 * its address (the number goes in, encoded); the others ask for the number on their page (most
 * behind a picture code), so the link opens that page and the number is shown to copy.
 */
export interface CarrierTracking {
  readonly url: string;
  /** The link already opens this parcel; otherwise the number must be typed or pasted there. */
  readonly opensParcel: boolean;
}

const PAGES: Readonly<Record<string, string>> = {
  新竹物流: 'https://www.hct.com.tw/Search/SearchGoods_n.aspx',
  中華郵政: 'https://postserv.post.gov.tw/pstmail/main_mail.html',
  '7-ELEVEN 交貨便': 'https://eservice.7-11.com.tw/e-tracking/search.aspx',
  全家店到店: 'https://fmec.famiport.com.tw/FP_Entrance/QueryBox',
  萊爾富: 'https://www.hilife.com.tw/serviceInfo_search.aspx',
  OK超商: 'https://ecservice.okmart.com.tw/Tracking/Search',
};

/** The carrier's tracking address for a parcel, or null for a carrier we do not know or no number. */
export function carrierTracking(
  carrier: string | null | undefined,
  trackingNo: string | null | undefined,
): CarrierTracking | null {
  const no = (trackingNo ?? '').trim();
  if (!carrier || !no) return null;
  if (carrier === '黑貓宅急便')
    return {
      url: `https://www.t-cat.com.tw/Inquire/TraceDetail.aspx?BillID=${encodeURIComponent(no)}`,
      opensParcel: true,
    };
  const page = PAGES[carrier];
  return page ? { url: page, opensParcel: false } : null;
}
