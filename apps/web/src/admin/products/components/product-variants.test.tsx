import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { FORM_MODE } from '../../../lib/form.ts';
import { productChecker, toFormValues, type ProductFormValues } from './product-form.tsx';
import { ProductOptions } from './product-options.tsx';
import { ProductVariants } from './product-variants.tsx';

/** The editor's options and variants, with a save button, as the product page has them. */
function Editor() {
  const [checker] = useState(() => productChecker('create'));
  const form = useForm<ProductFormValues>({
    defaultValues: toFormValues(null),
    resolver: checker.resolver,
    mode: FORM_MODE,
  });
  const save = form.handleSubmit(() => {});
  return (
    <form noValidate onSubmit={(e) => void checker.save(() => save(e))}>
      <ProductOptions form={form} canWrite />
      <ProductVariants form={form} canWrite saved={[]} onAdjust={() => {}} />
      <button type="submit">儲存</button>
    </form>
  );
}

// Typing fires input events, which React's onChange on a text field listens to.
const type = (label: string | RegExp, value: string) =>
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
const settle = () => new Promise((r) => setTimeout(r, 20));

describe('the product editor’s options and variants', () => {
  it('a row just added shows no errors until someone types in it or saves', async () => {
    render(<Editor />);
    type('第 1 個規格的 SKU', 'DD-75G');
    type('第 1 個規格的售價', '480');
    fireEvent.click(screen.getByRole('button', { name: '＋ 新增規格' }));
    await settle();
    expect(screen.getByLabelText('第 2 個規格的 SKU')).toBeTruthy();
    expect(screen.queryAllByRole('alert')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: '儲存' }));
    expect(await screen.findByText('請填寫 SKU')).toBeTruthy();
  });

  it('a message that spans two fields goes as soon as either one fixes it', async () => {
    render(<Editor />);
    type('第 1 個規格的 SKU', 'DD-75G');
    type('第 1 個規格的售價', '480');
    type('第 1 個規格的原價（選填）', '450');
    expect(await screen.findByText('原價必須高於售價，或留白')).toBeTruthy();
    // Fixed from the other field: the price comes down.
    type('第 1 個規格的售價', '420');
    await settle();
    expect(screen.queryByText('原價必須高於售價，或留白')).toBeNull();

    // Two rows with one SKU: fixing the first clears the message on the second.
    fireEvent.click(screen.getByRole('button', { name: '＋ 新增規格' }));
    type('第 2 個規格的售價', '880');
    type('第 2 個規格的 SKU', 'DD-75G');
    expect(await screen.findByText('SKU 與第 1 個規格重複')).toBeTruthy();
    type('第 1 個規格的 SKU', 'DD-150G');
    await settle();
    expect(screen.queryByText('SKU 與第 1 個規格重複')).toBeNull();
  });

  it('options are a name and values, one input each; each variant picks a value, and all combinations can be made at once', async () => {
    render(<Editor />);
    fireEvent.click(screen.getByRole('button', { name: '＋ 新增選項' }));
    type('第 1 個選項的名稱', '重量');
    type('重量的第 1 個內容', '75 g');
    fireEvent.click(screen.getByRole('button', { name: '＋ 內容' }));
    type('重量的第 2 個內容', '150 g');
    // The variant picks from the values as typed.
    const choice = screen.getByLabelText('第 1 個規格的重量') as HTMLSelectElement;
    expect(
      within(choice)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['請選擇', '75 g', '150 g']);
    fireEvent.click(screen.getByRole('button', { name: '依選項建立所有組合' }));
    await settle();
    expect((screen.getByLabelText('第 1 個規格的重量') as HTMLSelectElement).value).toBe('75 g');
    expect((screen.getByLabelText('第 2 個規格的重量') as HTMLSelectElement).value).toBe('150 g');
    // Renaming a value renames the choice of the variants that made it.
    type('重量的第 2 個內容', '150g 罐');
    expect((screen.getByLabelText('第 2 個規格的重量') as HTMLSelectElement).value).toBe('150g 罐');

    type('第 1 個規格的 SKU', 'DD-75G');
    type('第 1 個規格的售價', '480');
    type('第 2 個規格的 SKU', 'DD-150G');
    type('第 2 個規格的售價', '880');
    fireEvent.click(screen.getByRole('button', { name: '儲存' }));
    await settle();
    // Every variant has its choice (the rest of the product is not on this test's form).
    expect(screen.queryByText(/請選擇「重量」/)).toBeNull();
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });
});
