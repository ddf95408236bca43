import type { PageOf } from '@shop/shared/admin';
import type { AdminMessage, AdminMessageRow, ReplyMessageBody } from '@shop/shared/admin-settings';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import { adminApiUrl, seg } from '../shared/api.ts';

export interface MessageListQuery {
  handled?: 'yes' | 'no';
  subject?: string;
  q: string;
  sort: 'newest' | 'unhandled-first';
  page: number;
}

/** The console's calls for what shoppers sent through /contact (a message is named by its reference number). */
export const messagesApi = {
  list: (q: MessageListQuery, signal?: AbortSignal) =>
    apiGet<PageOf<AdminMessageRow>>(adminApiUrl('/messages', { ...q }), { signal }),
  detail: (referenceNo: string, signal?: AbortSignal) =>
    apiGet<AdminMessage>(adminApiUrl(`/messages/${seg(referenceNo)}`), { signal }),
  setHandled: (referenceNo: string, handled: boolean) =>
    apiPost<AdminMessage>(adminApiUrl(`/messages/${seg(referenceNo)}/handled`), { handled }),
  /** Mails a reply to the sender from the shop and keeps it with the message (which becomes handled). */
  reply: (referenceNo: string, body: ReplyMessageBody) =>
    apiPost<AdminMessage>(adminApiUrl(`/messages/${seg(referenceNo)}/replies`), body),
};
