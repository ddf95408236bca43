import { useEffect, useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useFieldArray, useForm, type Path, type UseFormReturn } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { adminPath } from '@shop/shared/admin-routes';
import {
  PRODUCT_STATUS_LABELS,
  type AdminProductDetail,
  type AdminVariant,
  type CreateProductBody,
  type ProductStatus,
  type UpdateProductBody,
} from '@shop/shared/admin-products';
import type { CategoryTreeResponse } from '@shop/shared/catalog';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { categoriesQueryOptions } from '../../../features/catalog/api/catalog-api.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { FORM_MODE, errorMessage } from '../../../lib/form.ts';
import { markFormSaved } from '../../../lib/unsaved-input.ts';
import { AdminPage } from '../../shared/admin-page.tsx';
import { ArchiveDialog } from '../components/product-archive-dialog.tsx';
import { ProductDescriptionEditor } from '../components/product-description-editor.tsx';
import {
  CellInput,
  formPath,
  productChecker,
  toBody,
  toFormValues,
  type ProductFormValues,
} from '../components/product-form.tsx';
import { ProductOptions } from '../components/product-options.tsx';
import { randomSlugCode, suggestSlug } from '../slug.ts';
import { ProductImages } from '../components/product-images.tsx';
import { productDetailQuery, productKeys } from '../queries.ts';
import { ProductLedger, StockDialog } from '../components/product-stock-dialog.tsx';
import { ProductVariants } from '../components/product-variants.tsx';
import { useCan } from '../../shared/use-admin-me.ts';
import { ProductStatusBadge } from '../components/product-badges.tsx';
import { productsApi } from '../api.ts';

const BACK = { to: adminPath.products(), label: '商品列表' };
const FORM_ID = 'product-form';
const editPath = (id: string) => adminPath.productEdit(id);

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: React.ReactNode;
}) {
  const id = `section-${title}`;
  return (
    <Card className="flex flex-col gap-4" role="region" aria-labelledby={id}>
      <div>
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {description && <p className="text-sm text-ink-muted">{description}</p>}
      </div>
      {children}
    </Card>
  );
}

function SpecsEditor({ form, canWrite }: { form: UseFormReturn<ProductFormValues>; canWrite: boolean }) {
  const uid = useId();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'specs' });
  const errors = form.formState.errors.specs;
  return (
    <div className="flex flex-col gap-3">
      {fields.length === 0 ? (
        <p className="text-sm text-ink-muted">還沒有規格說明，例如「產地：南投鹿谷」。</p>
      ) : (
        <div
          className="grid grid-cols-[minmax(0,1fr)_minmax(0,2fr)_auto] gap-x-2 gap-y-2"
          role="table"
          aria-label="規格說明"
        >
          <div role="row" className="contents text-sm font-medium text-ink-muted">
            <span role="columnheader">名稱</span>
            <span role="columnheader">內容</span>
            <span role="columnheader" className={canWrite ? '' : 'sr-only'}>
              <span className="sr-only">操作</span>
            </span>
          </div>
          {fields.map((field, i) => (
            <div key={field.id} role="row" className="contents">
              <div role="cell">
                <CellInput
                  id={`${uid}-${i}-label`}
                  label={`第 ${i + 1} 項規格說明的名稱`}
                  placeholder="產地"
                  error={errors?.[i]?.label?.message}
                  {...form.register(`specs.${i}.label`)}
                />
              </div>
              <div role="cell">
                <CellInput
                  id={`${uid}-${i}-value`}
                  label={`第 ${i + 1} 項規格說明的內容`}
                  placeholder="南投鹿谷"
                  error={errors?.[i]?.value?.message}
                  {...form.register(`specs.${i}.value`)}
                />
              </div>
              <div role="cell">
                {canWrite && (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-danger!"
                    onClick={() => remove(i)}
                    aria-label={`移除第 ${i + 1} 項規格說明`}
                  >
                    移除
                  </Button>
                )}
              </div>
            </div>
          ))}
        </div>
      )}
      {canWrite && (
        <div>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => append({ label: '', value: '' }, { focusName: `specs.${fields.length}.label` })}
          >
            ＋ 新增規格說明
          </Button>
        </div>
      )}
    </div>
  );
}

function CategoryOptions({ tree }: { tree: CategoryTreeResponse | undefined }) {
  return (
    <>
      <option value="">請選擇分類</option>
      {tree?.categories.map((c) => [
        <option key={c.slug} value={c.slug}>
          {c.name}
        </option>,
        ...c.children.map((k) => (
          <option key={k.slug} value={k.slug}>
            {`\u3000${k.name}`}
          </option>
        )),
      ])}
    </>
  );
}

function statusOptions(saved: ProductStatus | null): ProductStatus[] {
  if (saved === 'archived') return ['archived', 'active', 'draft'];
  return ['draft', 'active'];
}

function ProductEditor({
  detail,
  categories,
  canWrite,
}: {
  detail: AdminProductDetail | null;
  categories: CategoryTreeResponse | undefined;
  canWrite: boolean;
}) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const isNew = detail === null;
  // The check knows when it is a save's (product-form.tsx: untouched new rows wait for it).
  const [checker] = useState(() => productChecker(isNew ? 'create' : 'update'));
  const form = useForm<ProductFormValues>({
    defaultValues: toFormValues(detail),
    resolver: checker.resolver,
    mode: FORM_MODE,
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  /** The version the form was loaded from; the server refuses a save over a newer one. */
  const [base, setBase] = useState(detail?.updatedAt);
  const [formError, setFormError] = useState<{
    message: string;
    conflict?: boolean;
    invalid?: boolean;
  } | null>(null);
  // 「有欄位需要修正」 goes once every field is fixed, as the fields' own messages do.
  const hasErrors = Object.keys(errors).length > 0;
  const [hadErrors, setHadErrors] = useState(hasErrors);
  if (hasErrors !== hadErrors) {
    setHadErrors(hasErrors);
    if (!hasErrors && formError?.invalid) setFormError(null);
  }
  // A new product's address follows its name until the owner writes one (slug.ts explains the spelling).
  const [slugCode] = useState(randomSlugCode);
  const [slugOwn, setSlugOwn] = useState(!isNew);
  const slugFromName = {
    onChange: () => {
      if (!slugOwn)
        form.setValue('slug', suggestSlug(form.getValues('name'), slugCode), {
          shouldDirty: true,
          shouldValidate: true,
        });
    },
  };
  const [adjusting, setAdjusting] = useState<AdminVariant | null>(null);
  const [archiving, setArchiving] = useState(false);
  const [reloading, setReloading] = useState(false);

  // Leaving the page (reload, closing the tab) with unsaved edits asks first.
  useEffect(() => {
    if (!isDirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [isDirty]);

  const loadSaved = (saved: AdminProductDetail) => {
    client.setQueryData(productKeys.detail(saved.id), saved);
    setBase(saved.updatedAt);
    form.reset(toFormValues(saved));
  };

  const onSubmit = form.handleSubmit(
    async (values, event) => {
      setFormError(null);
      try {
        if (isNew) {
          const { body } = toBody(values);
          const created = await productsApi.create(body as CreateProductBody);
          markFormSaved(event?.target);
          client.setQueryData(productKeys.detail(created.id), created);
          void client.invalidateQueries({ queryKey: productKeys.lists() });
          toast.success(`已新增「${created.name}」。`);
          form.reset(toFormValues(created));
          await navigate(editPath(created.id), { replace: true });
          return;
        }
        const { body } = toBody(values, base);
        const saved = await productsApi.update(detail.id, body as UpdateProductBody);
        markFormSaved(event?.target);
        loadSaved(saved);
        void client.invalidateQueries({ queryKey: productKeys.lists() });
        toast.success('已儲存商品。');
      } catch (error) {
        // Nothing typed is lost: the form keeps its values; messages go beside their fields.
        const fields = error instanceof ApiError ? (error.fields ?? {}) : {};
        Object.entries(fields).forEach(([key, message], i) => {
          const path = formPath(key);
          const name = (
            ['variants', 'images', 'specs', 'description'].includes(path) ? `${path}.root` : path
          ) as Path<ProductFormValues>;
          form.setError(name, { type: 'server', message }, { shouldFocus: i === 0 });
        });
        const conflict = error instanceof ApiError && error.status === 409;
        setFormError({
          message: Object.keys(fields).length
            ? `${errorMessage(error)} 請查看標示紅字的欄位。`
            : errorMessage(error),
          conflict,
        });
      }
    },
    () => setFormError({ message: '有欄位需要修正，請查看標示紅字的欄位。', invalid: true }),
  );
  const submit = (event: React.FormEvent<HTMLFormElement>) => checker.save(() => onSubmit(event));

  const reloadLatest = async () => {
    if (!detail) return;
    setReloading(true);
    try {
      const fresh = await client.fetchQuery({ ...productDetailQuery(detail.id), staleTime: 0 });
      loadSaved(fresh);
      setFormError(null);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setReloading(false);
    }
  };

  const title = isNew ? '新增商品' : detail.name;
  const savedStatus = detail?.status ?? null;
  const shopUrl = detail && detail.status === 'active' ? `/mall/${detail.slug}` : null;

  return (
    <AdminPage
      title={title}
      back={BACK}
      description={
        detail ? (
          <span className="flex flex-wrap items-center gap-2">
            <ProductStatusBadge status={detail.status} />
            <span className="break-all">/mall/{detail.slug}</span>
            {shopUrl && (
              <a
                href={shopUrl}
                target="_blank"
                rel="noreferrer"
                className="text-tea underline underline-offset-4"
              >
                在商城查看<span className="sr-only">（另開新視窗）</span>
              </a>
            )}
          </span>
        ) : (
          '填好基本資料與至少一個規格後儲存；狀態選「草稿」時商城看不到。'
        )
      }
      actions={
        canWrite && (
          <>
            {detail && detail.status !== 'archived' && (
              <Button variant="secondary" onClick={() => setArchiving(true)}>
                下架
              </Button>
            )}
            <Button type="submit" form={FORM_ID} loading={isSubmitting}>
              {isNew ? '建立商品' : '儲存'}
            </Button>
          </>
        )
      }
    >
      {!canWrite && <Alert tone="info">您的角色只能檢視商品資料；如需修改，請洽店主。</Alert>}
      {detail?.status === 'archived' && (
        <Alert tone="warning" title="這項商品已下架">
          舊網址 /mall/{detail.slug} 目前轉到
          {detail.replacement
            ? `「${detail.replacement.name}」（/mall/${detail.replacement.slug}）`
            : '商城首頁'}
          。要重新販售，請把狀態改為「上架中」或「草稿」後儲存，舊網址的轉址會一併移除。
        </Alert>
      )}
      {formError && (
        <Alert
          tone="error"
          action={
            formError.conflict ? (
              <Button size="sm" variant="secondary" loading={reloading} onClick={() => void reloadLatest()}>
                載入最新資料（捨棄我的修改）
              </Button>
            ) : undefined
          }
        >
          {formError.message}
        </Alert>
      )}
      <form id={FORM_ID} noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-6">
        <fieldset disabled={!canWrite} className="m-0 flex min-w-0 flex-col gap-6 border-0 p-0">
          <legend className="sr-only">商品資料</legend>
          <Section title="基本資料">
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                label="商品名稱"
                required
                maxLength={60}
                error={errors.name?.message}
                {...form.register('name', slugFromName)}
              />
              <TextField
                label="網址代碼"
                required
                spellCheck={false}
                autoCapitalize="off"
                placeholder="dongding-oolong"
                hint={
                  isNew
                    ? '商品頁網址 /mall/網址代碼，依商品名稱自動產生，可以修改；只能用小寫英文字母、數字與連字號。'
                    : canWrite
                      ? '修改後，舊網址會自動轉到新網址。'
                      : undefined
                }
                error={errors.slug?.message}
                {...form.register('slug', { onChange: () => setSlugOwn(true) })}
              />
              <SelectField
                label="分類"
                required
                error={errors.categorySlug?.message}
                {...form.register('categorySlug')}
              >
                <CategoryOptions tree={categories} />
              </SelectField>
              <SelectField
                label="狀態"
                required
                error={errors.status?.message}
                hint={
                  savedStatus === 'archived' || !canWrite || isNew
                    ? undefined
                    : '下架請用上方的「下架」按鈕。'
                }
                {...form.register('status')}
              >
                {statusOptions(savedStatus).map((s) => (
                  <option key={s} value={s}>
                    {PRODUCT_STATUS_LABELS[s]}
                  </option>
                ))}
              </SelectField>
              <TextField
                containerClassName="sm:col-span-2"
                label="標籤"
                placeholder="烏龍、焙火、送禮"
                hint="以逗號或頓號分隔，最多 12 個；商城搜尋也會找標籤。"
                error={errors.tags?.message}
                {...form.register('tags')}
              />
              <div className="sm:col-span-2">
                <TextAreaField
                  label="摘要"
                  rows={3}
                  maxLength={200}
                  hint="顯示在商品卡片與商品頁標題下方，200 字以內。"
                  error={errors.summary?.message}
                  {...form.register('summary')}
                />
              </div>
            </div>
          </Section>

          <Section
            title="規格與庫存"
            description="每個規格有自己的 SKU、價格與庫存；庫存低於或等於門檻時會標示「庫存偏低」。"
          >
            <ProductOptions form={form} canWrite={canWrite} />
            <ProductVariants
              form={form}
              canWrite={canWrite}
              saved={detail?.variants ?? []}
              onAdjust={setAdjusting}
            />
          </Section>

          <Section
            title="圖片"
            description="第一張是封面。請為每張圖片寫下說明，讓使用螢幕閱讀器的顧客也知道圖片內容。"
          >
            <ProductImages form={form} canWrite={canWrite} />
          </Section>

          <Section title="規格說明" description="商品頁上的規格表，例如產地、海拔、焙火程度、重量。">
            <SpecsEditor form={form} canWrite={canWrite} />
          </Section>

          <Section title="商品說明" description="商品頁的介紹文字，依序顯示。">
            <ProductDescriptionEditor form={form} canWrite={canWrite} />
          </Section>
        </fieldset>

        {canWrite && (
          <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-end gap-3 border-t border-line bg-surface/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
            <p className="mr-auto text-sm text-ink-muted" aria-live="polite">
              {isDirty ? '有尚未儲存的修改。' : isNew ? '' : '所有修改都已儲存。'}
            </p>
            {isDirty && !isNew && (
              <Button variant="ghost" onClick={() => form.reset()}>
                放棄修改
              </Button>
            )}
            <Button type="submit" loading={isSubmitting}>
              {isNew ? '建立商品' : '儲存'}
            </Button>
          </div>
        )}
      </form>

      {detail && (
        <Section
          title="庫存紀錄"
          description="每一次庫存變動：訂單售出與取消、退貨入庫、手動調整、CSV 匯入與建立規格時的初始庫存。"
        >
          <ProductLedger productId={detail.id} variants={detail.variants} />
        </Section>
      )}

      {detail && (
        <>
          <StockDialog
            productId={detail.id}
            variant={adjusting ? (detail.variants.find((v) => v.id === adjusting.id) ?? adjusting) : null}
            onClose={() => setAdjusting(null)}
          />
          <ArchiveDialog
            open={archiving}
            product={detail}
            blocked={isDirty ? '您有尚未儲存的修改。請先儲存或放棄修改，再下架。' : null}
            onClose={() => setArchiving(false)}
            onArchived={(result) => {
              setArchiving(false);
              toast.success(`已下架。舊網址 ${result.redirect.from} 會轉到 ${result.redirect.to}。`);
              void client.invalidateQueries({ queryKey: productKeys.lists() });
              void client
                .fetchQuery({ ...productDetailQuery(detail.id), staleTime: 0 })
                .then(loadSaved, () => undefined);
            }}
          />
        </>
      )}
    </AdminPage>
  );
}

/** /admin/products/new and /admin/products/:productId: the product editor (read-only without products.write). */
export default function ProductEditPage() {
  const { productId } = useParams();
  const canWrite = useCan('products.write');
  const categories = useQuery(categoriesQueryOptions());
  const detail = useQuery({ ...productDetailQuery(productId ?? ''), enabled: Boolean(productId) });

  if ((productId && detail.isPending) || categories.isPending) {
    return (
      <AdminPage title={productId ? '編輯商品' : '新增商品'} back={BACK}>
        <div role="status" aria-label="載入中" className="flex flex-col gap-6">
          <Card>
            <SkeletonText lines={6} />
          </Card>
          <Card>
            <SkeletonText lines={4} />
          </Card>
        </div>
      </AdminPage>
    );
  }
  if (productId && detail.isError) {
    const notFound =
      detail.error instanceof ApiError && (detail.error.status === 404 || detail.error.status === 400);
    return (
      <AdminPage title="編輯商品" back={BACK}>
        {notFound ? (
          <EmptyState
            title="找不到這項商品"
            description="網址可能有誤，或商品已被刪除。"
            action={<ButtonLink to={adminPath.products()}>回到商品列表</ButtonLink>}
          />
        ) : (
          <LoadError title="商品資料暫時無法載入" query={detail} />
        )}
      </AdminPage>
    );
  }
  if (categories.isError) {
    return (
      <AdminPage title={productId ? '編輯商品' : '新增商品'} back={BACK}>
        <LoadError title="商品分類暫時無法載入" query={categories} />
      </AdminPage>
    );
  }
  if (!productId && !canWrite) {
    return (
      <AdminPage title="新增商品" back={BACK}>
        <EmptyState
          title="您的角色不能新增商品"
          description="如需新增，請洽店主。"
          action={
            <Link to={adminPath.products()} className="text-tea underline">
              回到商品列表
            </Link>
          }
        />
      </AdminPage>
    );
  }
  return (
    <ProductEditor
      key={productId ?? 'new'}
      detail={productId ? (detail.data ?? null) : null}
      categories={categories.data}
      canWrite={canWrite}
    />
  );
}
