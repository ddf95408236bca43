import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { cn } from '../../components/ui/cn.ts';

/**
 * A table's search field: searches on Enter or the button (not on every key, so the URL and the
 * server are not asked per letter), and shows what the URL says when it changes elsewhere (Back,
 * 「清除條件」, a shared link).
 */
export function SearchBox({
  value,
  onSearch,
  placeholder,
  label = '搜尋',
  className,
}: {
  value: string;
  onSearch(q: string): void;
  placeholder: string;
  label?: string;
  /** Width of the field on wider screens (default sm:w-72). */
  className?: string;
}) {
  const [text, setText] = useState(value);
  const [applied, setApplied] = useState(value);
  if (value !== applied) {
    setApplied(value);
    setText(value);
  }
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    onSearch(text.trim());
  };
  return (
    <div className="flex w-full items-end gap-2 sm:w-auto">
      <TextField
        label={label}
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') submit(e);
        }}
        placeholder={placeholder}
        containerClassName={cn('min-w-0 flex-1', className ?? 'sm:w-72')}
        enterKeyHint="search"
      />
      <Button variant="secondary" onClick={() => submit()}>
        搜尋
      </Button>
    </div>
  );
}
