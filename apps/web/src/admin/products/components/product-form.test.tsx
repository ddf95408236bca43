import { describe, expect, it } from 'vitest';
import type { AdminProductDetail, DescriptionBlockInput } from '@shop/shared/admin-products';
import { fromEditableBlock, nestErrors, productResolver, toBody, toEditableBlock, toFormValues } from './product-form.tsx';

const blocks: DescriptionBlockInput[] = [
  { type: 'heading', text: '沖泡方式' },
  { type: 'paragraph', text: '凍頂烏龍是鹿谷的老味道。' },
  { type: 'list', items: ['香氣：焦糖', '茶湯：金黃'] },
  { type: 'quote', text: '焙火是為了讓茶安定下來。', cite: '陳師傅' },
  { type: 'quote', text: '沒有出處的引言。' },
  { type: 'steps', items: [{ title: '溫壺', text: '以熱水溫壺' }, { title: '置茶', text: '約 6 g' }] },
];

const detail: AdminProductDetail = {
  id: '70cf110f-b5e4-4c3e-ac22-284773e01ba1',
  slug: 'dongding-oolong',
  name: '凍頂烏龍',
  summary: '鹿谷的招牌茶。',
  status: 'active',
  category: { slug: 'roasted-oolong', name: '炭焙烏龍' },
  tags: ['烏龍', '焙火'],
  specs: [{ label: '產地', value: '南投鹿谷' }],
  description: blocks,
  images: [{ bucket: 'products', name: 'demo/1.png', alt: '茶罐', width: 800, height: 1000, url: '/x.webp' }],
  variants: [
    { id: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed', sku: 'SL-DD-075', options: { 規格: '75 g', 包裝: '罐裝' }, price: 450, compareAtPrice: null, stock: 120, lowStockThreshold: 5, active: true, ordered: true },
  ],
  adjustments: [],
  replacement: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-22T02:54:36.804Z',
};

describe('product editor form model', () => {
  it('round-trips every description block type through the editor without losing any', () => {
    expect(blocks.map(toEditableBlock).map(fromEditableBlock)).toEqual(blocks);
  });

  it('saving an untouched product sends back what was loaded (stock of saved variants is left out)', () => {
    const { body, optionErrors } = toBody(toFormValues(detail), detail.updatedAt);
    expect(optionErrors).toEqual({});
    expect(body).toEqual({
      slug: 'dongding-oolong',
      name: '凍頂烏龍',
      summary: '鹿谷的招牌茶。',
      categorySlug: 'roasted-oolong',
      tags: ['烏龍', '焙火'],
      status: 'active',
      specs: [{ label: '產地', value: '南投鹿谷' }],
      description: blocks,
      images: [{ name: 'demo/1.png', alt: '茶罐' }],
      variants: [{ id: detail.variants[0]!.id, sku: 'SL-DD-075', options: { 規格: '75 g', 包裝: '罐裝' }, price: 450, compareAtPrice: null, lowStockThreshold: 5, active: true }],
      updatedAt: detail.updatedAt,
    });
  });

  it('puts the schema’s zh-TW messages beside the fields, description items on their block', async () => {
    const values = toFormValues(detail);
    values.name = '';
    values.variants[0] = { ...values.variants[0]!, price: '-3', compareAtPrice: 'abc', options: '規格' };
    values.description[2] = { type: 'list', text: '' };
    const result = await productResolver('update')(values, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(result.errors).toMatchObject({
      name: { message: '請填寫商品名稱' },
      variants: [{ price: { message: '價格必須是正整數' }, compareAtPrice: { message: '原價必須是正整數' }, options: { message: '「規格」缺少「=」，請寫成「名稱=內容」，多個選項以「;」分隔' } }],
      description: [undefined, undefined, { message: '清單至少要有一項' }],
    });
  });

  it('nests list-wide errors under root', () => {
    expect(nestErrors({ variants: '至少要有一個規格', 'variants.1.sku': 'SKU 重複' })).toEqual({ variants: { root: { type: 'validate', message: '至少要有一個規格' }, 1: { sku: { type: 'validate', message: 'SKU 重複' } } } });
  });
});
