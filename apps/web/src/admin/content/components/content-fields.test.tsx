import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CONTENT_KIND_DEFS } from '@shop/shared/admin-content';
import type { ContentKind } from '@shop/shared/content';
import { ObjectFields } from './content-fields.tsx';
import { getIn, updateIn, type EditorContext } from './editor-paths.ts';

type Doc = Record<string, unknown>;

/** The text of the elements a control's aria-describedby names (what a screen reader reads after its name). */
const description = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
const nameOf = (el: Element | null) => el?.getAttribute('aria-label') ?? '';

function Editor({
  kind,
  initial,
  errors = {},
  onDoc,
}: {
  kind: ContentKind;
  initial: Doc;
  errors?: Record<string, string>;
  onDoc?(doc: Doc): void;
}) {
  const [doc, setDoc] = useState(initial);
  useEffect(() => {
    onDoc?.(doc);
  }, [doc, onDoc]);
  const ctx: EditorContext = {
    errors,
    readOnly: false,
    isNew: false,
    categories: [],
    doc,
    update: (path, change) => setDoc((prev) => updateIn(prev, path, change) as Doc),
    clearErrors: () => {},
  };
  return <ObjectFields fields={CONTENT_KIND_DEFS[kind].fields} path="" ctx={ctx} />;
}

const section = (heading: string, text: string) => ({ heading, blocks: [{ type: 'paragraph', text }] });
const textPage: Doc = {
  title: '購物與配送須知',
  lead: '從下單到收到茶葉。',
  sections: [
    section('訂購流程', '先登入會員。'),
    section('付款方式', '信用卡或 ATM。'),
    section('運費', '宅配 {{home.fee}}。'),
    section('退換貨', '七天內可退。'),
  ],
  updated: '2026-11-01',
};

describe('content editor fields', () => {
  it('shows a server error beside the field its path names, opening the folded section that holds it', () => {
    render(
      <Editor
        kind="textPage"
        initial={textPage}
        errors={{ 'sections.2.blocks.0.text': '請填寫段落文字', title: '請填寫頁面標題' }}
      />,
    );
    expect(description(screen.getByRole('textbox', { name: '頁面標題' }))).toBe('請填寫頁面標題');
    // Four sections fold; the first is open as an example, the third because of its error, the others stay closed.
    expect(screen.getByRole('button', { name: /章節 2：付款方式/ }).getAttribute('aria-expanded')).toBe(
      'false',
    );
    expect(screen.getByRole('button', { name: /章節 3：運費/ }).getAttribute('aria-expanded')).toBe('true');
    const paragraphs = screen.getAllByRole('textbox', { name: '段落文字' });
    expect(paragraphs.map((p) => (p as HTMLTextAreaElement).value)).toEqual([
      '先登入會員。',
      '宅配 {{home.fee}}。',
    ]);
    expect(paragraphs[1]!.getAttribute('aria-invalid')).toBe('true');
    expect(description(paragraphs[1]!)).toBe('請填寫段落文字');
    expect(paragraphs[0]!.hasAttribute('aria-invalid')).toBe(false);
  });

  it('writes what is typed at the field’s path, and turns a paragraph into a list without losing its lines', async () => {
    const user = userEvent.setup();
    let doc: Doc = textPage;
    render(<Editor kind="textPage" initial={textPage} onDoc={(d) => (doc = d)} />);
    const title = screen.getByRole('textbox', { name: '頁面標題' });
    await user.clear(title);
    await user.type(title, '購物須知');
    expect(doc.title).toBe('購物須知');

    const first = screen.getAllByRole('textbox', { name: '段落文字' })[0]!;
    await user.type(first, '\n再選購商品。');
    await user.selectOptions(screen.getByRole('combobox', { name: '第 1 個區塊的類型' }), 'list');
    expect(getIn(doc, 'sections.0.blocks.0')).toEqual({
      type: 'list',
      items: ['先登入會員。', '再選購商品。'],
    });
    expect((screen.getByRole('textbox', { name: '第 2 個項目' }) as HTMLInputElement).value).toBe(
      '再選購商品。',
    );
  });

  it('moves list items with the keyboard and keeps focus on the moved item', async () => {
    const user = userEvent.setup();
    let doc: Doc = {};
    const master = {
      slug: 'chen',
      name: '陳家和',
      title: '焙茶師傅',
      years: 39,
      summary: '焙茶四十年。',
      bio: ['第一段。'],
      specialties: ['龍眼木炭焙火', '凍頂烏龍', '陳年茶回焙'],
      quote: '急不得。',
      relatedProductSlugs: [],
      portrait: null,
    };
    render(<Editor kind="master" initial={master} onDoc={(d) => (doc = d)} />);
    const specialties = within(screen.getByRole('group', { name: '專長' }));
    specialties.getByRole('button', { name: '下移第 1 個專長' }).focus();
    await user.keyboard('{Enter}');
    expect(doc.specialties).toEqual(['凍頂烏龍', '龍眼木炭焙火', '陳年茶回焙']);
    expect(nameOf(document.activeElement)).toBe('下移第 2 個專長');
    await user.keyboard('{Enter}');
    expect(doc.specialties).toEqual(['凍頂烏龍', '陳年茶回焙', '龍眼木炭焙火']);
    // At the bottom the down arrow is off; the keyboard lands on the up arrow of the same item.
    expect(nameOf(document.activeElement)).toBe('上移第 3 個專長');
    await user.click(specialties.getByRole('button', { name: '移除第 1 個專長' }));
    expect(doc.specialties).toEqual(['陳年茶回焙', '龍眼木炭焙火']);
    await user.click(specialties.getByRole('button', { name: /新增專長/ }));
    expect(doc.specialties).toEqual(['陳年茶回焙', '龍眼木炭焙火', '']);
  });
});
