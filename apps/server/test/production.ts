/**
 * The settings production insists on, with harmless values, for tests of what changes under
 * NODE_ENV=production. The test still passes its own database; nothing here is contacted.
 */
export function productionEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/unused',
    PUBLIC_URL: 'https://shop.example',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    MAIL_LINK_SECRET: 'a-test-secret-of-at-least-32-characters',
    SHOP_NOTIFY_EMAIL: 'service@shop.example',
    ECPAY_ENDPOINT: 'https://payment.ecpay.com.tw/Cashier/AioCheckOut/V5',
    ECPAY_MERCHANT_ID: '1234567',
    ECPAY_HASH_KEY: 'realhashkey1',
    ECPAY_HASH_IV: 'realhashiv12',
    ECPAY_CREDIT_CHECK_CODE: '31415926',
    ECPAY_LOGISTICS_ENDPOINT: 'https://logistics.ecpay.com.tw',
    ECPAY_LOGISTICS_MERCHANT_ID: '7654321',
    ECPAY_LOGISTICS_HASH_KEY: 'reallogistickey1',
    ECPAY_LOGISTICS_HASH_IV: 'reallogisticiv12',
    ECPAY_LOGISTICS_SENDER_NAME: '山嵐茶事',
    ECPAY_LOGISTICS_SENDER_PHONE: '0912345678',
    ECPAY_LOGISTICS_SENDER_ZIP: '558',
    ECPAY_LOGISTICS_SENDER_ADDRESS: '南投縣鹿谷鄉中正路一段 1 號',
    ECPAY_EINVOICE_ENDPOINT: 'https://einvoice.ecpay.com.tw',
    ECPAY_EINVOICE_MERCHANT_ID: '7654322',
    ECPAY_EINVOICE_HASH_KEY: 'realinvoicekey16',
    ECPAY_EINVOICE_HASH_IV: 'realinvoiceiv016',
    LOG_LEVEL: 'silent',
    ...overrides,
  };
}
