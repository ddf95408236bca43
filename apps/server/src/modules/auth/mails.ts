import { renderMail } from '../../lib/mail-layout.ts';
import type { MailMessage } from '../../plugins/mail.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';

const greeting = (name: string) => `${name} 您好：`;

export function verificationMail(to: string, name: string, url: string): MailMessage {
  return {
    to,
    ...renderMail({
      title: '請驗證您的電子郵件',
      greeting: greeting(name),
      paragraphs: ['感謝您加入山嵐茶事會員。請{action}，確認這是您的電子郵件地址。'],
      action: { label: '驗證電子郵件', url },
      notes: ['這個連結在 24 小時內有效，且只能使用一次。', '如果您沒有註冊山嵐茶事會員，請忽略這封信。'],
    }),
    meta: { link: url, kind: 'verify-email' },
  };
}

export function resetPasswordMail(to: string, name: string, url: string): MailMessage {
  return {
    to,
    ...renderMail({
      title: '重設您的密碼',
      greeting: greeting(name),
      paragraphs: ['我們收到重設密碼的申請。請{action}設定新的密碼。'],
      action: { label: '重設密碼', url },
      notes: [
        '這個連結在 1 小時內有效，且只能使用一次。',
        '如果您沒有申請重設密碼，請忽略這封信，您的密碼不會改變。',
      ],
    }),
    meta: { link: url, kind: 'reset-password' },
  };
}

export function passwordChangedMail(to: string, name: string, when: Date, loginUrl: string): MailMessage {
  const time = formatTaipeiDateTime(when);
  return {
    to,
    ...renderMail({
      title: '您的密碼已經變更',
      greeting: greeting(name),
      paragraphs: [`您的山嵐茶事會員密碼已於 ${time} 變更，其他裝置上的登入也已一併登出。`],
      action: { label: '前往登入', url: loginUrl },
      notes: ['如果這不是您本人的操作，請立即使用「忘記密碼」重設密碼，並與客服聯絡。'],
    }),
    meta: { link: loginUrl, kind: 'password-changed' },
  };
}

export function emailChangedMail(to: string, name: string, newEmail: string, when: Date): MailMessage {
  const time = formatTaipeiDateTime(when);
  return {
    to,
    ...renderMail({
      title: '您的電子郵件已經變更',
      greeting: greeting(name),
      paragraphs: [`您的山嵐茶事會員帳號已於 ${time} 改用 ${newEmail}，之後的通知會寄到新的信箱。`],
      notes: ['如果這不是您本人的操作，請立即與客服聯絡。'],
    }),
    meta: { kind: 'email-changed' },
  };
}

/** A console invite: says who invites, to which role, and what accepting does. */
export function staffInviteMail(
  to: string,
  name: string,
  roleName: string,
  url: string,
  expiresAt: Date,
): MailMessage {
  const until = formatTaipeiDateTime(expiresAt);
  return {
    to,
    ...renderMail({
      title: '邀請您加入管理後台',
      greeting: greeting(name),
      paragraphs: [
        `山嵐茶事邀請您以「${roleName}」的身分使用管理後台。請{action}設定密碼，接受邀請後即可登入。`,
        '接受邀請時會為這個電子郵件的帳號設定新的密碼，並登出它在所有裝置上的登入。',
      ],
      action: { label: '接受邀請並設定密碼', url },
      notes: [
        `這個連結在 ${until}（臺北時間）前有效，且只能使用一次。`,
        '如果您正以這個電子郵件登入山嵐茶事，請先登出再開啟連結。',
        '如果您不知道這個邀請，請忽略這封信，您的帳號不會有任何改變。',
      ],
    }),
    meta: { link: url, kind: 'staff-invite' },
  };
}

/** The code that proves an existing account before a LINE or Google sign-in is linked to it. */
export function linkProofCodeMail(to: string, name: string, providerName: string, code: string): MailMessage {
  return {
    to,
    ...renderMail({
      title: `您的驗證碼：${code}`,
      greeting: greeting(name),
      paragraphs: [
        `有人想把 ${providerName} 登入連結到您的山嵐茶事會員帳號。如果是您本人，請在頁面上輸入驗證碼：`,
        code,
      ],
      notes: [
        '驗證碼在 10 分鐘內有效，且只能使用一次。',
        `如果這不是您本人的操作，請勿把驗證碼告訴任何人；不輸入驗證碼，${providerName} 就無法登入您的帳號。`,
      ],
    }),
    meta: { kind: 'link-proof-code' },
  };
}

/** Tells the account a new way to sign in was linked, so an owner who did not do it can act. */
export function signInMethodLinkedMail(
  to: string,
  name: string,
  providerName: string,
  when: Date,
): MailMessage {
  const time = formatTaipeiDateTime(when);
  return {
    to,
    ...renderMail({
      title: `已新增 ${providerName} 登入`,
      greeting: greeting(name),
      paragraphs: [`您的山嵐茶事會員帳號已於 ${time} 連結 ${providerName} 登入，之後可以用它登入。`],
      notes: ['如果這不是您本人的操作，請到會員中心的「登入方式」取消連結、變更密碼，並與客服聯絡。'],
    }),
    meta: { kind: 'sign-in-method-linked' },
  };
}
