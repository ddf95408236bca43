import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useSearchParams } from 'react-router';
import { BRAND } from '@shop/shared/brand';
import { CONTACT_SUBJECTS, ContactBody, type ContactInput } from '@shop/shared/site';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox, SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Container, PageHeader } from '../../../components/ui/page.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { useApiSubmit } from '../../../lib/form.ts';
import { sendContactMessage } from '../api/content-api.ts';

export function ContactPage() {
  const [params] = useSearchParams();
  const [startedAt] = useState(() => Date.now());
  const [sent, setSent] = useState<string | null>(null);
  const subject = CONTACT_SUBJECTS.find((s) => s === params.get('subject'));
  const job = params.get('job');
  const form = useForm<ContactInput>({
    resolver: zodResolver(ContactBody),
    mode: 'onChange',
    defaultValues: {
      name: '',
      email: '',
      phone: '',
      subject: subject ?? '商品諮詢',
      message: job ? `我想應徵「${job}」職缺，以下是我的自我介紹：\n` : '',
      consent: false,
      website: '',
      startedAt,
      ...(job && /^[a-z0-9-]{1,80}$/.test(job) ? { jobSlug: job } : {}),
    },
  });
  const { errors, isSubmitting } = form.formState;
  const { formError, onSubmit } = useApiSubmit(form, sendContactMessage, ({ referenceNo }) =>
    setSent(referenceNo),
  );

  return (
    <Container className="py-10 sm:py-14">
      <PageHeader
        title="聯絡我們"
        lead="訂單、商品、企業採購或應徵，都歡迎來信。客服會在 1 個工作天內回覆。"
      />
      <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_320px]">
        {sent ? (
          <Card className="flex flex-col gap-3" role="status">
            <h2 className="font-serif text-2xl text-tea-dark">已收到您的訊息</h2>
            <p>
              您的案件編號是{' '}
              <strong className="tabular" data-testid="contact-reference">
                {sent}
              </strong>
              ，客服回覆時會附上這個編號。
            </p>
            <Button
              variant="secondary"
              className="self-start"
              onClick={() => {
                form.reset({
                  name: '',
                  email: '',
                  phone: '',
                  subject: '商品諮詢',
                  message: '',
                  consent: false,
                  website: '',
                  startedAt: Date.now(),
                });
                setSent(null);
              }}
            >
              再寫一封
            </Button>
          </Card>
        ) : (
          <Card>
            <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
              {formError && <Alert tone="error">{formError}</Alert>}
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  label="姓名"
                  required
                  autoComplete="name"
                  error={errors.name?.message}
                  {...form.register('name')}
                />
                <TextField
                  label="電子郵件"
                  required
                  type="email"
                  inputMode="email"
                  autoComplete="email"
                  error={errors.email?.message}
                  {...form.register('email')}
                />
                <TextField
                  label="電話（選填）"
                  type="tel"
                  autoComplete="tel"
                  error={errors.phone?.message}
                  {...form.register('phone')}
                />
                <SelectField
                  label="詢問類別"
                  required
                  error={errors.subject?.message}
                  {...form.register('subject')}
                >
                  {CONTACT_SUBJECTS.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </SelectField>
              </div>
              <TextAreaField
                label="訊息內容"
                required
                rows={6}
                placeholder="請描述您的問題；訂單相關請附上訂單編號。"
                error={errors.message?.message}
                {...form.register('message')}
              />
              {/* A field people never see and bots love to fill. */}
              <div className="absolute -left-[10000px] h-px w-px overflow-hidden" aria-hidden="true">
                <label htmlFor="contact-website">網站（請勿填寫）</label>
                <input id="contact-website" tabIndex={-1} autoComplete="off" {...form.register('website')} />
              </div>
              <Checkbox
                label={
                  <>
                    我已閱讀並同意
                    <Link to={paths.privacyPolicy()} target="_blank" className={textLinkClass}>
                      隱私權政策
                    </Link>
                    ，同意山嵐茶事為回覆此次詢問使用我的聯絡資料。
                  </>
                }
                error={errors.consent?.message}
                {...form.register('consent')}
              />
              <Button type="submit" size="lg" className="self-start" loading={isSubmitting}>
                {isSubmitting ? '送出中…' : '送出'}
              </Button>
            </form>
          </Card>
        )}
        <aside className="flex flex-col gap-3 text-sm">
          <h2 className="text-base font-semibold">其他聯絡方式</h2>
          <p>
            客服信箱：
            <a href={`mailto:${BRAND.email}`} className={textLinkClass}>
              {BRAND.email}
            </a>
          </p>
          <p className="tabular">客服電話：{BRAND.phone}</p>
          <p>服務時間：{BRAND.serviceHours}</p>
          <p>地址：{BRAND.address}</p>
          <p className="text-ink-muted">
            常見的問題，也許在
            <Link to={paths.faq()} className={textLinkClass}>
              常見問題
            </Link>
            就有答案。
          </p>
        </aside>
      </div>
    </Container>
  );
}
