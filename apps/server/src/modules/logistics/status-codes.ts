/**
 * ECPay's logistics status codes (貨態代碼) as the shop reads them: which step of a parcel's
 * journey each code is. From ECPay's status table per chain and for home delivery
 * (docs/integrations/ecpay-logistics.md, section 6). Codes not listed are recorded on the
 * shipment but move nothing.
 */

export type ParcelStep =
  /** The seller handed it over: dropped at a store (C2C) or checked in at the logistics centre. */
  | 'handed_over'
  | 'in_transit'
  | 'arrived_at_store'
  /** Collected by the buyer at the store, or delivered to the door. */
  | 'collected'
  /** Not collected within the pickup time (at its store, or a store 黑貓 passed it to): on its way back. */
  | 'not_collected'
  /** Home delivery: the receiver refused the parcel; on its way back. */
  | 'refused'
  /** Back with the seller (sender store or logistics centre). */
  | 'returned'
  /** The pickup store closed: the buyer must pick another. */
  | 'store_closed';

const STEPS: ReadonlyArray<readonly [ParcelStep, readonly number[]]> = [
  ['handed_over', [2068, 3032, 2030, 3024]],
  ['in_transit', [2041, 3001, 3006, 3120, 3301, 3312, 3313]],
  ['arrived_at_store', [2063, 2073, 2098, 3018, 3029]],
  ['collected', [2067, 3022, 3003, 3308, 3309, 3307]],
  // 3123: a 黑貓 parcel passed to a store for pickup (轉交門市) and not collected in time (逾期未取，門市刷退).
  ['not_collected', [2065, 2074, 2076, 2078, 3020, 3025, 3123]],
  // 3117 黑貓 拒收, 3305 中華郵政 拒收.
  ['refused', [3117, 3305]],
  // 5004 黑貓 一般單退回, 5008 退貨配完, 3306 / 3310 中華郵政 退回.
  ['returned', [2072, 2099, 3019, 3031, 2070, 2044, 3023, 3306, 3310, 5004, 5008]],
  // 2102 (門市舊店號更新) is not here: the store only got a new number, the parcel still goes there.
  ['store_closed', [2037, 2101, 2103, 2104, 7011, 7101]],
];

/** Steps after which the parcel is on its way back or back: the order waits as 包裹退回, and shipping again makes a new parcel. */
export const CAME_BACK: readonly ParcelStep[] = ['not_collected', 'refused', 'returned'];

const BY_CODE = new Map<number, ParcelStep>(
  STEPS.flatMap(([step, codes]) => codes.map((c) => [c, step] as const)),
);

export function parcelStep(code: number): ParcelStep | null {
  return BY_CODE.get(code) ?? null;
}

/** The code a chain's (or home delivery's) notice carries for a step: what the sandbox sends. */
export function codeFor(subType: string, step: ParcelStep): number | null {
  const chain = subType.startsWith('UNIMART')
    ? 'UNIMART'
    : subType.startsWith('FAMI')
      ? 'FAMI'
      : subType.startsWith('HILIFE')
        ? 'HILIFE'
        : subType.startsWith('OKMART')
          ? 'OKMART'
          : subType;
  const c2c = subType.endsWith('C2C');
  const table: Record<string, Partial<Record<ParcelStep, number>>> = {
    UNIMART: {
      handed_over: c2c ? 2068 : 2030,
      in_transit: 2041,
      arrived_at_store: 2073,
      collected: 2067,
      not_collected: 2074,
      returned: 2072,
      store_closed: c2c ? 2104 : 2037,
    },
    FAMI: {
      handed_over: c2c ? 3032 : 3024,
      arrived_at_store: 3018,
      collected: 3022,
      not_collected: 3020,
      returned: 3019,
      store_closed: 7011,
    },
    HILIFE: {
      handed_over: c2c ? 3032 : 3024,
      arrived_at_store: 3018,
      collected: 3022,
      not_collected: 3020,
      returned: 3019,
      store_closed: 7011,
    },
    OKMART: {
      handed_over: 3032,
      arrived_at_store: 2073,
      collected: 3022,
      not_collected: 2074,
      returned: 2072,
      store_closed: 7101,
    },
    TCAT: {
      handed_over: 3001,
      in_transit: 3006,
      collected: 3003,
      not_collected: 3123,
      refused: 3117,
      returned: 5004,
    },
  };
  return table[chain]?.[step] ?? null;
}

/** What each step's notice says, as ECPay words it (RtnMsg). */
export const STEP_MESSAGES: Readonly<Record<ParcelStep, string>> = {
  handed_over: '賣家已到門市寄件',
  in_transit: '配送中',
  arrived_at_store: '包裹配達取件門市',
  collected: '買家已到店取貨',
  not_collected: '買家未取包裹，將退回物流中心',
  refused: '拒收',
  returned: '包裹已退至原寄件門市',
  store_closed: '取件門市關轉，請重選門市',
};
