import type { UseFormReturn } from 'react-hook-form';
import { TW_CITIES } from '@shop/shared/data/tw-districts';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import type { CheckoutForm } from '../schema.ts';

/** City → district (postal code filled in) → street address, as Taiwanese addresses are written. */
export function AddressFields({ form }: { form: UseFormReturn<CheckoutForm> }) {
  const { errors } = form.formState;
  const city = form.watch('city');
  const district = form.watch('district');
  const districts = TW_CITIES.find((c) => c.name === city)?.districts ?? [];
  const zip = districts.find((d) => d.name === district)?.zip;
  return (
    <div className="grid gap-4 sm:grid-cols-[1fr_1fr_auto]">
      <SelectField
        label="縣市"
        required
        error={errors.city?.message}
        {...form.register('city', {
          onChange: () => form.setValue('district', '', { shouldValidate: false }),
        })}
      >
        <option value="">請選擇縣市</option>
        {TW_CITIES.map((c) => (
          <option key={c.name} value={c.name}>
            {c.name}
          </option>
        ))}
      </SelectField>
      {/* A new select per city: a district filled in with its city (a saved address, the last order)
          is shown as soon as the city's districts are there, not lost to the options of the city before. */}
      <SelectField
        key={city}
        label="鄉鎮市區"
        required
        disabled={!city}
        error={errors.district?.message}
        {...form.register('district')}
      >
        <option value="">{city ? '請選擇鄉鎮市區' : '請先選擇縣市'}</option>
        {districts.map((d) => (
          <option key={d.name} value={d.name}>
            {d.name}
          </option>
        ))}
      </SelectField>
      <div className="flex flex-col gap-1.5">
        <span className="text-sm font-medium text-ink">郵遞區號</span>
        <output
          className="tabular flex min-h-11 min-w-20 items-center rounded-md border border-line bg-paper px-3.5 text-ink-muted"
          aria-live="polite"
        >
          {zip ?? '—'}
        </output>
      </div>
      <TextField
        containerClassName="sm:col-span-3"
        label="地址"
        required
        autoComplete="street-address"
        placeholder="路名、巷弄、門牌與樓層"
        error={errors.address?.message}
        {...form.register('address')}
      />
    </div>
  );
}
