import { describe, expect, it } from 'vitest';
import type { AdminProductDetail, DescriptionBlockInput } from '@shop/shared/admin-products';
import {
  emptyVariant,
  formPath,
  fromEditableBlock,
  nestErrors,
  optionCombinations,
  productResolver,
  toBody,
  toEditableBlock,
  toFormValues,
} from './product-form.tsx';

const blocks: DescriptionBlockInput[] = [
  { type: 'heading', text: '沖泡方式' },
  { type: 'paragraph', text: '凍頂烏龍是鹿谷的老味道。' },
  { type: 'list', items: ['香氣：焦糖', '茶湯：金黃'] },
  { type: 'quote', text: '焙火是為了讓茶安定下來。', cite: '陳師傅' },
  { type: 'quote', text: '沒有出處的引言。' },
  {
    type: 'steps',
    items: [
      { title: '溫壺', text: '以熱水溫壺' },
      { title: '置茶', text: '約 6 g' },
    ],
  },
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
    {
      id: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
      sku: 'SL-DD-075',
      options: { 規格: '75 g', 包裝: '罐裝' },
      price: 450,
      compareAtPrice: null,
      stock: 120,
      lowStockThreshold: 5,
      active: true,
      ordered: true,
      restockWaiting: 0,
    },
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
      variants: [
        {
          id: detail.variants[0]!.id,
          sku: 'SL-DD-075',
          options: { 規格: '75 g', 包裝: '罐裝' },
          price: 450,
          compareAtPrice: null,
          lowStockThreshold: 5,
          active: true,
        },
      ],
      updatedAt: detail.updatedAt,
    });
  });

  it('reads a product’s options from its variants: each option a name and its values, each variant a choice', () => {
    const values = toFormValues({
      ...detail,
      variants: [
        { ...detail.variants[0]!, options: { 規格: '75 g', 包裝: '罐裝' } },
        {
          ...detail.variants[0]!,
          id: '2b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
          sku: 'SL-DD-150',
          options: { 規格: '150 g', 包裝: '罐裝' },
        },
      ],
    });
    expect(values.options).toEqual([
      { name: '規格', values: [{ value: '75 g' }, { value: '150 g' }] },
      { name: '包裝', values: [{ value: '罐裝' }] },
    ]);
    expect(values.variants.map((v) => v.options)).toEqual([
      ['75 g', '罐裝'],
      ['150 g', '罐裝'],
    ]);
    expect(toFormValues(null)).toMatchObject({ options: [], variants: [{ options: [] }] });
  });

  it('puts the schema’s zh-TW messages beside the fields, description items on their block', async () => {
    const values = toFormValues(detail);
    values.name = '';
    values.variants[0] = { ...values.variants[0]!, price: '-3', compareAtPrice: 'abc' };
    values.description[2] = { type: 'list', text: '' };
    const result = await productResolver('update', () => true)(values, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(result.errors).toMatchObject({
      name: { message: '請填寫商品名稱' },
      variants: [{ price: { message: '價格必須是正整數' }, compareAtPrice: { message: '原價必須是正整數' } }],
      description: [undefined, undefined, { message: '清單至少要有一項' }],
    });
  });

  it('checks the options as the editor shows them: a name, at least one value, no repeats, a choice per variant', async () => {
    const values = toFormValues(detail);
    values.options = [
      { name: '', values: [{ value: '75 g' }] },
      { name: '包裝', values: [{ value: '罐裝' }, { value: '罐裝 ' }] },
      { name: '包裝', values: [{ value: '' }] },
    ];
    values.variants[0] = { ...values.variants[0]!, options: ['75 g', '袋裝', ''] };
    const { optionErrors } = toBody(values);
    expect(optionErrors).toEqual({
      'options.0.name': '選項名稱不能空白',
      'options.1.values': '「罐裝」重複了',
      'options.2.name': '選項「包裝」重複了',
      'options.2.values': '請至少填一個內容，例如「75 g」',
      'variants.0.options': '請選擇「包裝」',
    });
  });

  it('a new row nobody has typed in yet shows no errors while the owner edits, and all of them on save', async () => {
    const values = toFormValues(detail);
    values.variants.push(emptyVariant(0));
    const editing = await productResolver('update')(values, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(editing.errors).toEqual({});
    const saving = await productResolver('update', () => true)(values, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(saving.errors).toMatchObject({
      variants: [undefined, { sku: { message: '請填寫 SKU' }, price: { message: '價格必須是正整數' } }],
    });
  });

  it('makes every combination of the options’ values, and shows a variant’s option errors on its row', () => {
    expect(
      optionCombinations([
        ['75 g', '150 g'],
        ['罐裝', '袋裝'],
      ]),
    ).toEqual([
      ['75 g', '罐裝'],
      ['75 g', '袋裝'],
      ['150 g', '罐裝'],
      ['150 g', '袋裝'],
    ]);
    expect(optionCombinations([['75 g'], []])).toEqual([]);
    expect(formPath('variants.1.options.規格')).toBe('variants.1.options');
  });

  it('nests list-wide errors under root', () => {
    expect(nestErrors({ variants: '至少要有一個規格', 'variants.1.sku': 'SKU 重複' })).toEqual({
      variants: {
        root: { type: 'validate', message: '至少要有一個規格' },
        1: { sku: { type: 'validate', message: 'SKU 重複' } },
      },
    });
  });
});
