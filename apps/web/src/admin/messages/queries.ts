import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { adminKeys } from '../shared/api.ts';
import { messagesApi, type MessageListQuery } from './api.ts';

export const messageKeys = {
  all: [...adminKeys.all, 'messages'] as const,
  list: (q: MessageListQuery) => [...adminKeys.all, 'messages', 'list', q] as const,
  detail: (referenceNo: string) => [...adminKeys.all, 'messages', 'detail', referenceNo] as const,
};

export const messagesQuery = (q: MessageListQuery) =>
  queryOptions({
    queryKey: messageKeys.list(q),
    queryFn: ({ signal }) => messagesApi.list(q, signal),
    placeholderData: keepPreviousData,
  });

export const messageQuery = (referenceNo: string) =>
  queryOptions({
    queryKey: messageKeys.detail(referenceNo),
    queryFn: ({ signal }) => messagesApi.detail(referenceNo, signal),
  });
